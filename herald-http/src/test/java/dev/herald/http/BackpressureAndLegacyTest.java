package dev.herald.http;

import static dev.herald.testing.Eventually.eventually;
import static dev.herald.testing.RawHttpClient.describe;
import static org.assertj.core.api.Assertions.assertThat;

import dev.herald.http.Fixture.Client;
import dev.herald.http.internal.EndpointProbe;
import dev.herald.http.internal.HttpSession;
import dev.herald.http.internal.SseSink;
import dev.herald.internal.session.EngineAccess;
import dev.herald.server.ServerSession;
import dev.herald.testing.RawHttpClient;
import dev.herald.testing.SseReader;
import dev.herald.testing.SseReader.Event;
import dev.herald.wire.McpJson;
import java.net.Socket;
import java.net.URI;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.node.ObjectNode;

/** A reader that never reads, and the 2024-11-05 HTTP+SSE transport. */
class BackpressureAndLegacyTest {

  @Test
  void aReaderThatNeverReadsLosesItsStreamAtTheQueueLimitInsteadOfGrowingTheHeap()
      throws Exception {
    long limit = 1024 * 1024;
    try (Fixture fixture =
        new Fixture(b -> b.streamQueueLimit(64, limit).eventStore(EventStore.inMemory(8)))) {
      Client client = fixture.client();
      client.initialize();
      HttpSession session = EndpointProbe.session(fixture.http.endpoint, client.session);
      ServerSession mcpSession = EndpointProbe.serverSession(session);
      ObjectNode big = McpJson.toObject(Map.of("level", "info", "data", "x".repeat(64 * 1024)));
      int port = fixture.http.port();

      try (Socket stalled = new Socket()) {
        stalled.setReceiveBufferSize(4096);
        stalled.connect(new java.net.InetSocketAddress("127.0.0.1", port));
        String get =
            "GET /mcp HTTP/1.1\r\nHost: 127.0.0.1:"
                + port
                + "\r\nAccept: text/event-stream\r\n"
                + "Mcp-Session-Id: "
                + client.session
                + "\r\nMCP-Protocol-Version: 2025-11-25\r\n\r\n";
        stalled.getOutputStream().write(get.getBytes(StandardCharsets.US_ASCII));
        stalled.getOutputStream().flush();
        eventually(() -> EndpointProbe.standingSink(session) != null, "the GET is attached");
        long deadline = System.nanoTime() + Duration.ofSeconds(10).toNanos();

        long maxQueued = 0;
        int sent = 0;
        // Bounded: at most 2,000 x 64 KiB, stopping as soon as the stream is closed.
        while (fixture.events.slowReaderCloses() == 0
            && sent < 2_000
            && System.nanoTime() < deadline) {
          EngineAccess.of(mcpSession).notify("notifications/message", big, null);
          sent++;
          SseSink sink = EndpointProbe.standingSink(session);
          if (sink != null) {
            maxQueued = Math.max(maxQueued, sink.queuedBytes());
          }
        }

        assertThat(fixture.events.slowReaderCloses()).isEqualTo(1);
        assertThat(maxQueued).isLessThanOrEqualTo(limit);
        assertThat(EndpointProbe.standingSink(session)).isNull();
        int[] kept = {0};
        fixture.http.eventStore.replay(
            client.session, EndpointProbe.standingStreamId(session), 0, (s, m) -> kept[0]++);
        assertThat(kept[0]).isLessThanOrEqualTo(8);
      }
      // The session itself is fine.
      assertThat(describe(RawHttpClient.json(RawHttpClient.body(client.call(2, "quiet", null)))))
          .isEqualTo("result 2 ok");
    }
  }

  @Test
  void theLegacySseTransportRoundTrips() throws Exception {
    try (Fixture fixture = new Fixture()) {
      Client client = fixture.client();
      HttpResponse<Stream<String>> sse =
          client.send(
              HttpRequest.newBuilder(fixture.http.legacySseUri())
                  .header("Accept", "text/event-stream")
                  .GET());
      assertThat(sse.statusCode()).isEqualTo(200);
      try (SseReader events = new SseReader(sse.body())) {
        Event endpoint = events.event();
        assertThat(endpoint.type()).isEqualTo("endpoint");
        assertThat(endpoint.data()).startsWith("/messages?sessionId=");
        URI post = fixture.http.uri().resolve(endpoint.data());

        assertThat(
                legacyPost(
                    client,
                    post,
                    "{'jsonrpc':'2.0','id':1,'method':'initialize','params':{'protocolVersion':'2024-11-05',"
                        + "'capabilities':{},'clientInfo':{'name':'old','version':'1'}}}"))
            .isEqualTo(202);
        Event init = events.event();
        assertThat(init.type()).isEqualTo("message");
        assertThat(init.json().get("result").get("protocolVersion").asString())
            .isEqualTo("2024-11-05");
        assertThat(
                legacyPost(client, post, "{'jsonrpc':'2.0','method':'notifications/initialized'}"))
            .isEqualTo(202);
        assertThat(
                legacyPost(
                    client,
                    post,
                    "{'jsonrpc':'2.0','id':2,'method':'tools/call','params':{'name':'chatty','arguments':{},"
                        + "'_meta':{'progressToken':'p'}}}"))
            .isEqualTo(202);

        assertThat(java.util.List.of(events.event(), events.event(), events.event()))
            .extracting(e -> describe(e.json()))
            .containsExactly("log working", "progress p 1", "result 2 chatted");
        assertThat(fixture.http.sessionCount()).isEqualTo(1);
      }
      assertThat(
              legacyPost(
                  client,
                  URI.create(fixture.http.uri().resolve("/messages?sessionId=nope").toString()),
                  "{'jsonrpc':'2.0','method':'notifications/initialized'}"))
          .isEqualTo(404);
    }
  }

  private static int legacyPost(Client client, URI uri, String body) throws Exception {
    return client
        .sendForString(
            HttpRequest.newBuilder(uri)
                .header("Content-Type", "application/json")
                .POST(HttpRequest.BodyPublishers.ofString(Client.q(body))))
        .statusCode();
  }
}
