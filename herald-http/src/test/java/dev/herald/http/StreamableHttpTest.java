package dev.herald.http;

import static dev.herald.testing.Eventually.eventually;
import static dev.herald.testing.RawHttpClient.describe;
import static org.assertj.core.api.Assertions.assertThat;

import dev.herald.http.Fixture.Client;
import dev.herald.http.internal.EndpointProbe;
import dev.herald.http.internal.HttpSession;
import dev.herald.internal.session.EngineAccess;
import dev.herald.testing.Background;
import dev.herald.testing.RawHttpClient;
import dev.herald.testing.SseReader;
import dev.herald.testing.SseReader.Event;
import dev.herald.wire.McpJson;
import java.net.http.HttpResponse;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** Routing and streams on a real server: each message on its one stream, in order. */
class StreamableHttpTest {
  private final Fixture fixture = new Fixture();

  @AfterEach
  void close() {
    fixture.close();
  }

  @Test
  void twoConcurrentCallsOnOneSessionEachGetTheirOwnProgressOnTheirOwnStreamBeforeTheirResponse()
      throws Exception {
    Client client = fixture.client();
    client.initialize();
    CompletableFuture<List<String>> a = Background.supply(() -> callAndRead(client, 10, "a"));
    CompletableFuture<List<String>> b = Background.supply(() -> callAndRead(client, 11, "b"));

    assertThat(a.get())
        .containsExactly(
            "<priming>", "progress a 1", "progress a 2", "progress a 3", "result 10 done 10");
    assertThat(b.get())
        .containsExactly(
            "<priming>", "progress b 1", "progress b 2", "progress b 3", "result 11 done 11");
  }

  private static List<String> callAndRead(Client client, int id, String token) {
    try {
      HttpResponse<Stream<String>> r = client.call(id, "lockstep", token);
      assertThat(r.headers().firstValue("Content-Type")).hasValue("text/event-stream");
      try (SseReader sse = new SseReader(r.body())) {
        List<Event> events = sse.rest();
        assertThat(events).extracting(Event::id).doesNotContainNull().doesNotHaveDuplicates();
        return events.stream().map(e -> e.priming() ? "<priming>" : describe(e.json())).toList();
      }
    } catch (Exception e) {
      throw new IllegalStateException(e);
    }
  }

  @Test
  void aCallThatSendsNoNotificationsIsAnsweredAsPlainJson() throws Exception {
    Client client = fixture.client();
    client.initialize();

    HttpResponse<Stream<String>> r = client.call(5, "quiet", null);

    assertThat(r.statusCode()).isEqualTo(200);
    assertThat(r.headers().firstValue("Content-Type")).hasValue("application/json");
    assertThat(describe(RawHttpClient.json(RawHttpClient.body(r)))).isEqualTo("result 5 ok");
  }

  @Test
  void listChangesSentWhileNoGetIsOpenArriveWhenOneOpens() throws Exception {
    Client client = fixture.client();
    client.initialize();
    fixture.addTool("first");
    awaitStored(client.session, 1);

    try (SseReader get = client.get(null)) {
      assertThat(describe(get.event().json())).isEqualTo("notifications/tools/list_changed");
      fixture.addTool("second");
      assertThat(describe(get.event().json())).isEqualTo("notifications/tools/list_changed");
      assertThat(get.retry()).isEqualTo("1000");
    }
  }

  @Test
  void aFreshGetWithNothingWaitingStartsWithAPrimingEvent() throws Exception {
    Client client = fixture.client();
    client.initialize();
    try (SseReader get = client.get(null)) {
      Event priming = get.event();
      assertThat(priming.priming()).isTrue();
      assertThat(priming.id()).matches("\\d+_\\d+");
    }
  }

  @Test
  void aDroppedGetStreamResumedWithLastEventIdLosesNothingAndReplaysNothingFromOtherStreams()
      throws Exception {
    Client client = fixture.client();
    client.initialize();
    String lastSeen;
    SseReader get = client.get(null);
    get.event(); // priming
    fixture.addTool("one");
    Event first = get.event();
    assertThat(describe(first.json())).isEqualTo("notifications/tools/list_changed");
    lastSeen = first.id();
    get.close(); // the connection drops

    fixture.addTool("two"); // sent while dropped
    HttpResponse<Stream<String>> call = client.call(7, "chatty", "c"); // another stream's events
    try (SseReader post = new SseReader(call.body())) {
      assertThat(post.rest())
          .extracting(e -> e.priming() ? "<priming>" : describe(e.json()))
          .containsExactly("<priming>", "log working", "progress c 1", "result 7 chatted");
    }

    try (SseReader resumed = client.get(lastSeen)) {
      Event replayed = resumed.event();
      assertThat(describe(replayed.json())).isEqualTo("notifications/tools/list_changed");
      fixture.addTool("three");
      Event live = resumed.event();
      assertThat(describe(live.json())).isEqualTo("notifications/tools/list_changed");
      String stream = lastSeen.substring(0, lastSeen.indexOf('_'));
      assertThat(List.of(replayed.id(), live.id())).allMatch(id -> id.startsWith(stream + "_"));
      assertThat(seq(replayed.id())).isGreaterThan(seq(lastSeen));
      assertThat(seq(live.id())).isGreaterThan(seq(replayed.id()));
    }
  }

