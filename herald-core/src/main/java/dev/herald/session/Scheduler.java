package dev.herald.session;

import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;

/**
 * Runs a task after a delay. Herald's timers (call timeouts, progress flushes, list-change
 * debounce) all go through one of these so tests can drive time by hand.
 */
@FunctionalInterface
public interface Scheduler {

  /** Schedules {@code task} after {@code delayNanos}; the returned handle cancels it. */
  Cancellable schedule(Runnable task, long delayNanos);

  /** A scheduled task that may be cancelled. */
  @FunctionalInterface
  interface Cancellable {
    void cancel();
  }

  /**
   * The shared system scheduler: one daemon platform thread that only hands due tasks to virtual
   * threads, so a slow task never delays another timer.
   */
  static Scheduler system() {
    return SystemScheduler.INSTANCE;
  }

  /** The default implementation. */
  final class SystemScheduler implements Scheduler {
    static final SystemScheduler INSTANCE = new SystemScheduler();

    private final ScheduledExecutorService timer =
        Executors.newSingleThreadScheduledExecutor(r -> {
          Thread t = new Thread(r, "herald-timer");
          t.setDaemon(true);
          return t;
        });

    private SystemScheduler() {}

    @Override
    public Cancellable schedule(Runnable task, long delayNanos) {
      ScheduledFuture<?> f =
          timer.schedule(
              () -> Thread.ofVirtual().name("herald-timer-task").start(task),
              Math.max(0, delayNanos),
              TimeUnit.NANOSECONDS);
      return () -> f.cancel(false);
    }
  }
}
