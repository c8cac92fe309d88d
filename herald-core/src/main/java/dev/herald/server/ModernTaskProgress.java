package dev.herald.server;

import dev.herald.session.ProgressReporter;
import java.util.Locale;
import java.util.concurrent.locks.ReentrantLock;
import org.jspecify.annotations.Nullable;

/**
 * Progress of a 2026-07-28 task whose request came over Streamable HTTP: the POST that carried
 * its progress token is answered with the {@code CreateTaskResult} and gone, and the tasks
 * extension has no progress on tasks (SEP-2663: {@code notifications/progress} is not sent for a
 * task on a listen stream), so each accepted value is folded into the task's status message
 * ({@code "half (50%)"}), which {@code tasks/get} and {@code notifications/tasks} show. What the
 * handler reports still goes to the request's own reporter too (nothing, once the POST is gone).
 *
 * <p>Design note. Values must strictly increase and be finite, as for any progress; the status
 * message is rewritten at most once per {@link #MIN_INTERVAL_NANOS} (at once for the value that
 * reaches the total), a value that came too soon being written by one trailing write on the
 * server's scheduler, so a handler reporting in a tight loop costs the store a bounded number of
 * writes and the last value is never lost. Thread-safe: {@code lock} guards the last value, time
 * and the text waiting for the trailing write.
 */
final class ModernTaskProgress implements ProgressReporter {
  /** At most one status message write per 100 ms. */
  static final long MIN_INTERVAL_NANOS = 100_000_000L;

  private final TaskRuntime runtime;
  private final dev.herald.session.Scheduler scheduler;
  private final String taskId;
  private final ReentrantLock lock = new ReentrantLock();
  private double last = Double.NEGATIVE_INFINITY; // guarded by lock
  private long lastWrite = System.nanoTime() - MIN_INTERVAL_NANOS; // guarded by lock
  private @Nullable String waiting; // guarded by lock: the text of the trailing write

  ModernTaskProgress(TaskRuntime runtime, dev.herald.session.Scheduler scheduler, String taskId) {
    this.runtime = runtime;
    this.scheduler = scheduler;
    this.taskId = taskId;
  }

  /** The reporter a handler sees: this one folded over the request's own. */
  ProgressReporter over(ProgressReporter request) {
    return new ProgressReporter() {
      @Override
      public boolean requested() {
        return true;
      }

      @Override
      public boolean report(double progress, @Nullable Double total, @Nullable String message) {
        request.report(progress, total, message);
        return ModernTaskProgress.this.report(progress, total, message);
      }

      @Override
      public boolean percent(long done, long of, @Nullable String message) {
        request.percent(done, of, message);
        return ModernTaskProgress.this.percent(done, of, message);
      }
    };
  }

  @Override
  public boolean requested() {
    return true;
  }

  @Override
  public boolean report(double progress, @Nullable Double total, @Nullable String message) {
    if (!Double.isFinite(progress) || (total != null && !Double.isFinite(total))) {
      return false;
    }
    String amount =
        total != null && total > 0
            ? Math.round(100 * Math.min(progress, total) / total) + "%"
            : number(progress) + (total != null ? "/" + number(total) : "");
    boolean done = total != null && progress >= total;
    return fold(progress, message == null ? amount : message + " (" + amount + ")", done);
  }

  @Override
  public boolean percent(long done, long of, @Nullable String message) {
    if (of <= 0 || done < 0) {
      return false;
    }
    long pct = Math.round(100.0 * Math.min(done, of) / of);
    String amount = pct + "%";
    return fold((double) pct, message == null ? amount : message + " (" + amount + ")", done >= of);
  }

  private boolean fold(double value, String text, boolean done) {
    long now = System.nanoTime();
    lock.lock();
    try {
      if (!(value > last)) {
        return false; // progress must increase
      }
      last = value;
      long wait = MIN_INTERVAL_NANOS - (now - lastWrite);
      if (!done && wait > 0) {
        if (waiting == null) {
          scheduler.schedule(() -> Thread.ofVirtual().start(this::trailing), wait);
        }
        waiting = text; // the trailing write shows the latest
        return true;
      }
      waiting = null;
      lastWrite = now;
    } finally {
      lock.unlock();
    }
    runtime.statusMessage(taskId, text);
    return true;
  }

  /** The trailing write of a value that came too soon after the previous write. */
  private void trailing() {
    String text;
    lock.lock();
    try {
      text = waiting;
      waiting = null;
      lastWrite = System.nanoTime();
    } finally {
      lock.unlock();
    }
    if (text != null) {
      runtime.statusMessage(taskId, text); // nothing once the task is terminal
    }
  }

  private static String number(double d) {
    return d == Math.rint(d) ? Long.toString((long) d) : String.format(Locale.ROOT, "%.2f", d);
  }
}
