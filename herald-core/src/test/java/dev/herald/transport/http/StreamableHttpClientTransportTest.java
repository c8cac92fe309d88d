package dev.herald.transport.http;

import static dev.herald.testing.Eventually.eventually;
import static dev.herald.transport.http.ScriptedServer.END;
import static dev.herald.transport.http.ScriptedServer.event;
import static dev.herald.transport.http.ScriptedServer.json;
import static dev.herald.transport.http.ScriptedServer.sse;
import static dev.herald.transport.http.ScriptedServer.sseFrom;
import static dev.herald.transport.http.ScriptedServer.status;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.herald.transport.TransportException;
import dev.herald.transport.http.ScriptedServer.Request;
import dev.herald.transport.http.ScriptedServer.Responder;
import dev.herald.wire.DecodedMessage;
import dev.herald.wire.JsonRpcMessage;
import dev.herald.wire.MessageCodec;
import java.net.ServerSocket;
import java.net.URI;
import java.net.http.HttpClient;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.function.Function;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.Parameter;
import org.junit.jupiter.params.ParameterizedClass;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;
import org.junit.jupiter.params.provider.ValueSource;

@ParameterizedClass
@EnumSource(ClientEngine.class)
class StreamableHttpClientTransportTest {
  @Parameter ClientEngine engine;

  static final String INIT =
      "{\"jsonrpc\":\"2.0\",\"id\":0,\"method\":\"initialize\",\"params\":{\"protocolVersion\":\"2025-11-25\","
          + "\"capabilities\":{},\"clientInfo\":{\"name\":\"t\",\"version\":\"1\"}}}";
  static final String INIT_RESULT =
      "{\"jsonrpc\":\"2.0\",\"id\":0,\"result\":{\"protocolVersion\":\"2025-11-25\",\"capabilities\":{},"
          + "\"serverInfo\":{\"name\":\"s\",\"version\":\"1\"}}}";
  static final String INITIALIZED =
      "{\"jsonrpc\":\"2.0\",\"method\":\"notifications/initialized\"}";
  static final String CALL =
      "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"tools/call\",\"params\":{\"name\":\"slow\"}}";
  static final String PROGRESS_1 =
      "{\"jsonrpc\":\"2.0\",\"method\":\"notifications/progress\",\"params\":{\"progressToken\":\"t\",\"progress\":1}}";
  static final String PROGRESS_2 =
      "{\"jsonrpc\":\"2.0\",\"method\":\"notifications/progress\",\"params\":{\"progressToken\":\"t\",\"progress\":2}}";
  static final String CALL_RESULT = "{\"jsonrpc\":\"2.0\",\"id\":1,\"result\":{\"content\":[]}}";
  static final String LIST_CHANGED =
      "{\"jsonrpc\":\"2.0\",\"method\":\"notifications/tools/list_changed\"}";
  static final String SID = "session-1";
  static final ReconnectPolicy FAST =
      new ReconnectPolicy(Duration.ofMillis(20), Duration.ofMillis(80), 3);

  private ScriptedServer server;
  private StreamableHttpClientTransport transport;
  private final RecordingReceiver receiver = new RecordingReceiver();

  @AfterEach
  void tearDown() {
    if (transport != null) {
      transport.close();
    }
    ClientEngine.closeAll();
    if (server != null) {
      server.close();
    }
    assertThat(receiver.overlapped).as("frames delivered concurrently").isFalse();
    assertThat(receiver.framesAfterClose.get()).as("frames after onClose").isZero();
  }

  static JsonRpcMessage msg(String json) {
    return ((DecodedMessage.Valid) MessageCodec.decode(json)).message();
  }

  private StreamableHttpClientTransport connect(Function<Request, Responder> script)
      throws Exception {
    return connect(script, b -> b);
  }

  private StreamableHttpClientTransport connect(
      Function<Request, Responder> script,
      Function<StreamableHttpClientTransport.Builder, StreamableHttpClientTransport.Builder> config)
      throws Exception {
    server = new ScriptedServer(script);
    transport =
        config
            .apply(
                engine.apply(
                    StreamableHttpClientTransport.builder().uri(server.uri()).reconnect(FAST)))
            .build();
    transport.start(receiver);
    return transport;
  }

