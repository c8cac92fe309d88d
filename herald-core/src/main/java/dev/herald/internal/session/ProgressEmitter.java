package dev.herald.internal.session;

import dev.herald.session.EventListener;
import dev.herald.session.ProgressRejection;
import dev.herald.session.ProgressReporter;
import dev.herald.session.Scheduler;
import dev.herald.session.Ticker;
import dev.herald.wire.EncodedMessage;
import dev.herald.wire.JsonRpcMessage;
import dev.herald.wire.McpJson;
import dev.herald.wire.McpMethods;
import dev.herald.wire.MessageCodec;
import dev.herald.wire.ProgressToken;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.time.Duration;
import java.util.concurrent.locks.ReentrantLock;
import java.util.function.Consumer;
import org.jspecify.annotations.Nullable;
import tools.jackson.databind.node.ObjectNode;

/**
 * The sender's progress emitter for one inbound request that carried a token
 * (docs/notifications.md, "The sender's rules"; MCP 2025-11-25 basic/utilities/progress). Refuses
 * non-finite and non-increasing values; cleans each message of escape sequences and control
 * characters and caps it at {@value MessageSanitizer#MAX_LENGTH} characters, as the receiver
 * does; coalesces to a cadence with a trailing flush; {@link
 * #close()} flushes the last value and refuses everything after. Each
 * refusal, and a pending value dropped by {@link #abandon()}, is reported to the session's {@link
 * EventListener}; what is sent, or lost on the wire, is reported by the {@code send} callback's owner.
 *
 * <p>State is guarded by {@code lock}, which is held while the notification is handed to the
 * session's send path so that values leave strictly in order. Only this emitter's own callers
 * (the handler and the flush timer) contend for it.
 */
public final class ProgressEmitter implements ProgressReporter {
  private final ReentrantLock lock = new ReentrantLock();
  private final ProgressToken token;
  private final Consumer<EncodedMessage> send;
  private volatile long intervalNanos;
  private final Ticker ticker;
  private final Scheduler scheduler;
  private final EventListener events;

  // guarded by lock
  private boolean hasLast;
  private double last;
  private long lastPercent = -1;
  // the pending value: no params record, tree or BigDecimal until it is sent
  private boolean hasPending;
  private double pendingProgress;
  private @Nullable Double pendingTotal;
  private @Nullable String pendingMessage;
  private boolean everSent;
  private long lastSentAt;
  private Scheduler.@Nullable Cancellable timer;
  private boolean closed;
  private long sent;

  public ProgressEmitter(
      ProgressToken token,
      Consumer<EncodedMessage> send,
      Duration interval,
      Ticker ticker,
      Scheduler scheduler,
      EventListener events) {
    this.token = token;
    this.send = send;
    this.intervalNanos = interval.toNanos();
    this.ticker = ticker;
    this.scheduler = scheduler;
    this.events = events;
  }

  @Override
  public boolean requested() {
    return true;
  }

  @Override
  public ProgressReporter cadence(Duration interval) {
    if (interval.isNegative()) {
      throw new IllegalArgumentException("cadence must not be negative: " + interval);
    }
    this.intervalNanos = interval.toNanos();
    return this;
  }

  @Override
  public boolean report(double progress, @Nullable Double total, @Nullable String message) {
    lock.lock();
    try {
      ProgressRejection why =
          closed
              ? ProgressRejection.LATE
              : !Double.isFinite(progress) || (total != null && !Double.isFinite(total))
                  ? ProgressRejection.NON_FINITE
                  : total != null && total <= 0
                      ? ProgressRejection.INVALID_TOTAL
                      : hasLast && progress <= last ? ProgressRejection.NOT_INCREASING : null;
      if (why != null) {
        events.progressReportRefused(why);
        return false;
      }
      hasLast = true;
      last = progress;
      // the receiver keeps at most MessageSanitizer.MAX_LENGTH characters of plain text: send no
      // more
      hasPending = true;
      pendingProgress = progress;
      pendingTotal = total;
      pendingMessage = message == null ? null : MessageSanitizer.sanitize(message);
      long now = ticker.nanos();
      if (!everSent || now - lastSentAt >= intervalNanos) {
        sendPendingLocked(now);
      } else if (timer == null) {
        timer = scheduler.schedule(this::flushFromTimer, lastSentAt + intervalNanos - now);
      }
      return true;
    } finally {
      lock.unlock();
    }
  }

