package dev.herald.transport.http;

import static dev.herald.transport.http.StreamableHttpClientTransportTest.INIT;
import static dev.herald.transport.http.StreamableHttpClientTransportTest.INIT_RESULT;
import static dev.herald.transport.http.StreamableHttpClientTransportTest.msg;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.Proxy;
import java.net.ProxySelector;
import java.net.ServerSocket;
import java.net.SocketAddress;
import java.net.URI;
import java.net.http.HttpClient;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * Which HTTP client a {@link StreamableHttpClientTransport} builds ({@link HttpEngine}): the
 * decision against real proxy selectors, and the clients it leads to against raw socket servers,
 * one of them standing in as an HTTP proxy.
 */
@Timeout(60)
class HttpEngineTest {
  private static final URI LOOPBACK = URI.create("http://127.0.0.1:8080/mcp");
  private static final ProxySelector SOME_PROXY =
      ProxySelector.of(new InetSocketAddress("127.0.0.1", 3128));

  private final List<AutoCloseable> open = new ArrayList<>();

  @AfterEach
  void closeAll() throws Exception {
    for (AutoCloseable c : open.reversed()) {
      c.close();
    }
  }

  private <T extends AutoCloseable> T track(T c) {
    open.add(c);
    return c;
  }

  /** A selector answering every URI with {@code proxies}. */
  private static ProxySelector selecting(List<Proxy> proxies) {
    return new ProxySelector() {
      @Override
      public List<Proxy> select(URI uri) {
        return proxies;
      }

      @Override
      public void connectFailed(URI uri, SocketAddress sa, IOException e) {}
    };
  }

  // ---------------------------------------------------------------- the decision

  @Test
  void withoutASelectorTheEndpointIsReachedDirectly() {
    assertThat(HttpEngine.AUTO.resolve(LOOPBACK, null)).isEqualTo(HttpEngine.HTTP1);
  }

  @Test
  void theJdkDefaultSelectorReachesLoopbackDirectly() {
    assertThat(HttpEngine.AUTO.resolve(LOOPBACK, ProxySelector.getDefault()))
        .isEqualTo(HttpEngine.HTTP1);
  }

  @Test
  void aSelectorThatAlwaysSaysDirectChoosesHttp1Client() {
    assertThat(HttpEngine.AUTO.resolve(LOOPBACK, HttpClient.Builder.NO_PROXY))
        .isEqualTo(HttpEngine.HTTP1);
  }

  @Test
  void aSelectorNamingAProxyChoosesTheJdkClient() {
    assertThat(HttpEngine.AUTO.resolve(LOOPBACK, SOME_PROXY)).isEqualTo(HttpEngine.JDK);
    Proxy socks = new Proxy(Proxy.Type.SOCKS, new InetSocketAddress("127.0.0.1", 1080));
    assertThat(HttpEngine.AUTO.resolve(LOOPBACK, selecting(List.of(socks))))
        .isEqualTo(HttpEngine.JDK);
  }

  @Test
  void aProxyAfterDirectStillChoosesTheJdkClient() {
    Proxy http = new Proxy(Proxy.Type.HTTP, new InetSocketAddress("127.0.0.1", 3128));
    assertThat(HttpEngine.AUTO.resolve(LOOPBACK, selecting(List.of(Proxy.NO_PROXY, http))))
        .isEqualTo(HttpEngine.JDK);
  }

  @Test
  void aSelectorThatSelectsNothingOrThrowsChoosesTheJdkClient() {
    assertThat(HttpEngine.AUTO.resolve(LOOPBACK, selecting(List.of()))).isEqualTo(HttpEngine.JDK);
    ProxySelector throwing =
        new ProxySelector() {
          @Override
          public List<Proxy> select(URI uri) {
            throw new IllegalStateException("no proxy configuration");
          }

          @Override
          public void connectFailed(URI uri, SocketAddress sa, IOException e) {}
        };
    assertThat(HttpEngine.AUTO.resolve(LOOPBACK, throwing)).isEqualTo(HttpEngine.JDK);
  }

  @Test
  void anExplicitChoiceIsKeptWhateverTheSelectorSays() {
    assertThat(HttpEngine.HTTP1.resolve(LOOPBACK, SOME_PROXY)).isEqualTo(HttpEngine.HTTP1);
    assertThat(HttpEngine.JDK.resolve(LOOPBACK, null)).isEqualTo(HttpEngine.JDK);
  }

  // ---------------------------------------------------------------- the transports built

  @Test
  void aTransportToAnEndpointNoProxyAppliesToRunsOnHttp1ClientAndShutsItDownOnClose() {
    StreamableHttpClientTransport t = StreamableHttpClientTransport.builder().uri(LOOPBACK).build();
    HttpClient client = t.client();
    assertThat(client).isInstanceOf(Http1Client.class);
    assertThat(client.connectTimeout())
        .contains(StreamableHttpClientTransport.DEFAULT_CONNECT_TIMEOUT);
    t.close();
    assertThat(client.isTerminated()).isTrue();
  }