  /** The usual bring-up: initialize answered as JSON with a session id, initialized accepted. */
  private static Responder handshake(Request r) {
    if (r.isPost("\"initialize\"")) {
      return json(INIT_RESULT, "Mcp-Session-Id", SID);
    }
    if (r.isPost("notifications/initialized")) {
      return status(202);
    }
    if (r.method().equals("DELETE")) {
      return status(200);
    }
    return null;
  }

  /** Waits until the transport has no worker left (POST responses, streams, reconnections). */
  private void awaitWorkersDone() {
    eventually(() -> transport.workerCount() == 0, "the transport's workers are done");
  }

  private void initialize() throws Exception {
    transport.send(msg(INIT), null);
    assertThat(receiver.next()).isEqualTo(INIT_RESULT);
    transport.send(msg(INITIALIZED), null);
  }

  // ---------------------------------------------------------------- POST basics

  @Test
  void aJsonAnswerIsDeliveredWhereItWasReadNotHandedToTheCommonPool() throws Exception {
    connect(r -> {
      Responder h = handshake(r);
      if (h != null) {
        return h;
      }
      String id = r.body().replaceAll(".*\"id\":(\\d+).*", "$1");
      return json("{\"jsonrpc\":\"2.0\",\"id\":" + id + ",\"result\":{\"content\":[]}}");
    });
    initialize();
    for (int i = 1; i <= 20; i++) { // ids are never reused, as a session's are not
      transport.send(msg(CALL.replace("\"id\":1", "\"id\":" + i)), null);
      assertThat(receiver.next())
          .isEqualTo("{\"jsonrpc\":\"2.0\",\"id\":" + i + ",\"result\":{\"content\":[]}}");
    }
    assertThat(receiver.threads)
        .as("threads the answers were delivered on")
        .hasSize(21)
        .noneMatch(name -> name.startsWith("ForkJoinPool"))
        .noneMatch(name -> name.startsWith("herald-http-post"));
    awaitWorkersDone();
  }

  @Test
  void everyMessageIsItsOwnPostAcceptingJsonAndEventStream() throws Exception {
    connect(r -> r.isPost("initialize") ? json(INIT_RESULT, "Mcp-Session-Id", SID) : status(202));
    transport.send(msg(INIT), null);

    Request post = server.next();
    assertThat(post.method()).isEqualTo("POST");
    assertThat(post.path()).isEqualTo("/mcp");
    assertThat(post.header("Accept")).isEqualTo("application/json, text/event-stream");
    assertThat(post.header("Content-Type")).isEqualTo("application/json");
    assertThat(post.header("Mcp-Session-Id")).isNull();
    assertThat(post.header("MCP-Protocol-Version")).isNull();
    assertThat(post.body()).isEqualTo(INIT);
    assertThat(receiver.next()).isEqualTo(INIT_RESULT);
  }

  @Test
  void sessionIdAndNegotiatedVersionGoOnEveryLaterRequest() throws Exception {
    connect(r -> {
      Responder h = handshake(r);
      if (h != null) {
        return h;
      }
      return r.method().equals("GET") ? status(405) : json(CALL_RESULT);
    });
    initialize();
    server.next(); // initialize
    Request initialized = server.next();
    assertThat(initialized.body()).isEqualTo(INITIALIZED);
    assertThat(initialized.header("Mcp-Session-Id")).isEqualTo(SID);
    assertThat(initialized.header("MCP-Protocol-Version")).isEqualTo("2025-11-25");
    assertThat(transport.sessionId()).contains(SID);

    Request standing = server.next();
    assertThat(standing.method()).isEqualTo("GET");
    assertThat(standing.header("Accept")).isEqualTo("text/event-stream");
    assertThat(standing.header("Mcp-Session-Id")).isEqualTo(SID);
    assertThat(standing.header("MCP-Protocol-Version")).isEqualTo("2025-11-25");
    assertThat(standing.header("Last-Event-ID")).isNull();

    transport.send(msg(CALL), null);
    Request call = server.next();
    assertThat(call.header("Mcp-Session-Id")).isEqualTo(SID);
    assertThat(call.header("MCP-Protocol-Version")).isEqualTo("2025-11-25");
    assertThat(receiver.next()).isEqualTo(CALL_RESULT);
  }

