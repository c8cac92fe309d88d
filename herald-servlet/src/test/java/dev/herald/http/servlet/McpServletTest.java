package dev.herald.http.servlet;

import static dev.herald.testing.RawHttpClient.describe;
import static org.assertj.core.api.Assertions.assertThat;

import dev.herald.client.EraPreference;
import dev.herald.client.McpClient;
import dev.herald.http.servlet.ServletFixture.Client;
import dev.herald.session.CallOptions;
import dev.herald.session.ProgressUpdate;
import dev.herald.testing.RawHttpClient;
import dev.herald.testing.SseReader;
import dev.herald.testing.SseReader.Event;
import dev.herald.transport.http.StreamableHttpClientTransport;
import dev.herald.wire.CallToolResult;
import java.io.InputStream;
import java.net.Socket;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** The servlet in Jetty's ee10 container behaves as the Jetty core server does. */
class McpServletTest {
  private final ServletFixture fixture;

  McpServletTest() throws Exception {
    fixture = new ServletFixture();
  }

  @AfterEach
  void close() throws Exception {
    fixture.close();
  }

  @Test
  void initializeAnswersAsJsonWithASessionId() throws Exception {
    Client client = fixture.client();
    HttpResponse<Stream<String>> r = client.initializeResponse();

    assertThat(r.statusCode()).isEqualTo(200);
    assertThat(r.headers().firstValue("Content-Type"))
        .hasValueSatisfying(t -> assertThat(t).startsWith("application/json"));
    assertThat(client.session).matches("[A-Za-z0-9_-]{22}");
    assertThat(
            RawHttpClient.json(RawHttpClient.body(r))
                .get("result")
                .get("protocolVersion")
                .asString())
        .isEqualTo("2025-11-25");
    assertThat(fixture.servlet.sessionCount()).isEqualTo(1);
  }

  @Test
  void aCallWithProgressIsAnsweredAsSseWithItsNotificationsInOrderBeforeTheResponse()
      throws Exception {
    Client client = fixture.client();
    client.initialize();

    HttpResponse<Stream<String>> r = client.call(7, "steps", "p");

    assertThat(r.headers().firstValue("Content-Type")).hasValue("text/event-stream");
    try (SseReader sse = new SseReader(r.body())) {
      List<Event> events = sse.rest();
      assertThat(events)
          .extracting(e -> e.priming() ? "<priming>" : describe(e.json()))
          .containsExactly(
              "<priming>",
              "log working",
              "progress p 1",
              "progress p 2",
              "progress p 3",
              "result 7 stepped");
      assertThat(events).extracting(Event::id).doesNotContainNull().doesNotHaveDuplicates();
    }
  }

  @Test
  void aCallThatSendsNoNotificationsIsAnsweredAsPlainJson() throws Exception {
    Client client = fixture.client();
    client.initialize();

    HttpResponse<Stream<String>> r = client.call(5, "quiet", null);

    assertThat(r.statusCode()).isEqualTo(200);
    assertThat(r.headers().firstValue("Content-Type"))
        .hasValueSatisfying(t -> assertThat(t).startsWith("application/json"));
    assertThat(describe(RawHttpClient.json(RawHttpClient.body(r)))).isEqualTo("result 5 ok");
  }

  @Test
  void theStandingGetStreamReceivesAListChange() throws Exception {
    Client client = fixture.client();
    client.initialize();
    try (SseReader get = client.get(null)) {
      assertThat(get.event().priming()).isTrue();
      fixture.addTool("added");
      assertThat(describe(get.event().json())).isEqualTo("notifications/tools/list_changed");
      assertThat(get.retry()).isEqualTo("1000");
    }
  }

  @Test
  void deleteEndsTheSessionAndItIsThen404() throws Exception {
    Client client = fixture.client();
    client.initialize();

    HttpResponse<Stream<String>> deleted = client.send(client.request().DELETE());
    RawHttpClient.body(deleted);
    HttpResponse<Stream<String>> after = client.call(2, "quiet", null);

    assertThat(deleted.statusCode()).isEqualTo(200);
    assertThat(after.statusCode()).isEqualTo(404);
    assertThat(RawHttpClient.json(RawHttpClient.body(after)).get("error").get("code").asInt())
        .isEqualTo(-32600);
    assertThat(fixture.servlet.sessionCount()).isZero();
  }

