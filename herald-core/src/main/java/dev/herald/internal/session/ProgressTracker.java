package dev.herald.internal.session;

import dev.herald.session.ProgressListener;
import dev.herald.session.ProgressRecord;
import dev.herald.session.ProgressRejection;
import dev.herald.session.ProgressUpdate;
import dev.herald.session.Scheduler;
import dev.herald.session.Ticker;
import dev.herald.wire.ProgressNotificationParams;
import dev.herald.wire.ProgressToken;
import java.time.Duration;
import java.util.EnumMap;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.Executor;
import java.util.concurrent.locks.ReentrantLock;
import java.util.function.LongConsumer;
import org.jspecify.annotations.Nullable;

/**
 * The receiver's state for one active progress token (docs/notifications.md, "The receiver's
 * rules"): validates each update
 * (finite, strictly increasing, sane total), coalesces renders to a cadence with a trailing flush,
 * flushes the pending value when the call ends, and keeps the per-token record.
 *
 * <p>All state is guarded by {@code lock}; the listener runs on {@code callbacks}, a serial
 * executor, so renders reach it in order and never on the transport's reader. The lock is never
 * held while user code runs.
 */
public final class ProgressTracker {
  private final ReentrantLock lock = new ReentrantLock();
  private final ProgressToken token;
  private final ProgressListener listener;
  private final long renderIntervalNanos;
  private final Ticker ticker;
  private final Scheduler scheduler;
  private final Executor callbacks;
  private final LongConsumer
      onAccepted; // gets the acceptance time; runs under lock, must not block
  private final long startedAt;

  // guarded by lock
  private boolean hasLast;
  private double last;
  private @Nullable Double total;
  private @Nullable String message;
  private boolean totalKnown;
  private long accepted;
  private final EnumMap<ProgressRejection, Long> rejected = new EnumMap<>(ProgressRejection.class);
  private long rendered;
  private long lastAcceptedAt;
  private long lastRenderAt;
  private boolean everRendered;
  private boolean pending;
  private Scheduler.@Nullable Cancellable flushTimer;
  private boolean sealed; // guarded by lock: the last value was rendered, the end is not known
  private ProgressRecord.@Nullable Terminal terminal;
  private long endedAt;

  public ProgressTracker(
      ProgressToken token,
      ProgressListener listener,
      Duration renderInterval,
      Ticker ticker,
      Scheduler scheduler,
      Executor callbacks,
      LongConsumer onAccepted) {
    this.token = token;
    this.listener = listener;
    this.renderIntervalNanos = renderInterval.toNanos();
    this.ticker = ticker;
    this.scheduler = scheduler;
    this.callbacks = callbacks;
    this.onAccepted = onAccepted;
    this.startedAt = ticker.nanos();
    this.lastAcceptedAt = startedAt;
  }

  ProgressToken token() {
    return token;
  }

  /** Validates and records one update; empty when accepted. */
  Optional<ProgressRejection> accept(ProgressNotificationParams params) {
    double value = params.progressValue();
    Double newTotal = params.totalValue();
    ProgressUpdate toRender = null;
    lock.lock();
    try {
      ProgressRejection why = null;
      if (terminal != null || sealed) {
        why = ProgressRejection.LATE;
      } else if (!Double.isFinite(value) || (newTotal != null && !Double.isFinite(newTotal))) {
        why = ProgressRejection.NON_FINITE;
      } else if (newTotal != null && newTotal <= 0) {
        why = ProgressRejection.INVALID_TOTAL;
      } else if (hasLast && value <= last) {
        why = ProgressRejection.NOT_INCREASING;
      }
      if (why != null) {
        rejected.merge(why, 1L, Long::sum);
        return Optional.of(why);
      }
      long now = ticker.nanos();
      hasLast = true;
      last = value;
      total = newTotal;
      totalKnown |= newTotal != null;
      if (params.message() != null) {
        message = MessageSanitizer.sanitize(params.message());
      }
      accepted++;
      lastAcceptedAt = now;
      onAccepted.accept(now); // the idle clock restarts before anyone can see the update counted
      pending = true;
      if (!everRendered || now - lastRenderAt >= renderIntervalNanos) {
        toRender = renderLocked(now, false);
      } else if (flushTimer == null) {
        long delay = lastRenderAt + renderIntervalNanos - now;
        flushTimer = scheduler.schedule(this::trailingFlush, delay);
      }
    } finally {
      lock.unlock();
    }
    deliver(toRender);
    return Optional.empty();
  }

  private void trailingFlush() {
    ProgressUpdate toRender = null;
    lock.lock();
    try {
      flushTimer = null;
      if (pending && terminal == null && !sealed) {
        toRender = renderLocked(ticker.nanos(), false);
      }
    } finally {
      lock.unlock();
    }
    deliver(toRender);
  }

  /**
   * The work the token reports on is over but how it ended is not known yet (a task turned
   * terminal; its outcome follows): the pending value is rendered now as the last one, later
   * updates are refused as late, and {@link #close} only records how it ended. Work queued on the
   * callback executor after this call runs after that render. Idempotent.
   */
  void seal() {
    ProgressUpdate toRender = null;
    lock.lock();
    try {
      if (terminal != null || sealed) {
        return;
      }
      sealed = true;
      if (flushTimer != null) {
        flushTimer.cancel();
        flushTimer = null;
      }
      if (pending) {
        toRender = renderLocked(ticker.nanos(), true);
      }
    } finally {
      lock.unlock();
    }
    deliver(toRender);
  }

  /**
   * Ends the token: flushes the pending value as the final render, then records how it ended.
   * Returns false if it had already ended. Work queued on the callback executor after this call
   * runs after the final render.
   */
  boolean close(ProgressRecord.Terminal how) {
    ProgressUpdate toRender = null;
    lock.lock();
    try {
      if (terminal != null) {
        return false;
      }
      long now = ticker.nanos();
      if (flushTimer != null) {
        flushTimer.cancel();
        flushTimer = null;
      }
      if (pending) {
        toRender = renderLocked(now, true);
      }
      terminal = how;
      endedAt = now;
    } finally {
      lock.unlock();
    }
    deliver(toRender);
    return true;
  }

  private ProgressUpdate renderLocked(long now, boolean isLast) {
    pending = false;
    everRendered = true;
    lastRenderAt = now;
    rendered++;
    return new ProgressUpdate(
        last, total, message, Duration.ofNanos(now - startedAt), accepted, isLast);
  }

  private void deliver(@Nullable ProgressUpdate update) {
    if (update != null) {
      callbacks.execute(() -> listener.onProgress(update));
    }
  }

  ProgressRecord.@Nullable Terminal terminal() {
    lock.lock();
    try {
      return terminal;
    } finally {
      lock.unlock();
    }
  }

  @Nullable Double lastValue() {
    lock.lock();
    try {
      return hasLast ? last : null;
    } finally {
      lock.unlock();
    }
  }

  public ProgressRecord record() {
    lock.lock();
    try {
      long end = terminal == null ? ticker.nanos() : endedAt;
      return new ProgressRecord(
          ProgressTokens.hash(token),
          accepted,
          Map.copyOf(rejected),
          rendered,
          hasLast ? last : null,
          totalKnown,
          terminal,
          Duration.ofNanos(end - startedAt),
          Duration.ofNanos(end - lastAcceptedAt));
    } finally {
      lock.unlock();
    }
  }
}
