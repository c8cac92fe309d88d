package dev.herald.server;

import dev.herald.session.Scheduler;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * Coalesces a burst of triggers into one run of {@code action}, {@code delayNanos} after the
 * first trigger of the burst (go-sdk's 10 ms list-change debounce). A trigger while a run is
 * scheduled does nothing more; a trigger during or after the run starts a new burst. Lock-free.
 */
final class Debouncer {
  private final Scheduler scheduler;
  private final long delayNanos;
  private final Runnable action;
  private final AtomicBoolean scheduled = new AtomicBoolean();

  Debouncer(Scheduler scheduler, long delayNanos, Runnable action) {
    this.scheduler = scheduler;
    this.delayNanos = delayNanos;
    this.action = action;
  }

  void trigger() {
    if (scheduled.compareAndSet(false, true)) {
      scheduler.schedule(this::fire, delayNanos);
    }
  }

  private void fire() {
    scheduled.set(false);
    action.run();
  }
}