  @Test
  void aForeignOriginIs403WhileTheLoopbackOriginPasses() throws Exception {
    String init =
        "{\"jsonrpc\":\"2.0\",\"id\":0,\"method\":\"initialize\",\"params\":{\"protocolVersion\":\"2025-11-25\","
            + "\"capabilities\":{},\"clientInfo\":{\"name\":\"t\",\"version\":\"1\"}}}";
    String common =
        "Accept: application/json, text/event-stream\r\nContent-Type: application/json\r\n";
    int port = fixture.port;

    String[] evil =
        raw(
            port,
            "POST /app/mcp HTTP/1.1\r\nHost: 127.0.0.1:"
                + port
                + "\r\nOrigin: http://evil.example.com\r\n"
                + common,
            init);
    String[] evilHost =
        raw(
            port,
            "POST /app/mcp HTTP/1.1\r\nHost: evil.example.com:" + port + "\r\n" + common,
            init);
    String[] own =
        raw(
            port,
            "POST /app/mcp HTTP/1.1\r\nHost: localhost:"
                + port
                + "\r\nOrigin: http://localhost:"
                + port
                + "\r\n"
                + common,
            init);

    assertThat(evil[0]).isEqualTo("403");
    assertThat(evil[1]).contains("Origin not allowed");
    assertThat(evilHost[0]).isEqualTo("403");
    assertThat(own[0]).isEqualTo("200");
  }

  @Test
  void aDroppedGetResumedWithLastEventIdGetsWhatItMissed() throws Exception {
    Client client = fixture.client();
    client.initialize();
    SseReader get = client.get(null);
    get.event(); // priming
    fixture.addTool("one");
    Event first = get.event();
    assertThat(describe(first.json())).isEqualTo("notifications/tools/list_changed");
    get.close(); // the connection drops

    fixture.addTool("two"); // sent while dropped

    try (SseReader resumed = client.get(first.id())) {
      Event replayed = resumed.event();
      assertThat(describe(replayed.json())).isEqualTo("notifications/tools/list_changed");
      fixture.addTool("three");
      Event live = resumed.event();
      assertThat(describe(live.json())).isEqualTo("notifications/tools/list_changed");
      String stream = first.id().substring(0, first.id().indexOf('_'));
      assertThat(List.of(replayed.id(), live.id())).allMatch(id -> id.startsWith(stream + "_"));
      assertThat(seq(replayed.id())).isGreaterThan(seq(first.id()));
      assertThat(seq(live.id())).isGreaterThan(seq(replayed.id()));
    }
  }

  @Test
  void heraldsClientWorksEndToEndAgainstTheServlet() throws Exception {
    // Pinned to the handshake era: the unsolicited list change below rides its standing GET stream
    // (EraMatrixOverServletTest covers the 2026-07-28 era, where a listen carries it).
    try (McpClient client =
        McpClient.builder()
            .eras(EraPreference.HANDSHAKE_ONLY)
            .connect(new StreamableHttpClientTransport(fixture.uri()))) {
      assertThat(client.tools())
          .extracting(t -> t.name())
          .containsExactlyInAnyOrder("quiet", "steps");

      List<ProgressUpdate> updates = new CopyOnWriteArrayList<>();
      CallToolResult r =
          client.callTool(
              "steps",
              null,
              CallOptions.builder().progress(updates::add).renderInterval(Duration.ZERO).build());
      assertThat(r.firstText()).isEqualTo("stepped");
      assertThat(updates).extracting(ProgressUpdate::progress).containsExactly(1.0, 2.0, 3.0);

      CountDownLatch changed = new CountDownLatch(1);
      client.onListChanged(McpClient.Area.TOOLS, changed::countDown);
      fixture.addTool("late");
      assertThat(changed.await(10, TimeUnit.SECONDS)).isTrue();
      assertThat(client.tools()).extracting(t -> t.name()).contains("late");
    }
  }

  @Test
  void theLegacySseEndpointNamesItsPostUrlBeneathTheMapping() throws Exception {
    Client client = fixture.client();
    HttpResponse<Stream<String>> r =
        client.send(
            HttpRequest.newBuilder(fixture.uri().resolve("/app/mcp/sse"))
                .header("Accept", "text/event-stream")
                .GET());
    assertThat(r.statusCode()).isEqualTo(200);
    try (SseReader sse = new SseReader(r.body())) {
      Event endpoint = sse.event();
      assertThat(endpoint.type()).isEqualTo("endpoint");
      assertThat(endpoint.data()).startsWith("/app/mcp/messages?sessionId=");
    }
  }

  private static long seq(String id) {
    return Long.parseLong(id.substring(id.indexOf('_') + 1));
  }

  /** One raw HTTP/1.1 exchange (the JDK client will not send a foreign Host). */
  private static String[] raw(int port, String head, String body) throws Exception {
    try (Socket s = new Socket("127.0.0.1", port)) {
      s.setSoTimeout(10_000);
      byte[] b = body.getBytes(StandardCharsets.UTF_8);
      s.getOutputStream()
          .write(
              (head + "Content-Length: " + b.length + "\r\nConnection: close\r\n\r\n")
                  .getBytes(StandardCharsets.US_ASCII));
      s.getOutputStream().write(b);
      s.getOutputStream().flush();
      InputStream in = s.getInputStream();
      String text = new String(in.readAllBytes(), StandardCharsets.UTF_8);
      int bodyAt = text.indexOf("\r\n\r\n");
      return new String[] {text.substring(9, 12), bodyAt < 0 ? "" : text.substring(bodyAt + 4)};
    }
  }
}