  @Test
  void noVersionHeaderForAVersionThatPredatesIt() throws Exception {
    String oldResult = INIT_RESULT.replace("2025-11-25", "2025-03-26");
    connect(
        r -> r.isPost("\"initialize\"") ? json(oldResult) : status(202),
        b -> b.openStandingStream(false));
    transport.send(msg(INIT), null);
    receiver.next();
    transport.send(msg(INITIALIZED), null);
    server.next();
    assertThat(server.next().header("MCP-Protocol-Version")).isNull();
  }

  @Test
  void customHeadersGoOnEveryRequest() throws Exception {
    connect(
        r -> {
          Responder h = handshake(r);
          return h != null ? h : status(405);
        },
        b -> b.header("Authorization", "Bearer abc"));
    initialize();
    assertThat(server.next().header("Authorization")).isEqualTo("Bearer abc");
    assertThat(server.next().header("Authorization")).isEqualTo("Bearer abc");
    assertThat(server.next().header("Authorization")).isEqualTo("Bearer abc"); // the GET
  }

  @Test
  void acceptedMeansNothingToRead() throws Exception {
    connect(r -> status(202), b -> b.openStandingStream(false));
    transport.send(msg(INITIALIZED), null);
    server.next();
    assertThat(receiver.frames.poll(200, TimeUnit.MILLISECONDS)).isNull();
  }

  @Test
  void aRequestAnsweredWithoutItsResponseFails() throws Exception {
    connect(r -> status(202));
    transport.send(msg(CALL), null);
    assertThat(receiver.next()).contains("\"id\":1,\"error\"").contains("HTTP 202 but no response");
  }

  @Test
  void aJsonAnswerThatIsNotTheResponseIsDeliveredAndTheRequestFails() throws Exception {
    connect(r -> json(PROGRESS_1));
    transport.send(msg(CALL), null);
    assertThat(receiver.next()).isEqualTo(PROGRESS_1);
    assertThat(receiver.next()).contains("\"id\":1,\"error\"").contains("but no response");
  }

  @Test
  @Timeout(30)
  void sendReturnsBeforeASlowJsonAnswer() throws Exception {
    CountDownLatch release = new CountDownLatch(1);
    connect(r ->
        ex -> {
          release.await();
          json(CALL_RESULT).respond(ex);
        });
    // the answer waits for the release below: a send that waited for it would never return
    transport.send(msg(CALL), null);
    assertThat(receiver.frames.poll(100, TimeUnit.MILLISECONDS)).isNull();
    release.countDown();
    assertThat(receiver.next()).isEqualTo(CALL_RESULT);
  }

  // ---------------------------------------------------------------- SSE answers

  @Test
  void eventStreamAnswerDeliversEachEventInOrderAndSkipsThePrimingEvent() throws Exception {
    connect(r ->
        sse(
            "id: a-0\ndata:\n\n",
            event("a-1", PROGRESS_1),
            event("a-2", PROGRESS_2),
            event("a-3", CALL_RESULT)));
    transport.send(msg(CALL), null);
    assertThat(List.of(receiver.next(), receiver.next(), receiver.next()))
        .containsExactly(PROGRESS_1, PROGRESS_2, CALL_RESULT);
    assertThat(receiver.frames.poll(200, TimeUnit.MILLISECONDS)).isNull();
    assertThat(server.requests).hasSize(1); // answered: no resumption
  }

