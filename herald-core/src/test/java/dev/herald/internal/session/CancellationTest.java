package dev.herald.internal.session;

import static dev.herald.internal.session.Fixture.*;
import static org.assertj.core.api.Assertions.assertThat;

import dev.herald.session.CallOptions;
import dev.herald.session.CancellationToken;
import dev.herald.session.CancelledException;
import dev.herald.session.EventListener;
import dev.herald.session.ProgressReporter;
import dev.herald.wire.McpMethods;
import dev.herald.wire.RequestId;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** notifications/cancelled: interrupts, trips the token, suppresses the response, cancels reverse calls. */
@Timeout(20)
class CancellationTest {

  @Test
  void aCancelledHandlerIsInterruptedItsTokenTrippedAndItsResponseSuppressed() {
    CountDownLatch started = new CountDownLatch(1);
    AtomicReference<Thread> handlerThread = new AtomicReference<>();
    AtomicReference<String> saw = new AtomicReference<>();
    try (EnginePair p =
        new EnginePair(call -> {
          handlerThread.set(Thread.currentThread());
          started.countDown();
          try {
            Thread.sleep(60_000);
            saw.set("slept");
          } catch (InterruptedException e) {
            saw.set(
                "interrupted; cancelled="
                    + call.cancellation().isCancelled()
                    + "; reason="
                    + call.cancellation().reason());
          }
          return object("{\"answered\":\"anyway\"}"); // returned, but it must never reach the wire
        })) {
      OutboundCall call = p.client.request("tools/call", null);
      await(started, "the handler runs");

      call.cancel("user pressed stop");
      join(handlerThread.get());

      assertThat(saw.get()).isEqualTo("interrupted; cancelled=true; reason=user pressed stop");
      assertThat(responses(p.serverEnd())).isEmpty();
      assertThat(failure(call.result())).isExactlyInstanceOf(CancelledException.class);
      assertThat(p.server.inFlightCount()).isZero();
      assertThat(p.client.pendingCount()).isZero();
      assertThat(p.clientEvents.responsesIgnored()).isZero();
    }
  }

  @Test
  void aHandlerWatchingItsTokenSeesTheCancellation() {
    CountDownLatch started = new CountDownLatch(1);
    CountDownLatch tripped = new CountDownLatch(1);
    AtomicReference<Thread> handlerThread = new AtomicReference<>();
    try (EnginePair p =
        new EnginePair(call -> {
          handlerThread.set(Thread.currentThread());
          call.cancellation().onCancel(tripped::countDown);
          started.countDown();
          while (!call.cancellation().isCancelled()) {
            Thread.onSpinWait(); // busy work that never blocks, so only the token can stop it
          }
          call.cancellation().throwIfCancelled();
          return object("{}");
        })) {
      OutboundCall call = p.client.request("tools/call", null);
      await(started, "the handler runs");
      // the peer's own cancellation, sent as a raw notification so the caller's call stays pending
      p.client.notify(
          McpMethods.CANCELLED,
          object("{\"requestId\":" + call.id() + ",\"reason\":\"enough\"}"),
          null);

      await(tripped, "the token trips");
      join(handlerThread.get());
      assertThat(responses(p.serverEnd())).isEmpty();
      assertThat(call.result()).isNotDone();
      call.cancel("clean up");
    }
  }

