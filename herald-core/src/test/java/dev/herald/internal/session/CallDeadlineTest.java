package dev.herald.internal.session;

import static dev.herald.internal.session.Fixture.*;
import static org.assertj.core.api.Assertions.assertThat;

import dev.herald.session.CallOptions;
import dev.herald.session.CancelledException;
import dev.herald.session.CountingEventListener;
import dev.herald.session.TimeoutException;
import dev.herald.transport.InMemoryTransport;
import dev.herald.transport.Transport;
import dev.herald.wire.EncodedMessage;
import dev.herald.wire.JsonRpcMessage;
import dev.herald.wire.McpMethods;
import dev.herald.wire.RequestId;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;
import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * The clocks of an outbound call (MCP specification, basic/lifecycle "Timeouts" and
 * basic/utilities/cancellation): the cancellation is on the wire before the caller sees the
 * failure, {@code initialize} is never cancelled, and no call is unbounded unless asked.
 */
@Timeout(20)
class CallDeadlineTest {

  @Test
  void theCancellationOfATimedOutCallIsWrittenBeforeTheCallerSeesTheFailureForEveryClock()
      throws Exception {
    for (String clockName : List.of("absolute", "idle", "explicit")) {
      ManualClock clock = new ManualClock();
      try (Recorded e = new Recorded(b -> b.ticker(clock).scheduler(clock))) {
        CallOptions options =
            switch (clockName) {
              case "absolute" -> CallOptions.builder().timeout(Duration.ofSeconds(1)).build();
              case "idle" -> CallOptions.builder().idleTimeout(Duration.ofSeconds(1)).build();
              default -> CallOptions.defaults();
            };
        OutboundCall call = e.engine.request("tools/call", null, options, null);
        e.watch(call);

        if (clockName.equals("explicit")) {
          assertThat(call.cancel("stop")).isTrue();
        } else {
          clock.advanceMillis(1000);
        }

        assertThat(failure(call.result())).isInstanceOf(CancelledException.class);
        await(() -> e.order.size() == 2, "both the cancellation and the failure were seen");
        assertThat(e.order)
            .as("clock %s", clockName)
            .containsExactly("cancelled on the wire", "caller failed");
      }
    }
  }

  /**
   * A pair whose server answers every request at once except {@code hold}, which waits for
   * {@code release}; the client's clocks run on {@code clock} and its timers on {@code timers}.
   */
  private static EnginePair holding(
      CountDownLatch release, ManualClock clock, dev.herald.session.Scheduler timers) {
    return new EnginePair(
        call -> {
          if (call.method().equals("hold")) {
            block(release);
          }
          return object("{}");
        },
        b -> b.ticker(clock).scheduler(timers),
        b -> {});
  }

  @Test
  void callsMadeOneAtATimeShareOneTimerWhichIsGivenBackOnceTheConnectionIsIdle() {
    ManualClock clock = new ManualClock();
    java.util.concurrent.atomic.AtomicInteger scheduled =
        new java.util.concurrent.atomic.AtomicInteger();
    dev.herald.session.Scheduler counting =
        (task, delay) -> {
          scheduled.incrementAndGet();
          return clock.schedule(task, delay);
        };
    CountDownLatch never = new CountDownLatch(1);
    try (EnginePair p = holding(never, clock, counting)) {
      for (int i = 0; i < 1_000; i++) {
        get(p.client.requestDirect("tools/call", null, CallOptions.defaults()).result());
      }
      // the call timer, and one check of the idle connection: not a task per call
      assertThat(scheduled.get()).isEqualTo(2);
      assertThat(clock.scheduledCount()).isEqualTo(2);

      clock.advance(Duration.ofNanos(CallDeadlines.GIVE_BACK_AFTER));
      assertThat(clock.scheduledCount()).as("an idle connection leaves nothing queued").isZero();

      OutboundCall held =
          p.client.request(
              "hold", null, CallOptions.builder().timeout(Duration.ofSeconds(1)).build(), null);
      clock.advance(Duration.ofSeconds(1));
      assertThat(failure(held.result())).isInstanceOf(TimeoutException.class);
      never.countDown();
    }
  }

