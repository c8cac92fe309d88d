package dev.herald.internal.session;

import static dev.herald.internal.session.Fixture.*;
import static org.assertj.core.api.Assertions.assertThat;

import dev.herald.session.CallOptions;
import dev.herald.session.CancelledException;
import dev.herald.session.ProgressListener;
import dev.herald.session.ProgressRecord;
import dev.herald.session.Ticker;
import dev.herald.session.TimeoutException;
import dev.herald.transport.InMemoryTransport;
import dev.herald.transport.Transport;
import dev.herald.transport.TransportException;
import dev.herald.wire.ErrorCodes;
import dev.herald.wire.JsonRpcMessage;
import dev.herald.wire.McpException;
import dev.herald.wire.ProgressToken;
import dev.herald.wire.RequestId;
import java.time.Duration;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** Outbound requests: each pending entry leaves exactly once, by response, error, cancel or timeout. */
@Timeout(10)
class OutboundCallTest {

  @Test
  void aResponseCompletesTheCallAndFreesItsEntry() {
    try (EnginePair p =
        new EnginePair(call -> object("{\"echo\":" + call.params().get("text") + "}"))) {
      OutboundCall call = p.client.request("tools/call", object("{\"text\":\"hi\"}"));

      assertThat(get(call.result())).isEqualTo(json("{\"echo\":\"hi\"}"));
      assertThat(p.client.pendingCount()).isZero();
      assertThat(call.cancel("too late")).isFalse();
      assertThat(cancelledIds(p.clientEnd())).isEmpty();
    }
  }

  @Test
  void anErrorResponseFailsTheCallWithItsCode() {
    try (EnginePair p =
        new EnginePair(call -> {
          throw new McpException(ErrorCodes.INVALID_PARAMS, "Invalid params: text is required");
        })) {
      OutboundCall call = p.client.request("tools/call", null);

      assertThat(failure(call.result()))
          .isInstanceOfSatisfying(
              McpException.class,
              e -> {
                assertThat(e.code()).isEqualTo(ErrorCodes.INVALID_PARAMS);
                assertThat(e.getMessage()).isEqualTo("Invalid params: text is required");
              });
      assertThat(p.client.pendingCount()).isZero();
    }
  }

  @Test
  void cancellingSendsOneCancelledNotificationAndFailsTheCall() {
    CountDownLatch never = new CountDownLatch(1);
    try (EnginePair p =
        new EnginePair(call -> {
          block(never);
          return object("{}");
        })) {
      OutboundCall call = p.client.request("tools/call", null);

      assertThat(call.cancel("user pressed stop")).isTrue();
      assertThat(call.cancel("again")).isFalse();

      assertThat(failure(call.result()))
          .isExactlyInstanceOf(CancelledException.class)
          .hasMessage("user pressed stop");
      assertThat(p.client.pendingCount()).isZero();
      assertThat(cancelledIds(p.clientEnd())).containsExactly(call.id());
      assertThat(
              withMethod(p.clientEnd(), "notifications/cancelled")
                  .get(0)
                  .get("params")
                  .get("reason")
                  .asString())
          .isEqualTo("user pressed stop");
    }
  }

  @Test
  void aTimeoutSendsCancelledFreesTheEntryAndALateResponseIsIgnoredAndCounted() {
    ManualClock clock = new ManualClock();
    try (OneEngine e =
        new OneEngine(EnginePair.unknownMethod(), b -> b.ticker(clock).scheduler(clock))) {
      OutboundCall call =
          e.engine.request(
              "tools/call",
              null,
              CallOptions.builder().timeout(Duration.ofSeconds(2)).build(),
              null);

      clock.advanceMillis(1999);
      assertThat(e.engine.pendingCount()).isEqualTo(1);
      assertThat(cancelledIds(e.end())).isEmpty();

      clock.advanceMillis(1);
      assertThat(e.engine.pendingCount()).isZero();
      assertThat(cancelledIds(e.end())).containsExactly(call.id());
      assertThat(failure(call.result()))
          .isInstanceOfSatisfying(
              TimeoutException.class,
              t -> assertThat(t.clock()).isEqualTo(TimeoutException.Clock.ABSOLUTE));

      e.inject("{\"jsonrpc\":\"2.0\",\"id\":" + call.id() + ",\"result\":{\"late\":true}}");
      await(() -> e.events.responsesIgnored() == 1, "the late response is counted");
      assertThat(call.result()).isCompletedExceptionally();
      assertThat(call.cancel("after the timeout")).isFalse();
      assertThat(cancelledIds(e.end())).containsExactly(call.id());
    }
  }

