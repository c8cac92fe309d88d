package dev.herald.bench;

import dev.herald.session.Scheduler;
import dev.herald.session.Ticker;

/** Fakes shared by the session benchmarks. */
final class BenchSupport {
  private BenchSupport() {}

  /** A scheduler that never runs anything: timers are armed but never fire. */
  static final Scheduler NO_OP_SCHEDULER = (task, delayNanos) -> () -> {};

  /** A ticker that moves forward by a fixed step each time it is read. Single-threaded use only. */
  static final class AdvancingTicker implements Ticker {
    private final long stepNanos;
    private long now;

    AdvancingTicker(long stepNanos) {
      this.stepNanos = stepNanos;
    }

    @Override
    public long nanos() {
      return now += stepNanos;
    }
  }
}