  @Test
  void aCallMadeRightAfterAShorterOneWasAnsweredGetsTheTimerOnceTheConnectionIsQuiet() {
    ManualClock clock = new ManualClock();
    CountDownLatch never = new CountDownLatch(1);
    try (EnginePair p = holding(never, clock, clock)) {
      CallOptions tenSeconds = CallOptions.builder().timeout(Duration.ofSeconds(10)).build();
      get(p.client.requestDirect("tools/call", null, tenSeconds).result());
      OutboundCall held =
          p.client.request(
              "hold", null, CallOptions.builder().timeout(Duration.ofDays(7)).build(), null);
      // the timer is still armed for the answered call's ten seconds, and the idle check is queued
      assertThat(clock.scheduledCount()).isEqualTo(2);

      clock.advance(Duration.ofNanos(CallDeadlines.GIVE_BACK_AFTER));

      assertThat(clock.scheduledCount()).as("only the held call's timer is queued").isEqualTo(1);
      assertThat(clock.firstDueIn())
          .hasValue(Duration.ofDays(7).minusNanos(CallDeadlines.GIVE_BACK_AFTER));
      clock.advance(Duration.ofDays(7));
      assertThat(failure(held.result())).isInstanceOf(TimeoutException.class);
      never.countDown();
    }
  }

  @Test
  void aCallWithoutADeadlineOfItsOwnEndsAfterTheDefaultTenMinutes() {
    ManualClock clock = new ManualClock();
    try (OneEngine e =
        new OneEngine(EnginePair.unknownMethod(), b -> b.ticker(clock).scheduler(clock))) {
      OutboundCall call = e.engine.request("tools/call", null, CallOptions.defaults(), null);

      clock.advance(CallOptions.DEFAULT_TIMEOUT.minusMillis(1));
      assertThat(e.engine.pendingCount()).isEqualTo(1);

      clock.advanceMillis(1);
      assertThat(failure(call.result()))
          .isInstanceOfSatisfying(
              TimeoutException.class,
              t -> assertThat(t.clock()).isEqualTo(TimeoutException.Clock.ABSOLUTE));
      assertThat(cancelledIds(e.end())).containsExactly(call.id());
      assertThat(e.engine.pendingCount()).isZero();
    }
  }

  @Test
  void connectionDefaultsWithoutADeadlineStillGetTheTenMinutes() {
    ManualClock clock = new ManualClock();
    CallOptions idleOnly = CallOptions.builder().idleTimeout(Duration.ofHours(1)).build();
    try (OneEngine e =
        new OneEngine(
            EnginePair.unknownMethod(),
            b -> b.ticker(clock).scheduler(clock).defaultCallOptions(idleOnly))) {
      OutboundCall call = e.engine.request("tools/call", null, CallOptions.defaults(), null);

      clock.advance(CallOptions.DEFAULT_TIMEOUT);
      assertThat(failure(call.result()))
          .isInstanceOfSatisfying(
              TimeoutException.class,
              t -> assertThat(t.clock()).isEqualTo(TimeoutException.Clock.ABSOLUTE));
    }
  }

  @Test
  void noTimeoutLeavesACallUnboundedAndACallsOwnDeadlineWinsOverTheDefault() {
    ManualClock clock = new ManualClock();
    try (OneEngine e =
        new OneEngine(EnginePair.unknownMethod(), b -> b.ticker(clock).scheduler(clock))) {
      OutboundCall unbounded =
          e.engine.request("tools/call", null, CallOptions.builder().noTimeout().build(), null);
      OutboundCall longer =
          e.engine.request(
              "tools/call", null, CallOptions.builder().timeout(Duration.ofHours(2)).build(), null);

      clock.advance(Duration.ofHours(1));
      assertThat(unbounded.result()).isNotDone();
      assertThat(longer.result()).isNotDone();

      clock.advance(Duration.ofHours(1));
      assertThat(failure(longer.result())).isInstanceOf(TimeoutException.class);
      clock.advance(Duration.ofDays(30));
      assertThat(unbounded.result()).isNotDone();
      assertThat(cancelledIds(e.end())).containsExactly(longer.id());
    }
  }

