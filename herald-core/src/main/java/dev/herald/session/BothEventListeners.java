package dev.herald.session;

import dev.herald.wire.RequestId;
import dev.herald.wire.TaskStatus;
import java.time.Duration;
import org.jspecify.annotations.Nullable;

/**
 * Two listeners as one ({@link EventListener.Factory#and}): each callback goes to the first, then
 * to the second. A test checks that it overrides every callback, so a new one cannot be left out.
 *
 * <p>Thread-safe if both are.
 */
final class BothEventListeners implements EventListener {
  private final EventListener first;
  private final EventListener second;

  BothEventListeners(EventListener first, EventListener second) {
    this.first = first;
    this.second = second;
  }

  @Override
  public void sessionOpened() {
    first.sessionOpened();
    second.sessionOpened();
  }

  @Override
  public void sessionClosed(@Nullable Throwable cause) {
    first.sessionClosed(cause);
    second.sessionClosed(cause);
  }

  @Override
  public void requestStarted(String method, RequestId id) {
    first.requestStarted(method, id);
    second.requestStarted(method, id);
  }

  @Override
  public void requestEnded(
      String method, RequestId id, Duration elapsed, Outcome outcome, int errorCode) {
    first.requestEnded(method, id, elapsed, outcome, errorCode);
    second.requestEnded(method, id, elapsed, outcome, errorCode);
  }

  @Override
  public void requestRefused(String method, RequestId id, int errorCode) {
    first.requestRefused(method, id, errorCode);
    second.requestRefused(method, id, errorCode);
  }

  @Override
  public void responseIgnored(RequestId id) {
    first.responseIgnored(id);
    second.responseIgnored(id);
  }

  @Override
  public void invalidMessage(int errorCode) {
    first.invalidMessage(errorCode);
    second.invalidMessage(errorCode);
  }

  @Override
  public void notificationSent(Family family) {
    first.notificationSent(family);
    second.notificationSent(family);
  }

  @Override
  public void notificationGated(Family family, GateReason reason) {
    first.notificationGated(family, reason);
    second.notificationGated(family, reason);
  }

  @Override
  public void notificationDropped(Family family, DropReason reason) {
    first.notificationDropped(family, reason);
    second.notificationDropped(family, reason);
  }

  @Override
  public void progressAccepted() {
    first.progressAccepted();
    second.progressAccepted();
  }

  @Override
  public void progressRefused(ProgressRejection reason) {
    first.progressRefused(reason);
    second.progressRefused(reason);
  }

  @Override
  public void progressReportRefused(ProgressRejection reason) {
    first.progressReportRefused(reason);
    second.progressReportRefused(reason);
  }

  @Override
  public void streamOpened(StreamKind kind) {
    first.streamOpened(kind);
    second.streamOpened(kind);
  }

  @Override
  public void streamResumed(StreamKind kind) {
    first.streamResumed(kind);
    second.streamResumed(kind);
  }

  @Override
  public void streamClosedForSlowReader(StreamKind kind) {
    first.streamClosedForSlowReader(kind);
    second.streamClosedForSlowReader(kind);
  }

  @Override
  public void streamClosed(StreamKind kind) {
    first.streamClosed(kind);
    second.streamClosed(kind);
  }

  @Override
  public void taskStatusChanged(String taskId, TaskStatus status) {
    first.taskStatusChanged(taskId, status);
    second.taskStatusChanged(taskId, status);
  }
}
