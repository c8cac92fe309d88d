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
 * message is rewritten at most once per {@link #MIN_INTERVAL_NANOS} (and always for the value
 * that reaches the total), so a handler reporting in a tight loop costs the store a bounded number
 * of writes. Thread-safe: {@code lock} guards the last value and time.
 */
final class ModernTaskProgress implements ProgressReporter {
  /** At most one status message write per 100 ms. */
  static final long MIN_INTERVAL_NANOS = 100_000_000L;

  private final TaskRuntime runtime;
  private final String taskId;
  private final ReentrantLock lock = new ReentrantLock();
  private double last = Double.NEGATIVE_INFINITY; // guarded by lock
  private long lastWrite = System.nanoTime() - MIN_INTERVAL_NANOS; // guarded by lock

  ModernTaskProgress(TaskRuntime runtime, String taskId) {
    this.runtime = runtime;
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
      if (!done && now - lastWrite < MIN_INTERVAL_NANOS) {
        return true; // accepted, the next write shows a later value
      }
      lastWrite = now;
    } finally {
      lock.unlock();
    }
    runtime.statusMessage(taskId, text);
    return true;
  }

  private static String number(double d) {
    return d == Math.rint(d) ? Long.toString((long) d) : String.format(Locale.ROOT, "%.2f", d);
  }
}
