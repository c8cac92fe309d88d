package dev.herald.micrometer;

import dev.herald.session.EventListener;
import dev.herald.session.ProgressRejection;
import dev.herald.wire.RequestId;
import dev.herald.wire.TaskStatus;
import java.time.Duration;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicBoolean;
import org.jspecify.annotations.Nullable;

/**
 * The listener of one session: each callback moves one meter of the role's {@link Meters}. It
 * keeps the session's own share of the gauges (open, active requests) so that a session that
 * ends gives back what it took, once.
 *
 * <p>Thread-safe: all state is in atomics.
 */
final class MetricsListener implements EventListener {
  private final Meters meters;
  private final AtomicBoolean open = new AtomicBoolean();

  /** The session's tasks that run (seen and not terminal yet), for the running-tasks gauge. */
  private final Set<String> tasks = ConcurrentHashMap.newKeySet();

  MetricsListener(Meters meters) {
    this.meters = meters;
  }

  @Override
  public void sessionOpened() {
    if (open.compareAndSet(false, true)) {
      meters.sessionOpened();
    }
  }

  @Override
  public void sessionClosed(@Nullable Throwable cause) {
    if (open.compareAndSet(true, false)) {
      meters.sessionClosed(cause != null);
    }
  }

  @Override
  public void requestStarted(String method, RequestId id) {
    meters.requestStarted();
  }

  @Override
  public void requestEnded(
      String method, RequestId id, Duration elapsed, Outcome outcome, int errorCode) {
    meters.requestEnded(method, elapsed, outcome, errorCode);
  }

  @Override
  public void requestRefused(String method, RequestId id, int errorCode) {
    meters.requestRefused(method, errorCode);
  }

  @Override
  public void responseIgnored(RequestId id) {
    meters.responseIgnored();
  }

  @Override
  public void invalidMessage(int errorCode) {
    meters.invalidMessage(errorCode);
  }

  @Override
  public void notificationSent(Family family) {
    meters.notificationSent(family);
  }

  @Override
  public void notificationGated(Family family, GateReason reason) {
    meters.notificationGated(family, reason);
  }

  @Override
  public void notificationDropped(Family family, DropReason reason) {
    meters.notificationDropped(family, reason);
  }

  @Override
  public void progressAccepted() {
    meters.progressAccepted();
  }

  @Override
  public void progressRefused(ProgressRejection reason) {
    meters.progressRefused(reason);
  }

  @Override
  public void progressReportRefused(ProgressRejection reason) {
    meters.progressReportRefused(reason);
  }

  @Override
  public void streamOpened(StreamKind kind) {
    meters.stream(Meters.StreamEvent.OPENED, kind);
  }

  @Override
  public void streamResumed(StreamKind kind) {
    meters.stream(Meters.StreamEvent.RESUMED, kind);
  }

  @Override
  public void streamClosed(StreamKind kind) {
    meters.stream(Meters.StreamEvent.CLOSED, kind);
  }

  @Override
  public void streamClosedForSlowReader(StreamKind kind) {
    meters.stream(Meters.StreamEvent.SLOW_READER_CLOSES, kind);
  }

  @Override
  public void taskStatusChanged(String taskId, TaskStatus status) {
    meters.taskStatus(status);
    if (status.isTerminal()) {
      if (tasks.remove(taskId)) {
        meters.taskEnded();
      }
    } else if (tasks.add(taskId)) {
      meters.taskStarted();
    }
  }
}