  @Test
  void concurrentStreamsAreDeliveredOneFrameAtATimeInOrderPerStream() throws Exception {
    int n = 200;
    connect(r -> {
      String token = r.body().contains("\"id\":1") ? "a" : "b";
      String id = token.equals("a") ? "1" : "2";
      String[] chunks = new String[n + 1];
      for (int i = 0; i < n; i++) {
        chunks[i] =
            event(
                token + i,
                "{\"jsonrpc\":\"2.0\",\"method\":\"notifications/progress\",\"params\":"
                    + "{\"progressToken\":\""
                    + token
                    + "\",\"progress\":"
                    + (i + 1)
                    + "}}");
      }
      chunks[n] = event(token + n, "{\"jsonrpc\":\"2.0\",\"id\":" + id + ",\"result\":{}}");
      return sse(chunks);
    });
    transport.send(msg(CALL), null);
    transport.send(msg(CALL.replace("\"id\":1", "\"id\":2")), null);
    for (int i = 0; i < 2 * (n + 1); i++) {
      receiver.next();
    }
    for (String token : List.of("a", "b")) {
      List<String> mine =
          receiver.all.stream()
              .filter(f -> f.contains("\"progressToken\":\"" + token + "\""))
              .toList();
      assertThat(mine).hasSize(n);
      for (int i = 0; i < n; i++) {
        assertThat(mine.get(i)).endsWith("\"progress\":" + (i + 1) + "}}");
      }
    }
    assertThat(receiver.overlapped).isFalse();
  }

  @Test
  void eventsOfOtherTypesAreSkipped() throws Exception {
    connect(r ->
        sse("event: debug\ndata: {\"x\":1}\n\n", "event: message\ndata: " + CALL_RESULT + "\n\n"));
    transport.send(msg(CALL), null);
    assertThat(receiver.next()).isEqualTo(CALL_RESULT);
    assertThat(receiver.all).containsExactly(CALL_RESULT);
  }

  @Test
  void streamClosedBeforeTheResponseIsResumedWithLastEventIdAfterRetry() throws Exception {
    connect(r -> {
      if (r.method().equals("POST")) {
        return sse("id: s-0\nretry: 150\ndata:\n\n", event("s-1", PROGRESS_1)); // then closes
      }
      return sse(event("s-2", PROGRESS_2), event("s-3", CALL_RESULT));
    });
    transport.send(msg(CALL), null);
    assertThat(List.of(receiver.next(), receiver.next(), receiver.next()))
        .containsExactly(PROGRESS_1, PROGRESS_2, CALL_RESULT);

    Request post = server.next();
    Request resume = server.next();
    assertThat(resume.method()).isEqualTo("GET");
    assertThat(resume.header("Last-Event-ID")).isEqualTo("s-1");
    assertThat(resume.header("Accept")).isEqualTo("text/event-stream");
    assertThat(Duration.ofNanos(resume.nanos() - post.nanos()))
        .isGreaterThanOrEqualTo(Duration.ofMillis(150));
    assertThat(receiver.frames.poll(200, TimeUnit.MILLISECONDS)).isNull();
    assertThat(server.requests).hasSize(2);
  }

  @Test
  void pollingRepeatsUntilTheResponseArrives() throws Exception {
    java.util.concurrent.atomic.AtomicInteger gets =
        new java.util.concurrent.atomic.AtomicInteger();
    connect(r -> {
      if (r.method().equals("POST")) {
        return sse("retry: 10\nid: p-0\ndata:\n\n");
      }
      return switch (gets.incrementAndGet()) {
        case 1 -> sse(": nothing new yet\n\n");
        case 2 -> sse(event("p-1", PROGRESS_1));
        default -> sse(event("p-2", CALL_RESULT));
      };
    });
    transport.send(msg(CALL), null);
    assertThat(List.of(receiver.next(), receiver.next())).containsExactly(PROGRESS_1, CALL_RESULT);
    server.next();
    assertThat(List.of(server.next(), server.next(), server.next()))
        .extracting(r -> r.header("Last-Event-ID"))
        .containsExactly("p-0", "p-0", "p-1");
  }

  @Test
  void withoutRetryTheInitialDelayOfThePolicyIsUsed() throws Exception {
    connect(
        r -> r.method().equals("POST") ? sse("id: q-0\ndata:\n\n") : sse(event("q-1", CALL_RESULT)),
        b -> b.reconnect(new ReconnectPolicy(Duration.ofMillis(200), Duration.ofSeconds(1), 1)));
    transport.send(msg(CALL), null);
    assertThat(receiver.next()).isEqualTo(CALL_RESULT);
    Request post = server.next();
    Request get = server.next();
    assertThat(Duration.ofNanos(get.nanos() - post.nanos()))
        .isGreaterThanOrEqualTo(Duration.ofMillis(200));
  }