  @Test
  void logsAfterACallsResponseGoToTheStandingStream() throws Exception {
    Client client = fixture.client();
    client.initialize();
    HttpResponse<Stream<String>> r = client.call(3, "quiet", null);
    assertThat(RawHttpClient.body(r)).contains("\"ok\"");
    var session = fixture.mcp.sessions().getFirst();

    EngineAccess.of(session)
        .notify(
            "notifications/message",
            McpJson.toObject(java.util.Map.of("level", "info", "data", "late")),
            dev.herald.wire.RequestId.of(3));

    try (SseReader get = client.get(null)) {
      assertThat(describe(get.event().json())).isEqualTo("log late");
    }
  }

  @Test
  void aLongCallsStreamClosedForPollingIsPickedUpWithGetAndLastEventId() throws Exception {
    Client client = fixture.client();
    client.initialize();

    HttpResponse<Stream<String>> r = client.call(9, "reconnect", null);
    List<Event> before;
    try (SseReader post = new SseReader(r.body())) {
      before = post.rest();
      assertThat(post.retry()).isEqualTo("1000");
    }
    assertThat(before).hasSize(1);
    assertThat(before.getFirst().priming()).isTrue();

    try (SseReader resumed = client.get(before.getFirst().id())) {
      fixture.release.countDown();
      assertThat(resumed.rest())
          .extracting(e -> describe(e.json()))
          .containsExactly("result 9 reconnected");
    }
  }

  @Test
  void aClientThatDisconnectsHasNotCancelledItsCall() throws Exception {
    Client client = fixture.client();
    client.initialize();
    int port = fixture.http.port();
    String body =
        Client.q(
            "{'jsonrpc':'2.0','id':4,'method':'tools/call','params':{'name':'hold','arguments':{}}}");
    try (java.net.Socket socket = new java.net.Socket("127.0.0.1", port)) {
      socket
          .getOutputStream()
          .write(
              ("POST /mcp HTTP/1.1\r\nHost: 127.0.0.1:"
                      + port
                      + "\r\n"
                      + "Accept: application/json, text/event-stream\r\nContent-Type: application/json\r\n"
                      + "Mcp-Session-Id: "
                      + client.session
                      + "\r\nContent-Length: "
                      + body.length()
                      + "\r\n\r\n"
                      + body)
                  .getBytes(java.nio.charset.StandardCharsets.US_ASCII));
      socket.getOutputStream().flush();
      awaitInFlight(1);
    } // the connection drops while the call runs

    fixture.release.countDown();
    assertThat(fixture.holdFinished.await(10, java.util.concurrent.TimeUnit.SECONDS)).isTrue();
    assertThat(fixture.holdCancelled).isFalse();
    // The answer had nowhere to go; the session carries on.
    assertThat(describe(RawHttpClient.json(RawHttpClient.body(client.call(5, "quiet", null)))))
        .isEqualTo("result 5 ok");
  }

  @Test
  void aSecondGetOnTheSameSessionIsAConflict() throws Exception {
    Client client = fixture.client();
    client.initialize();
    try (SseReader first = client.get(null)) {
      first.event();
      HttpResponse<Stream<String>> second = client.getResponse(null);
      assertThat(second.statusCode()).isEqualTo(409);
      assertThat(RawHttpClient.json(RawHttpClient.body(second)).get("error").get("code").asInt())
          .isEqualTo(-32600);
    }
  }

  private static long seq(String id) {
    return Long.parseLong(id.substring(id.indexOf('_') + 1));
  }

  private void awaitStored(String session, int atLeast) {
    eventually(
        () -> {
          int[] n = {0};
          HttpSession s = EndpointProbe.session(fixture.http.endpoint, session);
          fixture.http.eventStore.replay(
              session, EndpointProbe.standingStreamId(s), 0, (q, m) -> n[0]++);
          return n[0] >= atLeast;
        },
        atLeast + " events are stored");
  }

  private void awaitInFlight(int n) {
    eventually(
        () -> EngineAccess.of(fixture.mcp.sessions().getFirst()).inFlightCount() >= n,
        n + " calls are in flight");
  }
}
