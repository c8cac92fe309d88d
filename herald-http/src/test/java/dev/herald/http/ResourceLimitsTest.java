package dev.herald.http;

import static dev.herald.testing.RawHttpClient.describe;
import static org.assertj.core.api.Assertions.assertThat;

import dev.herald.http.Fixture.Client;
import dev.herald.http.internal.EndpointProbe;
import dev.herald.http.internal.HttpSession;
import dev.herald.internal.session.EngineAccess;
import dev.herald.server.ServerSession;
import dev.herald.testing.Background;
import dev.herald.testing.RawHttpClient;
import dev.herald.testing.SseReader;
import dev.herald.wire.McpJson;
import java.io.ByteArrayOutputStream;
import java.io.InputStream;
import java.net.Socket;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.LockSupport;
import java.util.function.BooleanSupplier;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ObjectNode;

/** What one client can make the server hold: stored events, session slots, threads, time. */
class ResourceLimitsTest {
  private static final String INITIALIZE =
      "{'jsonrpc':'2.0','id':0,'method':'initialize','params':{'protocolVersion':'2025-11-25','capabilities':{},"
          + "'clientInfo':{'name':'t','version':'1'}}}";

  @Test
  void largeEventsAreForgottenOldestFirstSoTheStoreStaysWithinItsByteBoundsPerStreamAndPerServer()
      throws Exception {
    long perStream = 64 * 1024;
    long perServer = 160 * 1024;
    try (Fixture fixture =
        new Fixture(b -> b.eventStoreLimits(perStream, perServer, Duration.ofMinutes(5)))) {
      InMemoryEventStore store = (InMemoryEventStore) fixture.http.eventStore;
      ObjectNode big = McpJson.toObject(Map.of("level", "info", "data", "x".repeat(30 * 1024)));
      List<Client> clients = new ArrayList<>();
      long maxHeld = 0;
      for (int c = 0; c < 5; c++) {
        Client client = fixture.client();
        client.initialize();
        clients.add(client);
        ServerSession ss =
            EndpointProbe.serverSession(
                EndpointProbe.session(fixture.http.endpoint, client.session));
        for (int i = 0; i < 40; i++) { // 40 x 30 KiB = 1.2 MiB per session, nobody listening
          EngineAccess.of(ss).notify("notifications/message", big, null);
          maxHeld = Math.max(maxHeld, store.bytesHeld());
        }
        assertThat(perStreamBytes(fixture, client)).isLessThanOrEqualTo(perStream);
      }
      assertThat(maxHeld).isPositive().isLessThanOrEqualTo(perServer);

      // The last session's stream: its newest event is kept, its first ones are forgotten.
      Client last = clients.get(4);
      String stream =
          EndpointProbe.standingStreamId(
              EndpointProbe.session(fixture.http.endpoint, last.session));
      HttpResponse<Stream<String>> evicted = last.getResponse(stream + "_1");
      assertThat(evicted.statusCode()).isEqualTo(400);
      assertThat(
              RawHttpClient.json(RawHttpClient.body(evicted))
                  .get("error")
                  .get("message")
                  .asString())
          .contains("unknown Last-Event-ID");
      try (SseReader resumed = last.get(stream + "_39")) {
        SseReader.Event e = resumed.event();
        assertThat(e.id()).isEqualTo(stream + "_40");
        assertThat(describe(e.json())).startsWith("log xxx");
      }
      // The first session's events were all forgotten for the later ones (the store's byte bound).
      Client first = clients.get(0);
      String firstStream =
          EndpointProbe.standingStreamId(
              EndpointProbe.session(fixture.http.endpoint, first.session));
      assertThat(first.getResponse(firstStream + "_39").statusCode()).isEqualTo(400);
      assertThat(describe(RawHttpClient.json(RawHttpClient.body(first.call(7, "quiet", null)))))
          .isEqualTo("result 7 ok");
    }
  }