  @Test
  void resumptionGivesUpAfterTheAllowedFailuresAndFailsTheRequest() throws Exception {
    connect(r -> r.method().equals("POST") ? sse("retry: 5\nid: f-0\ndata:\n\n") : status(503));
    transport.send(msg(CALL), null);
    String error = receiver.next();
    assertThat(error).startsWith("{\"jsonrpc\":\"2.0\",\"id\":1,\"error\":{\"code\":-32603");
    assertThat(error).contains("3 reconnection attempts failed");
    assertThat(server.requests).hasSize(1 + FAST.maxAttempts());
    assertThat(transport.isClosed()).isFalse(); // one call failed; the session goes on
  }

  @Test
  void aStreamWithoutEventIdsCannotBeResumedSoItsRequestFails() throws Exception {
    connect(r -> sse("data: " + PROGRESS_1 + "\n\n"));
    transport.send(msg(CALL), null);
    assertThat(receiver.next()).isEqualTo(PROGRESS_1);
    assertThat(receiver.next())
        .contains("\"id\":1,\"error\"")
        .contains("no event id to resume from");
    awaitWorkersDone(); // the transport's own signal: no stream reader is left to try again
    assertThat(server.requests).hasSize(1);
  }

  @Test
  void resumingAgainstAServerWithoutGetFailsTheRequest() throws Exception {
    connect(r -> r.method().equals("POST") ? sse("retry: 5\nid: n-0\ndata:\n\n") : status(405));
    transport.send(msg(CALL), null);
    assertThat(receiver.next()).contains("\"id\":1,\"error\"").contains("does not allow GET");
  }

  @Test
  void anOversizedEventFailsItsRequestWithoutGrowingOrResuming() throws Exception {
    String huge =
        "{\"jsonrpc\":\"2.0\",\"method\":\"notifications/message\",\"params\":{\"data\":\""
            + "x".repeat(5000)
            + "\"}}";
    connect(
        r -> sse("id: o-0\ndata:\n\n", event("o-1", huge), event("o-2", CALL_RESULT)),
        b -> b.maxEventBytes(1024));
    transport.send(msg(CALL), null);
    assertThat(receiver.next()).contains("\"id\":1,\"error\"").contains("larger than 1024 bytes");
    awaitWorkersDone();
    assertThat(server.requests).hasSize(1);
  }

  @Test
  void anOversizedJsonBodyFailsItsRequest() throws Exception {
    String huge = "{\"jsonrpc\":\"2.0\",\"id\":1,\"result\":{\"x\":\"" + "y".repeat(5000) + "\"}}";
    connect(r -> json(huge), b -> b.maxEventBytes(1024));
    transport.send(msg(CALL), null);
    assertThat(receiver.next()).contains("\"id\":1,\"error\"").contains("larger than 1024 bytes");
  }

  // ---------------------------------------------------------------- the standing stream

  @Test
  void standingStreamOpensAfterInitializedAndResumesWithLastEventId() throws Exception {
    BlockingQueue<String> second = new LinkedBlockingQueue<>();
    connect(r -> {
      Responder h = handshake(r);
      if (h != null) {
        return h;
      }
      return r.header("Last-Event-ID") == null
          ? sse("retry: 20\nid: g-0\ndata:\n\n", event("g-1", LIST_CHANGED))
          : sseFrom(second);
    });
    initialize();
    assertThat(receiver.next()).isEqualTo(LIST_CHANGED);
    server.next();
    server.next();
    Request first = server.next();
    assertThat(first.method()).isEqualTo("GET");
    Request resumed = server.next();
    assertThat(resumed.method()).isEqualTo("GET");
    assertThat(resumed.header("Last-Event-ID")).isEqualTo("g-1");
    second.add(event("g-2", PROGRESS_1));
    assertThat(receiver.next()).isEqualTo(PROGRESS_1);
    second.add(END);
  }

  @Test
  void noStandingStreamIsFine() throws Exception {
    connect(r -> {
      Responder h = handshake(r);
      return h != null ? h : status(405);
    });
    initialize();
    server.next();
    server.next();
    assertThat(server.next().method()).isEqualTo("GET");
    awaitWorkersDone();
    assertThat(server.requests).hasSize(3); // 405 is not retried
    assertThat(transport.isClosed()).isFalse();
  }

