package dev.herald.internal.session;

import dev.herald.session.Scheduler;
import dev.herald.session.Ticker;
import java.time.Duration;
import java.util.PriorityQueue;
import java.util.concurrent.locks.ReentrantLock;

/**
 * A clock and scheduler that move only when a test says so. {@link #advance} runs every task
 * that falls due, in deadline order (ties in scheduling order), synchronously on the caller's
 * thread, with {@link #nanos()} reading each task's own deadline while it runs. Tasks scheduled by
 * a running task also run if they fall due within the same advance. Nothing ever sleeps.
 *
 * <p>Thread-safe: tasks may be scheduled and cancelled from any thread; the lock is never held
 * while a task runs.
 */
final class ManualClock implements Ticker, Scheduler {
  private final ReentrantLock lock = new ReentrantLock();
  // guarded by lock
  private long now;
  private long seq;
  private final PriorityQueue<Task> queue =
      new PriorityQueue<>((a, b) ->
          a.deadline != b.deadline
              ? Long.compare(a.deadline, b.deadline)
              : Long.compare(a.seq, b.seq));

  private static final class Task {
    final long deadline;
    final long seq;
    final Runnable body;
    volatile boolean cancelled;

    Task(long deadline, long seq, Runnable body) {
      this.deadline = deadline;
      this.seq = seq;
      this.body = body;
    }
  }

  @Override
  public long nanos() {
    lock.lock();
    try {
      return now;
    } finally {
      lock.unlock();
    }
  }

  @Override
  public Cancellable schedule(Runnable task, long delayNanos) {
    lock.lock();
    try {
      Task t = new Task(now + Math.max(0, delayNanos), seq++, task);
      queue.add(t);
      return () -> {
        t.cancelled = true;
        lock.lock();
        try {
          queue.remove(t);
        } finally {
          lock.unlock();
        }
      };
    } finally {
      lock.unlock();
    }
  }

  /** Moves time forward by {@code by}, running each task that falls due on the way. */
  void advance(Duration by) {
    if (by.isNegative()) {
      throw new IllegalArgumentException("time does not go backwards: " + by);
    }
    long target;
    lock.lock();
    try {
      target = now + by.toNanos();
    } finally {
      lock.unlock();
    }
    while (true) {
      Task next;
      lock.lock();
      try {
        Task head = queue.peek();
        if (head == null || head.deadline > target) {
          now = target;
          return;
        }
        next = queue.poll();
        now = Math.max(now, next.deadline);
      } finally {
        lock.unlock();
      }
      if (!next.cancelled) {
        next.body.run();
      }
    }
  }

  void advanceMillis(long millis) {
    advance(Duration.ofMillis(millis));
  }

  /** How long until the first task queued falls due; empty when none is queued. */
  java.util.Optional<Duration> firstDueIn() {
    lock.lock();
    try {
      Task head = queue.peek();
      return head == null
          ? java.util.Optional.empty()
          : java.util.Optional.of(Duration.ofNanos(head.deadline - now));
    } finally {
      lock.unlock();
    }
  }

  /** Tasks scheduled and not yet run or cancelled. */
  int scheduledCount() {
    lock.lock();
    try {
      return queue.size();
    } finally {
      lock.unlock();
    }
  }
}
