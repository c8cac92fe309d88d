package dev.herald.session;

import java.util.concurrent.Delayed;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.ScheduledThreadPoolExecutor;
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
   * threads, so a slow task never delays another timer. A cancelled task leaves its queue at once
   * (a call that ends long before its timeout leaves no timer behind).
   */
  static Scheduler system() {
    return SystemScheduler.INSTANCE;
  }

  /** The default implementation. */
  final class SystemScheduler implements Scheduler {
    static final SystemScheduler INSTANCE = new SystemScheduler();

    private final ScheduledThreadPoolExecutor timer =
        new ScheduledThreadPoolExecutor(
            1,
            r -> {
              Thread t = new Thread(r, "herald-timer");
              t.setDaemon(true);
              // not the context class loader of whichever thread scheduled first (a servlet
              // container's request thread would pin its web application's loader, and the
              // container would report a leaked thread when the application stops)
              t.setContextClassLoader(SystemScheduler.class.getClassLoader());
              return t;
            });

    private SystemScheduler() {
      // without it a cancelled timer stays queued until it falls due: a call answered in a
      // millisecond with a 10-minute timeout would hold its task (and what it captures) for 10
      // minutes, hundreds of thousands of dead tasks at a high call rate
      timer.setRemoveOnCancelPolicy(true);
    }

    /** How many queued tasks fall due later than {@code nanos} from now (for tests). */
    int queuedLaterThan(long nanos) {
      int n = 0;
      for (Runnable r : timer.getQueue()) {
        if (r instanceof Delayed d && d.getDelay(TimeUnit.NANOSECONDS) > nanos) {
          n++;
        }
      }
      return n;
    }

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