  @Test
  void standingStreamCanBeTurnedOff() throws Exception {
    connect(r -> handshake(r), b -> b.openStandingStream(false));
    initialize();
    awaitWorkersDone(); // the initialized POST's worker would have opened the standing stream
    assertThat(server.requests).extracting(Request::method).containsExactly("POST", "POST");
  }

  // ---------------------------------------------------------------- sessions

  @Test
  void notFoundForARequestWithTheSessionIdExpiresTheSession() throws Exception {
    connect(r -> {
      Responder h = handshake(r);
      return h != null ? h : r.method().equals("GET") ? status(405) : status(404);
    });
    initialize();
    transport.send(msg(CALL), null);
    Throwable cause = receiver.awaitClose();
    assertThat(cause).isInstanceOf(SessionExpiredException.class).hasMessageContaining(SID);
    assertThat(receiver.closes.get()).isEqualTo(1);
    assertThatThrownBy(() -> transport.send(msg(CALL), null))
        .isInstanceOf(TransportException.class)
        .hasMessageContaining("closed");
    transport.close();
    assertThat(server.requests)
        .extracting(Request::method)
        .doesNotContain("DELETE"); // the session is gone
  }

  @Test
  void notFoundOnResumingExpiresTheSession() throws Exception {
    connect(r -> {
      Responder h = handshake(r);
      if (h != null) {
        return h;
      }
      if (r.method().equals("GET")) {
        return r.header("Last-Event-ID") == null ? status(405) : status(404);
      }
      return sse("retry: 5\nid: e-0\ndata:\n\n");
    });
    initialize();
    transport.send(msg(CALL), null);
    assertThat(receiver.awaitClose()).isInstanceOf(SessionExpiredException.class);
  }

  @Test
  void notFoundWithoutASessionIsAnOrdinaryFailure() throws Exception {
    connect(r -> status(404));
    transport.send(msg(CALL), null); // not initialize: no fallback, no session
    assertThat(receiver.next()).contains("\"id\":1,\"error\"").contains("HTTP 404");
    assertThat(transport.isClosed()).isFalse();
  }

  @Test
  void anInvalidSessionIdEndsTheTransport() throws Exception {
    connect(r -> json(INIT_RESULT, "Mcp-Session-Id", "bad id"));
    transport.send(msg(INIT), null);
    assertThat(receiver.awaitClose())
        .isInstanceOf(TransportException.class)
        .hasMessageContaining("invalid session id");
  }

  @Test
  void closeDeletesTheSessionAndCancelsOpenStreams() throws Exception {
    BlockingQueue<String> standing = new LinkedBlockingQueue<>();
    connect(r -> {
      if (r.method().equals("DELETE")) {
        return status(405); // the server does not let clients end sessions: fine
      }
      Responder h = handshake(r);
      return h != null ? h : sseFrom(standing);
    });
    initialize();
    server.next();
    server.next();
    assertThat(server.next().method()).isEqualTo("GET");
    transport.close();
    Request delete = server.next();
    assertThat(delete.method()).isEqualTo("DELETE");
    assertThat(delete.header("Mcp-Session-Id")).isEqualTo(SID);
    assertThat(delete.header("MCP-Protocol-Version")).isEqualTo("2025-11-25");
    assertThat(receiver.awaitClose()).isNull();
    standing.add(event("late", LIST_CHANGED));
    // Once no stream reader is left, nothing more can be delivered: the late event never was.
    awaitWorkersDone();
    assertThat(receiver.all).containsExactly(INIT_RESULT);
    transport.close();
    assertThat(receiver.closes.get()).isEqualTo(1);
    assertThatThrownBy(() -> transport.send(msg(CALL), null))
        .isInstanceOf(TransportException.class);
    assertThat(transport.workerCount()).as("stream readers still running after close").isZero();
    standing.add(END);
  }

  @Test
  void closeWithoutASessionSendsNoDelete() throws Exception {
    connect(r -> json(INIT_RESULT));
    transport.send(msg(INIT), null);
    receiver.next();
    transport.close();
    assertThat(receiver.awaitClose()).isNull();
    assertThat(server.requests).extracting(Request::method).containsExactly("POST");
  }

