package dev.herald.server;

import dev.herald.session.Scheduler;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;

/**
 * Coalesces a burst of triggers without delaying its first one: leading edge plus one coalesced
 * trailing run. A trigger while no window is open runs {@code action} at once, on the triggering
 * thread, and opens a window of {@code windowNanos}; triggers inside the window only note that
 * something happened. When the window closes, {@code action} runs once more if anything was noted,
 * and that run opens the next window; otherwise the debouncer goes idle, so the next trigger again
 * runs at once. A burst inside one window thus costs at most two runs, and a steady stream of
 * triggers at most one run per window after the first. Lock-free.
 *
 * <p>The action must tolerate running on two threads at once (a trailing run may start while a
 * slow leading run is still going): the list-change flush does, each session clearing its own
 * dirty bit atomically before it sends.
 */
final class Debouncer {
  private static final int IDLE = 0;
  private static final int OPEN = 1; // a window is open, nothing noted since the last run
  private static final int NOTED = 2; // a window is open and a trigger came in it

  private static final VarHandle STATE;

  static {
    try {
      STATE = MethodHandles.lookup().findVarHandle(Debouncer.class, "state", int.class);
    } catch (ReflectiveOperationException e) {
      throw new ExceptionInInitializerError(e);
    }
  }

  private final Scheduler scheduler;
  private final long windowNanos;
  private final Runnable action;
  private volatile int state;

  Debouncer(Scheduler scheduler, long windowNanos, Runnable action) {
    this.scheduler = scheduler;
    this.windowNanos = windowNanos;
    this.action = action;
  }

  void trigger() {
    while (true) {
      int s = state;
      if (s == NOTED) {
        return; // the window's closing run will cover it
      }
      if (s == OPEN) {
        if (STATE.compareAndSet(this, OPEN, NOTED)) {
          return;
        }
      } else if (STATE.compareAndSet(this, IDLE, OPEN)) {
        scheduler.schedule(this::windowClosed, windowNanos);
        action.run();
        return;
      }
    }
  }

  private void windowClosed() {
    while (true) {
      int s = state;
      if (s == OPEN) {
        if (STATE.compareAndSet(this, OPEN, IDLE)) {
          return; // quiet window: the next trigger runs at once
        }
      } else if (s == NOTED) {
        if (STATE.compareAndSet(this, NOTED, OPEN)) {
          scheduler.schedule(this::windowClosed, windowNanos);
          action.run();
          return;
        }
      } else {
        return; // not open (cannot happen: one closing run is scheduled per window)
      }
    }
  }
}