  @Test
  void cancellingARequestCancelsTheReverseCallsItsHandlerStarted() {
    CountDownLatch reverseStarted = new CountDownLatch(1);
    AtomicReference<Thread> reverseThread = new AtomicReference<>();
    AtomicReference<String> reverseSaw = new AtomicReference<>();
    AtomicReference<OutboundCall> reverseCall = new AtomicReference<>();
    CountDownLatch never = new CountDownLatch(1);
    try (EnginePair p =
        new EnginePair(
            call -> {
              OutboundCall reverse =
                  call.request(
                      McpMethods.SAMPLING_CREATE_MESSAGE, object("{}"), CallOptions.defaults());
              reverseCall.set(reverse);
              try {
                return reverse.result().get();
              } catch (Exception e) {
                throw new CancelledException("interrupted while waiting for sampling");
              }
            },
            b ->
                b.requests(call -> {
                  reverseThread.set(Thread.currentThread());
                  reverseStarted.countDown();
                  try {
                    never.await();
                    reverseSaw.set("completed");
                  } catch (InterruptedException e) {
                    reverseSaw.set("interrupted; reason=" + call.cancellation().reason());
                  }
                  return object("{}");
                }),
            b -> {})) {
      OutboundCall call = p.client.request("tools/call", null);
      await(reverseStarted, "the reverse request reaches the client");
      // The reverse request can reach the client before the handler has stored its handle.
      await(() -> reverseCall.get() != null, "the handler holds its reverse call");
      RequestId reverseId = reverseCall.get().id();

      call.cancel("stop everything");

      join(reverseThread.get());
      assertThat(cancelledIds(p.serverEnd())).containsExactly(reverseId);
      assertThat(reverseSaw.get()).isEqualTo("interrupted; reason=originating request ended");
      assertThat(failure(reverseCall.get().result())).isInstanceOf(CancelledException.class);
      assertThat(p.server.pendingCount()).isZero();
      assertThat(responsesTo(p.clientEnd(), reverseId)).isEmpty();
      assertThat(responsesTo(p.serverEnd(), call.id())).isEmpty();
    }
  }

  @Test
  void cancellationsOfUnknownOrFinishedRequestsAreIgnoredAndCounted() {
    try (EnginePair p = new EnginePair(call -> object("{\"ok\":true}"))) {
      OutboundCall done = p.client.request("tools/call", null);
      get(done.result());
      await(() -> p.server.inFlightCount() == 0, "the call has ended on the server");

      p.client.notify(McpMethods.CANCELLED, object("{\"requestId\":424242}"), null);
      p.client.notify(McpMethods.CANCELLED, object("{\"requestId\":" + done.id() + "}"), null);
      p.client.notify(
          McpMethods.CANCELLED,
          object("{\"requestId\":\"" + done.id() + "\"}"),
          null); // "1" is not 1
      p.client.notify(McpMethods.CANCELLED, object("{\"reason\":\"no id at all\"}"), null);
      await(
          () -> p.serverEvents.dropped(EventListener.Family.CANCELLED) == 4,
          "all four are ignored");

      assertThat(frames(p.serverEnd()))
          .singleElement()
          .satisfies(f -> assertThat(idOf(f)).isEqualTo(done.id()));
      assertThat(done.result()).isCompleted();
    }
  }

  @Test
  void initializeIsNeverCancelled() {
    CountDownLatch started = new CountDownLatch(1);
    CountDownLatch release = new CountDownLatch(1);
    AtomicReference<String> saw = new AtomicReference<>();
    try (EnginePair p =
        new EnginePair(call -> {
          started.countDown();
          try {
            release.await();
            saw.set("finished; cancelled=" + call.cancellation().isCancelled());
          } catch (InterruptedException e) {
            saw.set("interrupted");
          }
          return object("{\"protocolVersion\":\"2025-11-25\"}");
        })) {
      OutboundCall init = p.client.request(McpMethods.INITIALIZE, object("{}"));
      await(started, "initialize is being handled");

      p.client.notify(McpMethods.CANCELLED, object("{\"requestId\":" + init.id() + "}"), null);
      await(
          () -> p.serverEvents.dropped(EventListener.Family.CANCELLED) == 1,
          "the cancellation is ignored");
      release.countDown();

      assertThat(get(init.result()).get("protocolVersion").asString()).isEqualTo("2025-11-25");
      assertThat(saw.get()).isEqualTo("finished; cancelled=false");
      assertThat(responsesTo(p.serverEnd(), init.id())).hasSize(1);
    }
  }