  // ---------------------------------------------------------------- errors

  @Test
  void anUnreachableServerFailsSendWithOneClearLine() throws Exception {
    int port;
    try (ServerSocket s = new ServerSocket(0, 1, java.net.InetAddress.getLoopbackAddress())) {
      port = s.getLocalPort();
    }
    URI uri = URI.create("http://127.0.0.1:" + port + "/mcp");
    transport = engine.transport(uri);
    transport.start(receiver);
    assertThatThrownBy(() -> transport.send(msg(INIT), null))
        .isInstanceOf(TransportException.class)
        .hasMessage("cannot reach " + uri + ": connection refused");
  }

  @Test
  void anHttpErrorWithAJsonRpcBodyIsDeliveredWithTheRequestsId() throws Exception {
    connect(r ->
        json(
            400,
            "{\"jsonrpc\":\"2.0\",\"id\":null,\"error\":{\"code\":-32600,\"message\":\"Bad Request: no session\"}}"));
    transport.send(msg(CALL), null);
    assertThat(receiver.next())
        .isEqualTo(
            "{\"jsonrpc\":\"2.0\",\"id\":1,\"error\":{\"code\":-32600,\"message\":\"Bad Request: no session\"}}");
  }

  @Test
  void anHttpErrorWithoutABodyFailsTheRequestWithInternalError() throws Exception {
    connect(r -> status(500));
    transport.send(msg(CALL), null);
    assertThat(receiver.next())
        .isEqualTo(
            "{\"jsonrpc\":\"2.0\",\"id\":1,\"error\":{\"code\":-32603,\"message\":\"HTTP 500 from "
                + server.uri()
                + "\"}}");
  }

  @Test
  void initializeRefusedWithServerErrorIsNoReasonToFallBack() throws Exception {
    connect(r -> status(500));
    transport.send(msg(INIT), null);
    assertThat(receiver.next()).contains("\"id\":0,\"error\"").contains("HTTP 500");
    assertThat(server.requests).hasSize(1);
    assertThat(transport.isLegacy()).isFalse();
  }

  @Test
  void aRejectedNotificationIsLoggedNotFatal() throws Exception {
    connect(r -> status(400), b -> b.openStandingStream(false));
    transport.send(msg(INITIALIZED), null);
    server.next();
    assertThat(receiver.frames.poll(150, TimeUnit.MILLISECONDS)).isNull();
    assertThat(transport.isClosed()).isFalse();
  }

  // ---------------------------------------------------------------- 2024-11-05 HTTP+SSE

  @ParameterizedTest
  @ValueSource(ints = {400, 404, 405})
  void initializeRefusedFallsBackToHttpPlusSse(int refusal) throws Exception {
    BlockingQueue<String> stream = new LinkedBlockingQueue<>();
    stream.add("event: endpoint\ndata: /messages?sessionId=abc\n\n");
    connect(r -> {
      if (r.method().equals("GET")) {
        return sseFrom(stream);
      }
      if (r.path().equals("/mcp")) {
        return status(refusal);
      }
      if (r.body().contains("\"initialize\"")) {
        stream.add(
            "event: message\ndata: " + INIT_RESULT.replace("2025-11-25", "2024-11-05") + "\n\n");
      } else if (r.body().contains("tools/call")) {
        stream.add("data: " + CALL_RESULT + "\n\n");
      }
      return status(202);
    });
    transport.send(msg(INIT), null);
    assertThat(receiver.next()).contains("2024-11-05");
    assertThat(transport.isLegacy()).isTrue();
    transport.send(msg(INITIALIZED), null);
    transport.send(msg(CALL), null);
    assertThat(receiver.next()).isEqualTo(CALL_RESULT);

    assertThat(server.requests)
        .extracting(Request::toString)
        .containsExactly(
            "POST /mcp " + INIT,
            "GET /mcp",
            "POST /messages?sessionId=abc " + INIT,
            "POST /messages?sessionId=abc " + INITIALIZED,
            "POST /messages?sessionId=abc " + CALL);
    assertThat(server.requests.get(1).header("Accept")).isEqualTo("text/event-stream");
    assertThat(server.requests.get(2).header("Content-Type")).isEqualTo("application/json");
    transport.close();
    assertThat(receiver.awaitClose()).isNull();
    assertThat(server.requests).extracting(Request::method).doesNotContain("DELETE");
    stream.add(END);
  }