  @Test
  void aResponseToARequestNeverSentIsCountedAsLate() {
    try (OneEngine e = new OneEngine(EnginePair.unknownMethod())) {
      e.inject(
          "{\"jsonrpc\":\"2.0\",\"id\":\"nobody\",\"error\":{\"code\":-32603,\"message\":\"x\"}}");
      await(() -> e.events.responsesIgnored() == 1, "the stray response is counted");
      assertThat(e.end().sent()).isEmpty();
    }
  }

  @Test
  void theIdleClockIsResetByAnAcceptedProgressUpdate() {
    ManualClock clock = new ManualClock();
    try (OneEngine e =
        new OneEngine(EnginePair.unknownMethod(), b -> b.ticker(clock).scheduler(clock))) {
      OutboundCall call = e.engine.request("tools/call", null, idleOneSecond(), null);
      ProgressToken token = tokenOf(onlyRequest(e.end(), "tools/call"));

      clock.advanceMillis(900);
      e.inject(progressFrame(token, "1", ""));
      await(() -> accepted(call) == 1, "the update is accepted");

      clock.advanceMillis(999); // 1899 ms: 999 ms since the accepted update
      assertThat(e.engine.pendingCount()).isEqualTo(1);

      clock.advanceMillis(1); // 1900 ms: 1 s since the accepted update
      assertThat(e.engine.pendingCount()).isZero();
      assertThat(failure(call.result()))
          .isInstanceOfSatisfying(
              TimeoutException.class,
              t -> assertThat(t.clock()).isEqualTo(TimeoutException.Clock.IDLE));
      assertThat(withMethod(e.end(), "notifications/cancelled"))
          .singleElement()
          .satisfies(
              n -> assertThat(n.get("params").get("reason").asString()).isEqualTo("idle timeout"));
    }
  }

  @Test
  void aRefusedProgressUpdateDoesNotResetTheIdleClock() {
    ManualClock clock = new ManualClock();
    try (OneEngine e =
        new OneEngine(EnginePair.unknownMethod(), b -> b.ticker(clock).scheduler(clock))) {
      OutboundCall call = e.engine.request("tools/call", null, idleOneSecond(), null);
      ProgressToken token = tokenOf(onlyRequest(e.end(), "tools/call"));

      clock.advanceMillis(500);
      e.inject(progressFrame(token, "5", ""));
      await(() -> accepted(call) == 1, "the first update is accepted");

      clock.advanceMillis(400); // 900 ms
      e.inject(progressFrame(token, "5", "")); // equal
      e.inject(progressFrame(token, "4", "")); // regressing
      e.inject(progressFrame(token, "1e400", "")); // not finite
      await(
          () -> call.progressRecord().orElseThrow().rejectedTotal() == 3,
          "three updates are refused");

      clock.advanceMillis(599); // 1499 ms: 999 ms since the accepted update
      assertThat(e.engine.pendingCount()).isEqualTo(1);
      clock.advanceMillis(1); // 1500 ms: the refused updates at 900 ms did not move the clock
      assertThat(e.engine.pendingCount()).isZero();
      assertThat(failure(call.result()))
          .isInstanceOfSatisfying(
              TimeoutException.class,
              t -> assertThat(t.clock()).isEqualTo(TimeoutException.Clock.IDLE));
      assertThat(call.progressRecord().orElseThrow().terminal())
          .isEqualTo(ProgressRecord.Terminal.TIMEOUT_IDLE);
    }
  }

