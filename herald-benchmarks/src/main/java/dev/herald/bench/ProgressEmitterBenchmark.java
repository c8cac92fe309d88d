package dev.herald.bench;

import dev.herald.internal.session.ProgressEmitter;
import dev.herald.session.CountingEventListener;
import dev.herald.wire.EncodedMessage;
import dev.herald.wire.ProgressToken;
import java.time.Duration;
import java.util.concurrent.TimeUnit;
import org.jspecify.annotations.Nullable;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;

/**
 * The sender's {@link ProgressEmitter#report}: a handler reporting strictly increasing values.
 *
 * <p>With cadence zero every report is turned into a {@code notifications/progress} message
 * (params record, tree conversion, notification) and handed to the send path, here a consumer that
 * only keeps the last message. With the default 50 ms cadence and a ticker advancing 1 µs per read
 * (a handler reporting every microsecond), reports are coalesced: one message leaves per 50,000
 * reports and the others only replace the pending value. The scheduler never fires, so the trailing
 * flush timer is armed once and stays armed.
 */
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
public class ProgressEmitterBenchmark {

  static final Double TOTAL = 1e12;

  @State(Scope.Thread)
  public abstract static class EmitterState {
    final CountingEventListener events = new CountingEventListener();
    ProgressEmitter emitter;
    @Nullable EncodedMessage lastSent; // until the first send
    long sends;
    double next;

    abstract Duration cadence();

    @Setup(Level.Trial)
    public void setup() {
      emitter =
          new ProgressEmitter(
              ProgressToken.of("9f86d081884c7d659a2feaa0c55ad015"),
              n -> {
                lastSent = n;
                sends++;
              },
              cadence(),
              new BenchSupport.AdvancingTicker(TimeUnit.MICROSECONDS.toNanos(1)),
              BenchSupport.NO_OP_SCHEDULER,
              events);
    }

    @TearDown(Level.Trial)
    public void check() {
      if (events.progressReportsRefused() != 0 || sends == 0 || lastSent == null) {
        throw new IllegalStateException("emitter refused reports or sent nothing");
      }
    }
  }

  public static class Immediate extends EmitterState {
    @Override
    Duration cadence() {
      return Duration.ZERO;
    }
  }

  public static class Coalesced extends EmitterState {
    @Override
    Duration cadence() {
      return Duration.ofMillis(50);
    }
  }

  /** Cadence zero: every report becomes a notification handed to the send path. */
  @Benchmark
  public boolean reportImmediate(Immediate s) {
    return s.emitter.report(++s.next, TOTAL, null);
  }

  /** Cadence 50 ms: almost every report only replaces the pending value. */
  @Benchmark
  public boolean reportCoalesced(Coalesced s) {
    return s.emitter.report(++s.next, TOTAL, null);
  }
}
