package dev.herald.transport.http;

import static org.assertj.core.api.Assertions.assertThat;

import dev.herald.FreshJvm;
import java.net.URI;
import java.util.List;
import javax.net.ssl.SSLContext;
import javax.net.ssl.SSLEngine;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * A transport to a plain {@code http} endpoint makes no TLS context (the JDK's default one is
 * most of a client's start-up), nor does one on {@link Http1Client} before it connects, and the
 * deferred context they use instead behaves as the default one when something does ask for it.
 */
@Timeout(120)
class LazyTlsTest {
  private static final String DEFAULT_CONTEXT = "sun.security.ssl.SSLContextImpl$DefaultSSLContext";

  @Test
  void aTransportToAnHttpEndpointMakesNoTlsContextInAFreshProcess() throws Exception {
    assertThat(classesLoadedBy("http", HttpEngine.AUTO)).doesNotContain(DEFAULT_CONTEXT);
    assertThat(classesLoadedBy("http", HttpEngine.JDK)).doesNotContain(DEFAULT_CONTEXT);
    // the check can tell: the JDK client to an https endpoint makes the default context at once
    assertThat(classesLoadedBy("https", HttpEngine.JDK)).contains(DEFAULT_CONTEXT);
  }

  @Test
  void http1ClientToAnHttpsEndpointMakesTheContextOnlyWhenItConnects() throws Exception {
    assertThat(classesLoadedBy("https", HttpEngine.HTTP1)).doesNotContain(DEFAULT_CONTEXT);
  }

  @Test
  void theDeferredContextGivesEnginesAsTheDefaultContextDoes() throws Exception {
    SSLEngine deferred = LazyTls.context().createSSLEngine("example.org", 443);
    SSLEngine plain = SSLContext.getDefault().createSSLEngine("example.org", 443);
    assertThat(deferred.getEnabledProtocols()).containsExactly(plain.getEnabledProtocols());
    assertThat(deferred.getEnabledCipherSuites()).containsExactly(plain.getEnabledCipherSuites());
    assertThat(deferred.getUseClientMode()).isEqualTo(plain.getUseClientMode());
    assertThat(LazyTls.context().getDefaultSSLParameters().getProtocols())
        .containsExactly(SSLContext.getDefault().getDefaultSSLParameters().getProtocols());
  }

  /**
   * The class-loading log of a fresh JVM that builds a transport to {@code scheme}://127.0.0.1 on
   * {@code engine}.
   */
  private static String classesLoadedBy(String scheme, HttpEngine engine) throws Exception {
    String out =
        FreshJvm.run(Child.class, List.of("-Xlog:class+load=info:stdout"), scheme, engine.name());
    assertThat(out).contains("transport built");
    return out;
  }

  /**
   * Builds (and closes) a transport to {@code args[0]}://127.0.0.1:1/mcp on the engine {@code
   * args[1]} without connecting.
   */
  public static final class Child {
    public static void main(String[] args) {
      StreamableHttpClientTransport t =
          StreamableHttpClientTransport.builder()
              .uri(URI.create(args[0] + "://127.0.0.1:1/mcp"))
              .httpEngine(HttpEngine.valueOf(args[1]))
              .build();
      System.out.println("transport built");
      t.close();
      System.out.flush();
    }
  }
}