  @Test
  void theAbsoluteDeadlineIsNeverExtendedByProgress() {
    ManualClock clock = new ManualClock();
    try (OneEngine e =
        new OneEngine(EnginePair.unknownMethod(), b -> b.ticker(clock).scheduler(clock))) {
      CallOptions options =
          CallOptions.builder()
              .progress(ProgressListener.NONE)
              .idleTimeout(Duration.ofSeconds(1))
              .timeout(Duration.ofMillis(2500))
              .build();
      OutboundCall call = e.engine.request("tools/call", null, options, null);
      ProgressToken token = tokenOf(onlyRequest(e.end(), "tools/call"));

      for (int i = 1; i <= 4; i++) {
        clock.advanceMillis(500);
        e.inject(progressFrame(token, Integer.toString(i), ""));
        int expected = i;
        await(() -> accepted(call) == expected, "update " + expected + " is accepted");
      }
      clock.advanceMillis(499); // 2499 ms, the idle clock is far from its end
      assertThat(e.engine.pendingCount()).isEqualTo(1);

      clock.advanceMillis(1);
      assertThat(e.engine.pendingCount()).isZero();
      assertThat(failure(call.result()))
          .isInstanceOfSatisfying(
              TimeoutException.class,
              t -> assertThat(t.clock()).isEqualTo(TimeoutException.Clock.ABSOLUTE));
      assertThat(withMethod(e.end(), "notifications/cancelled"))
          .singleElement()
          .satisfies(
              n -> assertThat(n.get("params").get("reason").asString()).isEqualTo("timeout"));
      assertThat(call.progressRecord().orElseThrow().terminal())
          .isEqualTo(ProgressRecord.Terminal.TIMEOUT_ABSOLUTE);
    }
  }

  @Test
  void aRequestOnAClosedSessionFailsAtOnce() {
    OneEngine e = new OneEngine(EnginePair.unknownMethod());
    e.close();
    org.assertj.core.api.Assertions.assertThatThrownBy(() -> e.engine.request("ping", null))
        .isInstanceOf(TransportException.class);
  }

  /**
   * A call that passed the "is it open?" check just as the session closed: its entry is added
   * after the close has failed every pending call, and its send slips through before the
   * transport shuts. The close must still fail it; it must never hang.
   */
  @Test
  void aCallRacingTheCloseIsFailedByItNeverLeftPending() throws Exception {
    InMemoryTransport.Pair pair = InMemoryTransport.pair();
    CountDownLatch callerInside = new CountDownLatch(1);
    CountDownLatch closeBegun = new CountDownLatch(1);
    CountDownLatch requestReturned = new CountDownLatch(1);
    java.util.concurrent.atomic.AtomicReference<Thread> gated =
        new java.util.concurrent.atomic.AtomicReference<>();
    Ticker ticker =
        () -> {
          if (Thread.currentThread()
              == gated.get()) { // the request's first clock read, just after its open check
            gated.set(null);
            callerInside.countDown();
            block(closeBegun);
          }
          return System.nanoTime();
        };
    Transport transport =
        new Transport() {
          @Override
          public void start(Receiver receiver) {
            pair.server().start(receiver);
          }

          @Override
          public void send(JsonRpcMessage message, RequestId relatedTo) {
            pair.server().send(message, relatedTo);
          }

          @Override
          public void close() {
            closeBegun.countDown(); // the engine has already failed its pending calls
            try {
              requestReturned.await(
                  5, TimeUnit.SECONDS); // let the racing request() run to its end first
            } catch (InterruptedException e) {
              Thread.currentThread().interrupt();
            }
            pair.server().close();
          }
        };
    SessionEngine engine =
        SessionEngine.builder()
            .transport(transport)
            .requests(EnginePair.unknownMethod())
            .ticker(ticker)
            .build();
    engine.start();
    java.util.concurrent.CompletableFuture<OutboundCall> racing =
        new java.util.concurrent.CompletableFuture<>();
    Thread caller =
        Thread.ofPlatform()
            .unstarted(() -> {
              try {
                racing.complete(engine.request("ping", null));
              } finally {
                requestReturned.countDown();
              }
            });
    gated.set(caller);
    caller.start();
    await(callerInside, "the caller is past the open check");

    engine.close();
    join(caller);

    assertThat(failure(get(racing).result())).isInstanceOf(TransportException.class);
    assertThat(engine.pendingCount()).isZero();
  }

  private static CallOptions idleOneSecond() {
    return CallOptions.builder()
        .progress(ProgressListener.NONE)
        .idleTimeout(Duration.ofSeconds(1))
        .build();
  }

  private static long accepted(OutboundCall call) {
    return call.progressRecord().orElseThrow().accepted();
  }
}