  @Test
  void anEndpointOnAnotherOriginIsRefused() throws Exception {
    connect(r ->
        r.method().equals("GET")
            ? sse("event: endpoint\ndata: http://evil.example/steal\n\n", ": hold\n\n")
            : status(405));
    transport.send(msg(INIT), null);
    assertThat(receiver.awaitClose())
        .isInstanceOf(TransportException.class)
        .hasMessageContaining("same origin");
    assertThat(server.requests).extracting(Request::method).containsExactly("POST", "GET");
  }

  @Test
  void aServerWithNeitherTransportEndsTheTransportClearly() throws Exception {
    connect(r -> status(404));
    transport.send(msg(INIT), null);
    assertThat(receiver.awaitClose())
        .isInstanceOf(TransportException.class)
        .hasMessageContaining("answered initialize with HTTP 404 and GET with HTTP 404");
  }

  @Test
  void theLegacyStreamEndingEndsTheTransport() throws Exception {
    BlockingQueue<String> stream = new LinkedBlockingQueue<>();
    stream.add("event: endpoint\ndata: /messages\n\n");
    connect(r -> {
      if (r.method().equals("GET")) {
        return sseFrom(stream);
      }
      if (r.path().equals("/mcp")) {
        return status(405);
      }
      stream.add("data: " + INIT_RESULT + "\n\n");
      return status(202);
    });
    transport.send(msg(INIT), null);
    receiver.next();
    stream.add(END);
    assertThat(receiver.awaitClose())
        .isInstanceOf(TransportException.class)
        .hasMessageContaining("ended");
  }

  // ---------------------------------------------------------------- builder

  @Test
  void builderRefusesWhatTheTransportManagesOrTheJdkForbids() {
    StreamableHttpClientTransport.Builder b = StreamableHttpClientTransport.builder();
    assertThatThrownBy(() -> b.header("Mcp-Session-Id", "x"))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("managed");
    assertThatThrownBy(() -> b.header("accept", "x")).isInstanceOf(IllegalArgumentException.class);
    assertThatThrownBy(() -> b.header("Host", "x")).isInstanceOf(IllegalArgumentException.class);
    assertThatThrownBy(() -> b.uri(URI.create("ws://127.0.0.1/mcp")))
        .isInstanceOf(IllegalArgumentException.class);
    assertThatThrownBy(() -> b.uri(URI.create("/relative")))
        .isInstanceOf(IllegalArgumentException.class);
    assertThatThrownBy(() -> b.maxEventBytes(10)).isInstanceOf(IllegalArgumentException.class);
    assertThatThrownBy(b::build)
        .isInstanceOf(IllegalStateException.class)
        .hasMessageContaining("uri");
    b.connectTimeout(Duration.ofSeconds(1));
    assertThatThrownBy(() -> b.httpClient(HttpClient.newHttpClient()))
        .isInstanceOf(IllegalStateException.class)
        .hasMessageContaining("connectTimeout was already set");
  }

  @Test
  void reconnectPolicyWaitsAtLeastTheServersRetryAndBacksOffToTheCap() {
    ReconnectPolicy p = new ReconnectPolicy(Duration.ofMillis(100), Duration.ofMillis(1000), 5);
    assertThat(p.delay(-1, 0)).isEqualTo(Duration.ofMillis(100));
    assertThat(p.delay(250, 0)).isEqualTo(Duration.ofMillis(250));
    assertThat(p.delay(-1, 1)).isEqualTo(Duration.ofMillis(200));
    assertThat(p.delay(-1, 3)).isEqualTo(Duration.ofMillis(800));
    assertThat(p.delay(-1, 10)).isEqualTo(Duration.ofMillis(1000));
    assertThat(p.delay(5000, 3)).isEqualTo(Duration.ofMillis(5000));
    assertThatThrownBy(() -> new ReconnectPolicy(Duration.ofSeconds(2), Duration.ofSeconds(1), 1))
        .isInstanceOf(IllegalArgumentException.class);
  }
}