  @Test
  void aCancelArrivingAfterTheResponseIsIgnoredAndTheCallerSeesTheResultOnce() {
    AtomicInteger outcomes = new AtomicInteger();
    try (EnginePair p = new EnginePair(call -> object("{\"n\":42}"))) {
      OutboundCall call = p.client.request("tools/call", null);
      call.result().whenComplete((r, e) -> outcomes.incrementAndGet());
      assertThat(get(call.result()).get("n").asInt()).isEqualTo(42);

      // the caller's cancel crossed the response on the wire
      p.client.notify(McpMethods.CANCELLED, object("{\"requestId\":" + call.id() + "}"), null);
      await(
          () -> p.serverEvents.dropped(EventListener.Family.CANCELLED) == 1,
          "the server ignores it");

      assertThat(responsesTo(p.serverEnd(), call.id())).hasSize(1);
      assertThat(outcomes).hasValue(1);
      assertThat(p.clientEvents.responsesIgnored()).isZero();
    }
  }

  /**
   * A cancelled handler that ignores its interrupt keeps running while the peer reuses its id for
   * a new request. When the old handler finally returns, its cleanup must not touch the new
   * request's progress emitter or token, so cancelling the new request still silences it.
   */
  @Test
  void cleanupOfAnOldHandlerNeverTouchesANewRequestWithTheSameId() {
    ManualClock clock = new ManualClock();
    CountDownLatch releaseOld = new CountDownLatch(1);
    CountDownLatch newReported = new CountDownLatch(1);
    Map<String, Thread> threads = new ConcurrentHashMap<>();
    Map<String, ProgressReporter> reporters = new ConcurrentHashMap<>();
    RequestHandler handler =
        call -> {
          threads.put(call.method(), Thread.currentThread());
          reporters.put(call.method(), call.progress());
          if (call.method().equals("stubborn")) {
            boolean done = false;
            while (!done) {
              try {
                releaseOld.await();
                done = true;
              } catch (InterruptedException ignored) {
                // this handler ignores cancellation on purpose
              }
            }
          } else if (call.method().equals("reporting")) {
            call.progress().report(1);
            call.progress().report(2); // pending behind the cadence
            newReported.countDown();
            block(new CountDownLatch(1));
          }
          return object("{}");
        };
    try (OneEngine e =
        new OneEngine(
            handler,
            b -> b.ticker(clock).scheduler(clock).progressInterval(Duration.ofMillis(100)))) {
      e.inject(withToken("5", "stubborn", "\"old\""));
      await(() -> threads.containsKey("stubborn"), "the old handler runs");
      e.inject(cancel("5"));
      await(() -> e.engine.inFlightCount() == 0, "the old request is cancelled");

      e.inject(withToken("5", "reporting", "\"old\"")); // same id, same token, new request
      await(newReported, "the new request reports");
      releaseOld.countDown();
      join(threads.get("stubborn")); // the old handler's cleanup has run

      e.inject(withToken("6", "ping-with-the-token", "\"old\""));
      await(() -> responsesTo(e.end(), RequestId.of(6)).size() == 1, "the token clash is answered");
      assertThat(responsesTo(e.end(), RequestId.of(6)).get(0).path("error").path("code").asInt(0))
          .as("the new request still holds its token")
          .isEqualTo(dev.herald.wire.ErrorCodes.INVALID_PARAMS);

      e.inject(cancel("5"));
      join(threads.get("reporting"));
      clock.advanceMillis(1000);

      assertThat(reporters.get("reporting").report(3))
          .as("the cancelled request's reporter is closed")
          .isFalse();
      assertThat(progressValues(e.end()))
          .as("nothing is sent for a cancelled request")
          .containsExactly(1.0);
      assertThat(responses(e.end())).hasSize(1);
    }
  }

  private static String withToken(String id, String method, String tokenJson) {
    return "{\"jsonrpc\":\"2.0\",\"id\":"
        + id
        + ",\"method\":\""
        + method
        + "\",\"params\":{\"_meta\":{\"progressToken\":"
        + tokenJson
        + "}}}";
  }

  private static String cancel(String id) {
    return "{\"jsonrpc\":\"2.0\",\"method\":\"notifications/cancelled\",\"params\":{\"requestId\":"
        + id
        + "}}";
  }

