package dev.herald.internal.session;

import dev.herald.session.Scheduler;
import dev.herald.session.Ticker;
import java.util.concurrent.locks.ReentrantLock;
import java.util.function.Consumer;
import org.jspecify.annotations.Nullable;

/**
 * The one timer of an engine's outbound calls: it falls due at the nearest deadline (idle or
 * absolute) of the calls pending, and its sweep hands every call whose clock ran out to the engine
 * and arms itself again for the nearest deadline left (MCP 2025-11-25 basic/lifecycle, "Timeouts").
 *
 * <p>Design note. A timer per call cost every request a task in the shared scheduler's queue, under
 * that queue's lock, and every response its removal; at thousands of calls per second, from many
 * threads, that lock is contended. Calls of one engine mostly share their timeout, so a later call
 * rarely has a nearer deadline than the one armed: adding a call is then one volatile read. The
 * sweep reads the pending table itself, so nothing is kept per call. Progress moves an idle
 * deadline later, never nearer; the sweep finds such a call alive and arms for its new deadline.
 *
 * <p>When the table goes empty the timer is given back, so answered calls leave nothing queued,
 * but not at once: a client that makes one call at a time empties the table after every call,
 * and giving the timer back then and arming it again for the next call cost every call a task
 * added to and removed from the shared scheduler's queue, under its lock. Instead an empty table
 * queues one check ({@link #GIVE_BACK_AFTER} later, at most one queued per engine), which gives
 * the timer back if the table is still empty then; calls made meanwhile find the timer armed for
 * an earlier deadline and add nothing. When calls are pending at the check, it aims the timer at
 * their nearest deadline: a call with a week to run, made just after the handshake answered,
 * leaves the timer armed for the handshake's deadline only until the check, not until it falls
 * due (a test that waited for the week's timer raced the ten seconds of the
 * {@code server/discover} probe's timer, and lost on a busy machine).
 *
 * <p>Thread-safe: {@link #armedAt} is written under {@link #lock} and read without it; a sweep
 * that runs while a call is added sees that call or leaves the timer for the call to arm.
 */
final class CallDeadlines {
  private final Scheduler scheduler;
  private final Ticker ticker;
  private final PendingTable pending;
  private final Consumer<PendingCall> expired;
  private final ReentrantLock lock = new ReentrantLock();

  /** How long an empty table waits before its timer is given back. */
  static final long GIVE_BACK_AFTER = java.util.concurrent.TimeUnit.MILLISECONDS.toNanos(100);

  /**
   * The queued check of an empty table, if one is queued: written under {@link #lock}, read
   * without it as a hint.
   */
  private volatile Scheduler.@Nullable Cancellable giveBack;

  /** The deadline the timer is armed for; {@link Long#MAX_VALUE} when none is. */
  private volatile long armedAt = Long.MAX_VALUE;

  /** Guarded by {@link #lock}. */
  private Scheduler.@Nullable Cancellable timer;

  /** Guarded by {@link #lock}. */
  private boolean closed;

  CallDeadlines(
      Scheduler scheduler, Ticker ticker, PendingTable pending, Consumer<PendingCall> expired) {
    this.scheduler = scheduler;
    this.ticker = ticker;
    this.pending = pending;
    this.expired = expired;
  }

  /** A call is in the pending table: the timer falls due no later than its next deadline. */
  void watch(PendingCall call, long now) {
    long next = call.nextDeadline();
    if (next < armedAt) {
      arm(next, now);
    }
  }

  private void arm(long next, long now) {
    lock.lock();
    try {
      if (closed || next >= armedAt) {
        return;
      }
      Scheduler.Cancellable previous = timer;
      if (previous != null) {
        previous.cancel();
      }
      armedAt = next;
      timer = scheduler.schedule(this::sweep, Math.max(0, next - now));
    } finally {
      lock.unlock();
    }
  }

  /** Hands every call whose clock ran out to the engine; arms for the nearest deadline left. */
  private void sweep() {
    lock.lock();
    try {
      armedAt = Long.MAX_VALUE;
      timer = null;
    } finally {
      lock.unlock();
    }
    long now = ticker.nanos();
    long next = Long.MAX_VALUE;
    for (PendingCall call : pending.calls()) {
      if (call.isDone()) {
        continue;
      }
      if (call.expired(now) != null) {
        expired.accept(call);
      } else {
        next = Math.min(next, call.nextDeadline());
      }
    }
    if (next != Long.MAX_VALUE) {
      arm(next, now);
    }
  }

  /**
   * The pending table went empty: the timer is given back {@link #GIVE_BACK_AFTER} later if the
   * table is still empty then (an engine whose calls were all answered leaves nothing queued).
   */
  void idle() {
    if (armedAt == Long.MAX_VALUE || giveBack != null) {
      return; // nothing armed, or a check is queued already
    }
    lock.lock();
    try {
      if (closed || giveBack != null || timer == null) {
        return;
      }
      giveBack = scheduler.schedule(this::giveBackIfIdle, GIVE_BACK_AFTER);
    } finally {
      lock.unlock();
    }
  }

  /**
   * The check {@link #idle} queued: gives the timer back if no call is pending now, and otherwise
   * aims it at the nearest deadline of the calls still pending, which may be later than the one it
   * was armed for (a call answered meanwhile, such as the connection's handshake).
   */
  private void giveBackIfIdle() {
    lock.lock();
    try {
      giveBack = null;
      Scheduler.Cancellable t = timer;
      if (closed || t == null || nearestPendingDeadline() == armedAt) {
        return; // nothing armed, or armed for a call still pending
      }
      t.cancel();
      timer = null;
      armedAt = Long.MAX_VALUE;
    } finally {
      lock.unlock();
    }
    // the calls pending, and any added meanwhile that found the timer armed, arm it again
    long now = ticker.nanos();
    for (PendingCall call : pending.calls()) {
      if (!call.isDone()) {
        watch(call, now);
      }
    }
  }

  /** The nearest deadline of the calls pending; {@link Long#MAX_VALUE} when none is. */
  private long nearestPendingDeadline() {
    long next = Long.MAX_VALUE;
    for (PendingCall call : pending.calls()) {
      if (!call.isDone()) {
        next = Math.min(next, call.nextDeadline());
      }
    }
    return next;
  }

  /** The engine closed: the timer is given back and never armed again. */
  void close() {
    lock.lock();
    try {
      closed = true;
      armedAt = Long.MIN_VALUE; // no later watch() takes the lock
      Scheduler.Cancellable t = timer;
      timer = null;
      if (t != null) {
        t.cancel();
      }
      Scheduler.Cancellable check = giveBack;
      giveBack = null;
      if (check != null) {
        check.cancel();
      }
    } finally {
      lock.unlock();
    }
  }
}