  @Test
  void noTimeoutOnTheConnectionIsKeptUnlessACallSetsADeadline() {
    CallOptions none = CallOptions.builder().noTimeout().build();
    CallOptions merged = CallOptions.defaults().effective(none);
    assertThat(merged.timeout()).isNull();
    assertThat(merged.unbounded()).isTrue();
    CallOptions own = CallOptions.builder().timeout(Duration.ofSeconds(5)).build().effective(none);
    assertThat(own.timeout()).isEqualTo(Duration.ofSeconds(5));
    assertThat(own.unbounded()).isFalse();
    assertThat(CallOptions.builder().noTimeout().timeout(Duration.ofSeconds(1)).build().unbounded())
        .isFalse();
  }

  @Test
  void aTimedOutInitializeIsNeverCancelledTheConnectionIsClosedInstead() {
    ManualClock clock = new ManualClock();
    try (OneEngine e =
        new OneEngine(EnginePair.unknownMethod(), b -> b.ticker(clock).scheduler(clock))) {
      OutboundCall init =
          e.engine.request(
              McpMethods.INITIALIZE,
              object("{}"),
              CallOptions.builder().timeout(Duration.ofSeconds(30)).build(),
              null);

      clock.advance(Duration.ofSeconds(30));

      assertThat(failure(init.result())).isInstanceOf(TimeoutException.class);
      assertThat(withMethod(e.end(), McpMethods.CANCELLED)).isEmpty();
      assertThat(e.engine.isOpen()).isFalse();
      assertThat(e.end().isClosed()).isTrue();
    }
  }

  @Test
  void cancellingInitializeClosesTheConnectionWithoutACancellation() {
    try (OneEngine e = new OneEngine(EnginePair.unknownMethod())) {
      OutboundCall init = e.engine.request(McpMethods.INITIALIZE, object("{}"));

      assertThat(init.cancel("changed my mind")).isTrue();

      assertThat(failure(init.result())).isInstanceOf(CancelledException.class);
      assertThat(withMethod(e.end(), McpMethods.CANCELLED)).isEmpty();
      assertThat(e.engine.isOpen()).isFalse();
    }
  }

  /**
   * An engine whose transport records, in order, when a cancellation was written and when the
   * caller saw its call fail. The write of a cancellation waits (at most 300 ms) for the caller's
   * failure first, so that a failure delivered before the write cannot go unseen.
   */
  private static final class Recorded implements AutoCloseable {
    final InMemoryTransport.Pair wire = InMemoryTransport.pair();
    final List<String> order = new CopyOnWriteArrayList<>();
    final CountDownLatch failed = new CountDownLatch(1);
    final SessionEngine engine;

    Recorded(Consumer<SessionEngine.Builder> config) {
      Transport inner = wire.server();
      Transport recording =
          new Transport() {
            @Override
            public void start(Receiver receiver) {
              inner.start(receiver);
            }

            @Override
            public void send(JsonRpcMessage message, @Nullable RequestId relatedTo) {
              if (message instanceof JsonRpcMessage.Notification n
                  && n.method().equals(McpMethods.CANCELLED)) {
                try {
                  failed.await(300, TimeUnit.MILLISECONDS);
                } catch (InterruptedException e) {
                  Thread.currentThread().interrupt();
                }
                inner.send(message, relatedTo);
                order.add("cancelled on the wire");
                return;
              }
              inner.send(message, relatedTo);
            }

            @Override
            public void send(EncodedMessage message, @Nullable RequestId relatedTo) {
              inner.send(message, relatedTo);
            }

            @Override
            public void close() {
              inner.close();
            }
          };
      SessionEngine.Builder b =
          SessionEngine.builder()
              .name("engine")
              .transport(recording)
              .requests(EnginePair.unknownMethod())
              .eventListener(new CountingEventListener());
      config.accept(b);
      engine = b.build();
      engine.start();
    }

    void watch(OutboundCall call) {
      call.result()
          .whenComplete((r, t) -> {
            order.add("caller failed");
            failed.countDown();
          });
    }

    @Override
    public void close() {
      engine.close();
    }
  }
}
