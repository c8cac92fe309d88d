package dev.herald.bench;

import dev.herald.internal.session.ProgressRegistry;
import dev.herald.internal.session.ProgressTokens;
import dev.herald.internal.session.ProgressTracker;
import dev.herald.session.CallOptions;
import dev.herald.session.ProgressListener;
import dev.herald.session.ProgressRecord;
import dev.herald.session.ProgressRejection;
import dev.herald.wire.ProgressNotificationParams;
import dev.herald.wire.ProgressToken;
import java.math.BigDecimal;
import java.time.Duration;
import java.util.Optional;
import java.util.concurrent.Executor;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;

/**
 * The receiver's handling of one arriving {@code notifications/progress} (already decoded to its
 * typed params): {@link ProgressRegistry#onProgress} routing to the owning {@link ProgressTracker}.
 *
 * <p>Fakes: the listener is a no-op, renders are handed to it on the calling thread (production
 * queues them on a serial executor), the scheduler never fires (a trailing-flush timer is armed
 * once and stays armed), and the ticker advances 1 ms per read, i.e. a sender emitting one update
 * per millisecond. The accept path builds the update's params in the measured op (one
 * {@link BigDecimal} and one record), because each accepted value must be larger than the last.
 *
 * <p>The registry and tracker are public in {@code dev.herald.internal.session}, which herald-core
 * does not export to users; the shaded benchmarks jar runs everything on the class path.
 */
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
public class ProgressReceiverBenchmark {

  static final long TICK_NANOS = TimeUnit.MILLISECONDS.toNanos(1);
  static final Executor DIRECT = Runnable::run;
  static final BigDecimal TOTAL = BigDecimal.valueOf(1_000_000_000L);

  static ProgressTracker tracker(ProgressToken token, Duration renderInterval) {
    return new ProgressTracker(
        token,
        ProgressListener.NONE,
        renderInterval,
        new BenchSupport.AdvancingTicker(TICK_NANOS),
        BenchSupport.NO_OP_SCHEDULER,
        DIRECT,
        acceptedAt -> {});
  }

  /** One registry with one active token receiving strictly increasing updates. */
  @State(Scope.Thread)
  public static class Accepting {
    /** The render cadence: 100 ms is the default (one render per 100 updates here); 0 renders every update. */
    @Param({"100", "0"})
    public long renderIntervalMs;

    final ProgressToken token = ProgressToken.of("9f86d081884c7d659a2feaa0c55ad015");
    ProgressRegistry registry;
    ProgressTracker tracker;
    long next;

    @Setup(Level.Trial)
    public void setup() {
      registry = new ProgressRegistry();
      tracker = tracker(token, Duration.ofMillis(renderIntervalMs));
      registry.register(tracker);
    }

    @TearDown(Level.Trial)
    public void check() {
      ProgressRecord record = tracker.record();
      if (record.accepted() == 0 || record.rejectedTotal() != 0) {
        throw new IllegalStateException("accept benchmark did not measure accepts: " + record);
      }
    }
  }

  /**
   * One registry whose tombstones are full (1024 closed tokens) and with one active token that has
   * already accepted a large value; the updates offered are prebuilt.
   */
  @State(Scope.Thread)
  public static class Rejecting {
    ProgressRegistry registry;
    ProgressTracker tracker;
    ProgressNotificationParams unknownToken;
    ProgressNotificationParams regressing;

    @Setup(Level.Trial)
    public void setup() {
      registry = new ProgressRegistry();
      for (int i = 0; i < ProgressRegistry.TOMBSTONES; i++) {
        ProgressTracker closed =
            tracker(ProgressTokens.random(), CallOptions.DEFAULT_RENDER_INTERVAL);
        registry.register(closed);
        registry.close(closed, ProgressRecord.Terminal.RESPONSE);
      }
      ProgressToken token = ProgressToken.of("9f86d081884c7d659a2feaa0c55ad015");
      tracker = tracker(token, CallOptions.DEFAULT_RENDER_INTERVAL);
      registry.register(tracker);
      if (registry.onProgress(params(token, 1_000)).isPresent()) {
        throw new IllegalStateException("setup update refused");
      }
      unknownToken = params(ProgressToken.of("0000000000000000000000000000beef"), 2_000);
      regressing = params(token, 500);
    }

    @TearDown(Level.Trial)
    public void check() {
      ProgressRecord record = tracker.record();
      if (record.accepted() != 1) {
        throw new IllegalStateException("a rejection benchmark accepted an update: " + record);
      }
    }
  }

  static ProgressNotificationParams params(ProgressToken token, long value) {
    return new ProgressNotificationParams(token, BigDecimal.valueOf(value), TOTAL, null, null);
  }

  /** An update with a larger value for an active token: validated, recorded, rendered at the cadence. */
  @Benchmark
  public Optional<ProgressRejection> acceptIncreasing(Accepting s) {
    return s.registry.onProgress(params(s.token, ++s.next));
  }

  /** An update for a token this side never issued: map miss, tombstone lookup, counter. */
  @Benchmark
  public Optional<ProgressRejection> rejectUnknownToken(Rejecting s) {
    return s.registry.onProgress(s.unknownToken);
  }

  /** An update whose value is below the last accepted one: refused under the tracker's lock. */
  @Benchmark
  public Optional<ProgressRejection> rejectRegressing(Rejecting s) {
    return s.registry.onProgress(s.regressing);
  }
}