  /**
   * The caller cancels at about the moment the handler answers. Whichever wins, each side makes
   * exactly one terminal transition: the handler either answered (and the cancel was ignored) or
   * was cancelled (and sent nothing); the caller either has the result (and sent no cancel) or
   * was cancelled (sent one cancel, and a crossing response is counted as late).
   */
  @Test
  void aCancelCrossingTheResponseLeavesExactlyOneOutcomeOnEachSide() {
    Map<RequestId, Thread> handlerThreads = new ConcurrentHashMap<>();
    Map<RequestId, CancellationToken> tokens = new ConcurrentHashMap<>();
    int[] wins = new int[4];
    try (EnginePair p =
        new EnginePair(call -> {
          tokens.put(call.id(), call.cancellation());
          handlerThreads.put(call.id(), Thread.currentThread());
          return object("{\"id\":\"" + call.id() + "\"}");
        })) {
      for (int i = 0; i < 200; i++) {
        p.clientEnd().clearSent();
        p.serverEnd().clearSent();
        long ignoredBefore = p.serverEvents.dropped(EventListener.Family.CANCELLED);
        long lateBefore = p.clientEvents.responsesIgnored();
        AtomicInteger outcomes = new AtomicInteger();

        OutboundCall call = p.client.request("tools/call", null);
        call.result().whenComplete((r, e) -> outcomes.incrementAndGet());
        int spins = ThreadLocalRandom.current().nextInt(0, 20_000);
        for (int s = 0; s < spins && !call.result().isDone(); s++) {
          Thread.onSpinWait();
        }
        boolean callerCancelled = call.cancel("race " + i);

        // settle: the handler's thread has ended and the cancel (if sent) has been read
        await(() -> handlerThreads.containsKey(call.id()), "the handler ran");
        join(handlerThreads.get(call.id()));
        CancellationToken token = tokens.get(call.id());
        if (callerCancelled) {
          await(
              () ->
                  token.isCancelled()
                      || p.serverEvents.dropped(EventListener.Family.CANCELLED)
                          == ignoredBefore + 1,
              "the server has read the cancel");
        }
        boolean serverAnswered = responsesTo(p.serverEnd(), call.id()).size() == 1;
        if (callerCancelled && serverAnswered) {
          await(
              () -> p.clientEvents.responsesIgnored() == lateBefore + 1,
              "the crossing response is counted late");
        }

        String at = "iteration " + i;
        assertThat(responsesTo(p.serverEnd(), call.id())).as(at).hasSizeLessThanOrEqualTo(1);
        assertThat(serverAnswered)
            .as(at + ": the server answered xor was cancelled")
            .isNotEqualTo(token.isCancelled());
        if (callerCancelled) {
          assertThat(failure(call.result())).as(at).isInstanceOf(CancelledException.class);
          assertThat(cancelledIds(p.clientEnd())).as(at).containsExactly(call.id());
          assertThat(p.serverEvents.dropped(EventListener.Family.CANCELLED))
              .as(at)
              .isEqualTo(ignoredBefore + (serverAnswered ? 1 : 0));
        } else {
          assertThat(serverAnswered).as(at).isTrue();
          assertThat(get(call.result()).get("id").asString())
              .as(at)
              .isEqualTo(call.id().toString());
          assertThat(cancelledIds(p.clientEnd())).as(at).isEmpty();
          assertThat(p.serverEvents.dropped(EventListener.Family.CANCELLED))
              .as(at)
              .isEqualTo(ignoredBefore);
        }
        // whenComplete runs on the completing thread after the result is set: wait for it
        await(() -> outcomes.get() >= 1, "the caller's completion callback ran");
        assertThat(outcomes).as(at).hasValue(1);
        assertThat(p.clientEvents.responsesIgnored())
            .as(at)
            .isEqualTo(lateBefore + (callerCancelled && serverAnswered ? 1 : 0));
        assertThat(p.client.pendingCount()).as(at).isZero();
        await(() -> p.server.inFlightCount() == 0, "the server's table is empty");
        wins[(callerCancelled ? 2 : 0) + (serverAnswered ? 1 : 0)]++;
      }
    }
    // [caller won & server cancelled, -, caller cancelled & server cancelled, caller cancelled &
    // server answered]
    System.out.printf(
        "cancel race outcomes: result=%d, both cancelled=%d, caller cancelled/server answered=%d%n",
        wins[1], wins[2], wins[3]);
    assertThat(wins[0]).as("a result without a server answer").isZero();
  }
}