  @Test
  void aLastEventIdFromAnotherSessionsStreamIsRefusedLikeAnUnknownOne() throws Exception {
    try (Fixture fixture = new Fixture()) {
      Client alice = fixture.client();
      alice.initialize();
      Client mallory = fixture.client();
      mallory.initialize();
      for (Client c : List.of(alice, mallory)) {
        ServerSession ss =
            EndpointProbe.serverSession(EndpointProbe.session(fixture.http.endpoint, c.session));
        EngineAccess.of(ss)
            .notify(
                "notifications/message",
                McpJson.toObject(Map.of("level", "info", "data", "secret of " + c.session)),
                null);
      }
      String aliceEvent =
          EndpointProbe.standingStreamId(
                  EndpointProbe.session(fixture.http.endpoint, alice.session))
              + "_0";

      HttpResponse<Stream<String>> stolen = mallory.getResponse(aliceEvent);
      assertThat(stolen.statusCode())
          .isEqualTo(400); // before reading: a 200 would be an endless stream
      assertThat(RawHttpClient.body(stolen))
          .contains("unknown Last-Event-ID")
          .doesNotContain("secret");
      try (SseReader own = alice.get(aliceEvent)) {
        assertThat(own.event().data()).contains("secret of " + alice.session);
      }
    }
  }

  @Test
  void oneClientCannotTakeMoreThanItsShareOfSessionSlots() throws Exception {
    try (Fixture fixture = new Fixture(b -> b.maxSessions(10).maxSessionsPerClient(2))) {
      Client one = fixture.client();
      one.initialize();
      fixture.client().initialize();
      HttpResponse<Stream<String>> third = fixture.client().post(INITIALIZE);
      assertThat(third.statusCode()).isEqualTo(429);
      assertThat(third.headers().firstValue("Mcp-Session-Id")).isEmpty();
      JsonNode error = RawHttpClient.json(RawHttpClient.body(third)).get("error");
      assertThat(error.get("code").asInt()).isEqualTo(-32000);
      assertThat(error.get("message").asString()).contains("session limit (2)");
      assertThat(fixture.http.sessionCount()).isEqualTo(2);
      // The legacy transport counts against the same share.
      HttpResponse<Stream<String>> legacy =
          one.send(
              java.net.http.HttpRequest.newBuilder(fixture.http.legacySseUri())
                  .header("Accept", "text/event-stream")
                  .GET());
      assertThat(legacy.statusCode()).isEqualTo(429);
      RawHttpClient.body(legacy);

      assertThat(one.sendForString(one.request().DELETE()).statusCode()).isEqualTo(200);
      fixture.client().initialize(); // the slot came back
      assertThat(fixture.http.sessionCount()).isEqualTo(2);
    }
  }

  @Test
  void aBodyThatNeverArrivesIs408WithoutInternalsAfterTheConfiguredTimeout() throws Exception {
    try (Fixture fixture = new Fixture(b -> b.requestBodyTimeout(Duration.ofMillis(300)))) {
      int port = fixture.http.port();
      try (Socket s = new Socket("127.0.0.1", port)) {
        s.setSoTimeout(10_000); // far below Jetty's own 30 s idle timeout
        String head =
            "POST /mcp HTTP/1.1\r\nHost: 127.0.0.1:"
                + port
                + "\r\nAccept: application/json, text/event-stream\r\n"
                + "Content-Type: application/json\r\nContent-Length: 200\r\n\r\n";
        s.getOutputStream().write(head.getBytes(StandardCharsets.US_ASCII));
        s.getOutputStream().write("{\"jsonrpc\":\"2.0\",".getBytes(StandardCharsets.US_ASCII));
        s.getOutputStream().flush();
        long start = System.nanoTime();
        InputStream in = s.getInputStream();
        ByteArrayOutputStream all = new ByteArrayOutputStream();
        in.transferTo(all); // the server closes the connection after answering
        String text = all.toString(StandardCharsets.UTF_8);
        assertThat(text).startsWith("HTTP/1.1 408");
        assertThat(Duration.ofNanos(System.nanoTime() - start)).isLessThan(Duration.ofSeconds(8));
        String body = text.substring(text.indexOf("\r\n\r\n") + 4);
        assertThat(RawHttpClient.json(body).get("error").get("message").asString())
            .startsWith("Request Timeout");
        assertThat(body)
            .doesNotContainIgnoringCase("exception")
            .doesNotContain("java.")
            .doesNotContain("org.eclipse")
            .doesNotContain("dev.herald");
      }
      assertThat(fixture.http.sessionCount()).isZero();
      fixture.client().initialize(); // nothing else was held
    }
  }