  @Override
  public boolean percent(long done, long of, @Nullable String message) {
    if (of <= 0 || done < 0) {
      events.progressReportRefused(
          of <= 0 ? ProgressRejection.INVALID_TOTAL : ProgressRejection.NOT_INCREASING);
      return false;
    }
    long pct = wholePercent(Math.min(done, of), of);
    lock.lock();
    try {
      if (pct <= lastPercent) {
        return false;
      }
      lastPercent = pct;
    } finally {
      lock.unlock();
    }
    return report((double) pct, 100.0, message);
  }

  /** {@code floor(done * 100 / of)} for {@code 0 <= done <= of}, exact even when {@code done * 100} overflows. */
  static long wholePercent(long done, long of) {
    if (done <= Long.MAX_VALUE / 100) {
      return done * 100 / of;
    }
    return BigInteger.valueOf(done)
        .multiply(BigInteger.valueOf(100))
        .divide(BigInteger.valueOf(of))
        .longValueExact();
  }

  private void flushFromTimer() {
    lock.lock();
    try {
      timer = null;
      if (!closed && hasPending) {
        sendPendingLocked(ticker.nanos());
      }
    } finally {
      lock.unlock();
    }
  }

  private void sendPendingLocked(long now) {
    boolean any = hasPending;
    hasPending = false;
    everSent = true;
    lastSentAt = now;
    if (any) {
      sent++;
      send.accept(encode(token, pendingProgress, pendingTotal, pendingMessage));
    }
  }

  /**
   * The notification, encoded once: straight to bytes when its text is plain ({@link
   * MessageCodec#progress}), the message object made only if a transport asks for it; else
   * through the params tree.
   */
  static EncodedMessage encode(
      ProgressToken token, double progress, @Nullable Double total, @Nullable String message) {
    byte[] bytes = MessageCodec.progress(token, progress, total, message);
    if (bytes == null) {
      return EncodedMessage.of(notification(token, progress, total, message));
    }
    return EncodedMessage.notification(bytes, () -> notification(token, progress, total, message));
  }

  /** Builds the params tree directly: no reflection-based mapping. */
  static JsonRpcMessage.Notification notification(
      ProgressToken token, double progress, @Nullable Double total, @Nullable String message) {
    ObjectNode o = McpJson.object();
    switch (token) {
      case ProgressToken.Text t -> o.put("progressToken", t.value());
      case ProgressToken.Number n -> o.put("progressToken", n.value());
    }
    o.put("progress", BigDecimal.valueOf(progress));
    if (total != null) {
      o.put("total", BigDecimal.valueOf(total));
    }
    if (message != null) {
      o.put("message", message);
    }
    return new JsonRpcMessage.Notification(McpMethods.PROGRESS, o);
  }

  /** Flushes the pending value (before the response goes out) and refuses all later reports. */
  void close() {
    lock.lock();
    try {
      if (closed) {
        return;
      }
      if (timer != null) {
        timer.cancel();
        timer = null;
      }
      if (hasPending) {
        try {
          sendPendingLocked(ticker.nanos());
        } catch (RuntimeException e) {
          // the connection may be gone (the session reported the drop); the response will fail the
          // same way
        }
      }
      closed = true;
    } finally {
      lock.unlock();
    }
  }

  /** Closes without flushing: the request was cancelled, so nothing more may be sent for it. */
  void abandon() {
    lock.lock();
    try {
      if (timer != null) {
        timer.cancel();
        timer = null;
      }
      if (hasPending && !closed) {
        events.notificationDropped(
            EventListener.Family.PROGRESS, EventListener.DropReason.REQUEST_CANCELLED);
      }
      hasPending = false;
      pendingMessage = null;
      closed = true;
    } finally {
      lock.unlock();
    }
  }

  long sentCount() {
    lock.lock();
    try {
      return sent;
    } finally {
      lock.unlock();
    }
  }
}
