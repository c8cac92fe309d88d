package dev.herald.transport.http;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.File;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import javax.net.ssl.SSLContext;
import javax.net.ssl.SSLEngine;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * A transport to a plain {@code http} endpoint makes no TLS context (the JDK's default one is
 * most of a client's start-up), and the deferred context it uses instead behaves as the default
 * one when something does ask for it.
 */
@Timeout(120)
class LazyTlsTest {
  private static final String DEFAULT_CONTEXT = "sun.security.ssl.SSLContextImpl$DefaultSSLContext";

  @Test
  void aTransportToAnHttpEndpointMakesNoTlsContextInAFreshProcess() throws Exception {
    assertThat(classesLoadedBy("http")).doesNotContain(DEFAULT_CONTEXT);
    // the check can tell: an https endpoint's client makes the default context at once
    assertThat(classesLoadedBy("https")).contains(DEFAULT_CONTEXT);
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

  /** The class-loading log of a fresh JVM that builds a transport to {@code scheme}://127.0.0.1. */
  private static String classesLoadedBy(String scheme) throws Exception {
    String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
    String cp = System.getProperty("java.class.path", "");
    String mp = System.getProperty("jdk.module.path", "");
    String path = mp.isEmpty() ? cp : cp.isEmpty() ? mp : cp + File.pathSeparator + mp;
    Process p =
        new ProcessBuilder(
                List.of(
                    java,
                    "-Xlog:class+load=info:stdout",
                    "-cp",
                    path,
                    LazyTlsTest.class.getName() + "$Child",
                    scheme))
            .redirectError(ProcessBuilder.Redirect.INHERIT)
            .start();
    String out;
    try {
      out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
      assertThat(p.waitFor(90, TimeUnit.SECONDS)).isTrue();
    } finally {
      p.destroyForcibly(); // on every path, a timeout of this test included
    }
    assertThat(out).contains("transport built");
    return out;
  }

  /** Builds (and closes) a transport to {@code args[0]}://127.0.0.1:1/mcp without connecting. */
  public static final class Child {
    public static void main(String[] args) {
      StreamableHttpClientTransport t =
          new StreamableHttpClientTransport(URI.create(args[0] + "://127.0.0.1:1/mcp"));
      System.out.println("transport built");
      t.close();
      System.out.flush();
    }
  }
}
