package dev.herald.internal.session;

import dev.herald.session.EventListener;
import dev.herald.session.ProgressRejection;
import dev.herald.wire.RequestId;
import dev.herald.wire.TaskStatus;
import java.lang.System.Logger.Level;
import java.time.Duration;
import java.util.concurrent.atomic.AtomicBoolean;
import org.jspecify.annotations.Nullable;

/**
 * Wraps a user's {@link EventListener} so that none of its calls can throw into Herald: an
 * exception is logged (the first at WARNING, later ones at DEBUG) and swallowed. The engine
 * wraps every listener but {@link EventListener#NONE}, and every Herald module calls the wrapper.
 *
 * <p>Thread-safe if the delegate is.
 */
final class GuardedEventListener implements EventListener {
  private static final System.Logger LOG = LazyLogger.of("dev.herald.session");

  private final EventListener delegate;
  private final AtomicBoolean warned = new AtomicBoolean();

  private GuardedEventListener(EventListener delegate) {
    this.delegate = delegate;
  }

  /** {@code listener} guarded; {@link EventListener#NONE} as it is. */
  @SuppressWarnings("ReferenceEquality") // NONE is a singleton: identity is the question
  static EventListener guard(EventListener listener) {
    return listener == NONE || listener instanceof GuardedEventListener
        ? listener
        : new GuardedEventListener(listener);
  }

  private void failed(String callback, RuntimeException e) {
    Level level = warned.compareAndSet(false, true) ? Level.WARNING : Level.DEBUG;
    LOG.log(
        level,
        "event listener " + delegate.getClass().getName() + " threw from " + callback + "; ignored",
        e);
  }

  @Override
  public void sessionOpened() {
    try {
      delegate.sessionOpened();
    } catch (RuntimeException e) {
      failed("sessionOpened", e);
    }
  }

  @Override
  public void sessionClosed(@Nullable Throwable cause) {
    try {
      delegate.sessionClosed(cause);
    } catch (RuntimeException e) {
      failed("sessionClosed", e);
    }
  }

  @Override
  public void requestStarted(String method, RequestId id) {
    try {
      delegate.requestStarted(method, id);
    } catch (RuntimeException e) {
      failed("requestStarted", e);
    }
  }

  @Override
  public void requestEnded(
      String method, RequestId id, Duration elapsed, Outcome outcome, int errorCode) {
    try {
      delegate.requestEnded(method, id, elapsed, outcome, errorCode);
    } catch (RuntimeException e) {
      failed("requestEnded", e);
    }
  }

  @Override
  public void requestRefused(String method, RequestId id, int errorCode) {
    try {
      delegate.requestRefused(method, id, errorCode);
    } catch (RuntimeException e) {
      failed("requestRefused", e);
    }
  }

  @Override
  public void responseIgnored(RequestId id) {
    try {
      delegate.responseIgnored(id);
    } catch (RuntimeException e) {
      failed("responseIgnored", e);
    }
  }

  @Override
  public void invalidMessage(int errorCode) {
    try {
      delegate.invalidMessage(errorCode);
    } catch (RuntimeException e) {
      failed("invalidMessage", e);
    }
  }

  @Override
  public void notificationSent(Family family) {
    try {
      delegate.notificationSent(family);
    } catch (RuntimeException e) {
      failed("notificationSent", e);
    }
  }

  @Override
  public void notificationGated(Family family, GateReason reason) {
    try {
      delegate.notificationGated(family, reason);
    } catch (RuntimeException e) {
      failed("notificationGated", e);
    }
  }

  @Override
  public void notificationDropped(Family family, DropReason reason) {
    try {
      delegate.notificationDropped(family, reason);
    } catch (RuntimeException e) {
      failed("notificationDropped", e);
    }
  }

  @Override
  public void progressAccepted() {
    try {
      delegate.progressAccepted();
    } catch (RuntimeException e) {
      failed("progressAccepted", e);
    }
  }

  @Override
  public void progressRefused(ProgressRejection reason) {
    try {
      delegate.progressRefused(reason);
    } catch (RuntimeException e) {
      failed("progressRefused", e);
    }
  }

  @Override
  public void progressReportRefused(ProgressRejection reason) {
    try {
      delegate.progressReportRefused(reason);
    } catch (RuntimeException e) {
      failed("progressReportRefused", e);
    }
  }

  @Override
  public void streamOpened(StreamKind kind) {
    try {
      delegate.streamOpened(kind);
    } catch (RuntimeException e) {
      failed("streamOpened", e);
    }
  }

  @Override
  public void streamResumed(StreamKind kind) {
    try {
      delegate.streamResumed(kind);
    } catch (RuntimeException e) {
      failed("streamResumed", e);
    }
  }

  @Override
  public void streamClosedForSlowReader(StreamKind kind) {
    try {
      delegate.streamClosedForSlowReader(kind);
    } catch (RuntimeException e) {
      failed("streamClosedForSlowReader", e);
    }
  }

  @Override
  public void streamClosed(StreamKind kind) {
    try {
      delegate.streamClosed(kind);
    } catch (RuntimeException e) {
      failed("streamClosed", e);
    }
  }

  @Override
  public void taskStatusChanged(String taskId, TaskStatus status) {
    try {
      delegate.taskStatusChanged(taskId, status);
    } catch (RuntimeException e) {
      failed("taskStatusChanged", e);
    }
  }
}