  @Test
  void aRequestJettyCannotParseIsAnsweredWithAPlainJsonRpcErrorWithoutInternals() throws Exception {
    try (Fixture fixture = new Fixture()) {
      int port = fixture.http.port();
      try (Socket s = new Socket("127.0.0.1", port)) {
        s.setSoTimeout(10_000);
        String head =
            "POST /mcp HTTP/1.1\r\nHost: 127.0.0.1:"
                + port
                + "\r\nContent-Type: application/json\r\n"
                + "Content-Length: not-a-number\r\n\r\n{}";
        s.getOutputStream().write(head.getBytes(StandardCharsets.US_ASCII));
        s.getOutputStream().flush();
        ByteArrayOutputStream all = new ByteArrayOutputStream();
        s.getInputStream().transferTo(all);
        String text = all.toString(StandardCharsets.UTF_8);
        assertThat(text).startsWith("HTTP/1.1 400");
        String body = text.substring(text.indexOf("\r\n\r\n") + 4);
        assertThat(RawHttpClient.json(body).get("error").get("message").asString())
            .isEqualTo("Bad Request");
        assertThat(body)
            .doesNotContainIgnoringCase("exception")
            .doesNotContain("java.")
            .doesNotContain("org.eclipse");
      }
    }
  }

  @Test
  void theIdleTimeoutPausesWhileACallIsRunningAndResumesAfterIt() throws Exception {
    AtomicLong now = new AtomicLong();
    try (Fixture fixture =
        new Fixture(b -> b.sessionIdleTimeout(Duration.ofMinutes(1)).ticker(now::get))) {
      Client client = fixture.client();
      client.initialize();
      ServerSession ss =
          EndpointProbe.serverSession(EndpointProbe.session(fixture.http.endpoint, client.session));
      CompletableFuture<String> call =
          Background.supply(() -> {
            try {
              return describe(RawHttpClient.json(RawHttpClient.body(client.call(9, "hold", null))));
            } catch (Exception e) {
              throw new IllegalStateException(e);
            }
          });
      await(() -> EngineAccess.of(ss).inFlightCount() > 0, "the call is running");

      now.addAndGet(Duration.ofMinutes(10).toNanos());
      fixture.http.sweep();
      assertThat(fixture.http.sessionCount()).isEqualTo(1);

      fixture.release.countDown();
      assertThat(call.get(10, TimeUnit.SECONDS)).isEqualTo("result 9 held");
      await(() -> EngineAccess.of(ss).inFlightCount() == 0, "the call ended");
      now.addAndGet(Duration.ofSeconds(59).toNanos());
      fixture.http.sweep();
      assertThat(fixture.http.sessionCount())
          .as("idle for less than the timeout since the call ended")
          .isEqualTo(1);
      now.addAndGet(Duration.ofSeconds(2).toNanos());
      fixture.http.sweep();
      assertThat(fixture.http.sessionCount()).isZero();
    }
  }

  @Test
  void anInitializeThatFailsLeavesNoSessionAndNoSlotBehind() throws Exception {
    try (Fixture fixture = new Fixture(b -> b.maxSessions(1).maxSessionsPerClient(1))) {
      for (int i = 0; i < 30; i++) {
        Client bad = fixture.client();
        HttpResponse<Stream<String>> r =
            bad.post("{'jsonrpc':'2.0','id':" + i + ",'method':'initialize','params':{}}");
        int status = r.statusCode();
        assertThat(r.headers().firstValue("Mcp-Session-Id")).isEmpty();
        assertThat(RawHttpClient.json(RawHttpClient.body(r)).get("error").get("code").asInt())
            .isEqualTo(-32602);
        assertThat(status).isEqualTo(200);
        assertThat(fixture.http.sessionCount())
            .as("slots held after failed initialize #" + i)
            .isZero();
      }
      fixture.client().initialize();
      assertThat(fixture.http.sessionCount()).isEqualTo(1);
    }
  }

  private static long perStreamBytes(Fixture fixture, Client client) {
    HttpSession session = EndpointProbe.session(fixture.http.endpoint, client.session);
    long[] bytes = {0};
    fixture.http.eventStore.replay(
        client.session,
        EndpointProbe.standingStreamId(session),
        -1,
        (seq, m) -> bytes[0] += m.length + InMemoryEventStore.OVERHEAD_BYTES);
    return bytes[0];
  }

  private static void await(BooleanSupplier condition, String what) {
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
    while (!condition.getAsBoolean()) {
      if (System.nanoTime() > deadline) {
        throw new AssertionError("timed out waiting until " + what);
      }
      LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(2));
    }
  }
}
