package dev.herald.internal.session;

import dev.herald.session.ProgressRecord;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.LongConsumer;
import org.jspecify.annotations.Nullable;

/**
 * A progress token that outlived its request because the request's result started a task (MCP
 * 2025-11-25 basic/utilities/progress: "the progress token from the original task-augmented
 * request remains valid across the task lifetime"; progress MUST stop once the task is terminal).
 * Updates keep reaching the call's listener, in order, until {@link #close} flushes the pending
 * render and tombstones the token, exactly once.
 *
 * <p>Thread-safe.
 */
public final class ProgressLease {
  private final ProgressTracker tracker;
  private final ProgressRegistry registry;
  private final AtomicBoolean closed = new AtomicBoolean();
  private final java.util.concurrent.Executor callbacks;
  private volatile @Nullable LongConsumer activity;

  ProgressLease(
      ProgressTracker tracker, ProgressRegistry registry, java.util.concurrent.Executor callbacks) {
    this.tracker = tracker;
    this.registry = registry;
    this.callbacks = callbacks;
  }

  /** The token's record so far (or final, once closed). */
  public ProgressRecord record() {
    return tracker.record();
  }

  /** Whether the token is still active. */
  public boolean isActive() {
    return !closed.get();
  }

  /** Told the ticker time of each accepted update (an idle clock restarts on it); must not block. */
  public void onActivity(LongConsumer listener) {
    this.activity = listener;
  }

  void touched(long now) {
    LongConsumer a = activity;
    if (a != null) {
      a.accept(now);
    }
  }

  /**
   * The task turned terminal and its outcome is still to come: the pending value is rendered now
   * as the last one, later updates are refused as late, and {@link #close} only records how it
   * ended; then {@code then} runs on the listener's executor, after that render (a receiver
   * renders the pending value before it shows a terminal task status). Idempotent; {@code then}
   * runs every time.
   */
  public void seal(Runnable then) {
    if (!closed.get()) {
      tracker.seal();
    }
    callbacks.execute(then);
  }

  /**
   * Ends the token: the pending value is rendered as the last one, later updates are refused as
   * late. Idempotent; returns false if it was already closed.
   */
  public boolean close(ProgressRecord.Terminal how) {
    return close(how, null);
  }

  /**
   * Ends the token as {@link #close(ProgressRecord.Terminal)} does, then runs {@code then} after
   * the final render reached the listener (on the listener's executor), so a caller completing a
   * result there is seen after the last progress value. {@code then} runs even when the token was
   * already closed.
   */
  public boolean close(ProgressRecord.Terminal how, @Nullable Runnable then) {
    boolean first = closed.compareAndSet(false, true);
    if (first) {
      registry.close(tracker, how);
    }
    if (then != null) {
      callbacks.execute(then);
    }
    return first;
  }
}