  @Test
  void aTransportAskedForTheJdkClientRunsOnIt() {
    StreamableHttpClientTransport t =
        track(
            StreamableHttpClientTransport.builder()
                .uri(LOOPBACK)
                .httpEngine(HttpEngine.JDK)
                .build());
    assertThat(t.client()).isNotInstanceOf(Http1Client.class);
    assertThat(t.client().proxy()).isEmpty();
  }

  @Test
  void aTransportWhoseSelectorNamesAProxySendsThroughItOnTheJdkClient() throws Exception {
    List<String> seen = new CopyOnWriteArrayList<>();
    RawServer proxy = track(new RawServer(c -> answerInitialize(c, seen)));
    URI endpoint = URI.create("http://127.0.0.1:" + closedPort() + "/mcp");
    StreamableHttpClientTransport t =
        track(
            StreamableHttpClientTransport.builder()
                .uri(endpoint)
                .proxy(ProxySelector.of(address(proxy)))
                .openStandingStream(false)
                .build());
    assertThat(t.client()).isNotInstanceOf(Http1Client.class);

    initialize(t);
    assertThat(seen).hasSize(1);
    assertThat(seen.getFirst()).startsWith("POST " + endpoint + " HTTP/1.1\r\n");
  }

  @Test
  void http1ChosenExplicitlyGoesToTheEndpointPastAProxy() throws Exception {
    List<String> atProxy = new CopyOnWriteArrayList<>();
    List<String> atEndpoint = new CopyOnWriteArrayList<>();
    RawServer proxy = track(new RawServer(c -> answerInitialize(c, atProxy)));
    RawServer server = track(new RawServer(c -> answerInitialize(c, atEndpoint)));
    StreamableHttpClientTransport t =
        track(
            StreamableHttpClientTransport.builder()
                .uri(server.uri("/mcp"))
                .proxy(ProxySelector.of(address(proxy)))
                .httpEngine(HttpEngine.HTTP1)
                .openStandingStream(false)
                .build());
    assertThat(t.client()).isInstanceOf(Http1Client.class);

    initialize(t);
    assertThat(atEndpoint).singleElement().asString().startsWith("POST /mcp HTTP/1.1\r\n");
    assertThat(atProxy).isEmpty();
    assertThat(proxy.connections).hasValue(0);
  }

  @Test
  void aGivenClientExcludesTheSettingsOfTheBuiltOne() {
    HttpClient given = track(Http1Client.newClient());
    assertThatThrownBy(() ->
            StreamableHttpClientTransport.builder().httpClient(given).httpEngine(HttpEngine.JDK))
        .isInstanceOf(IllegalStateException.class)
        .hasMessageContaining("httpEngine");
    assertThatThrownBy(
            () -> StreamableHttpClientTransport.builder().httpClient(given).proxy(SOME_PROXY))
        .isInstanceOf(IllegalStateException.class)
        .hasMessageContaining("proxy");
    assertThatThrownBy(() ->
            StreamableHttpClientTransport.builder().httpEngine(HttpEngine.HTTP1).httpClient(given))
        .isInstanceOf(IllegalStateException.class);
    assertThatThrownBy(
            () -> StreamableHttpClientTransport.builder().proxy(SOME_PROXY).httpClient(given))
        .isInstanceOf(IllegalStateException.class);
  }

  /** Sends {@code initialize} through {@code t} and checks its answer arrives. */
  private static void initialize(StreamableHttpClientTransport t) throws Exception {
    RecordingReceiver receiver = new RecordingReceiver();
    t.start(receiver);
    t.send(msg(INIT), null);
    assertThat(receiver.next()).isEqualTo(INIT_RESULT);
  }

  /** Answers each request with the {@code initialize} result, recording what came. */
  private static void answerInitialize(RawServer.Conn c, List<String> seen) throws IOException {
    String r;
    while ((r = c.request()) != null) {
      seen.add(r);
      byte[] body = INIT_RESULT.getBytes(StandardCharsets.UTF_8);
      c.write(
          "HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nMcp-Session-Id: s1\r\n"
              + "Content-Length: "
              + body.length
              + "\r\n\r\n"
              + INIT_RESULT);
    }
  }

  private static InetSocketAddress address(RawServer server) {
    URI u = server.uri("/");
    return new InetSocketAddress(u.getHost(), u.getPort());
  }

  /** A loopback port nothing listens on. */
  private static int closedPort() throws IOException {
    try (ServerSocket s = new ServerSocket(0)) {
      return s.getLocalPort();
    }
  }
}
