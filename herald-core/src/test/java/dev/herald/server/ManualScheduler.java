package dev.herald.server;

import dev.herald.session.Scheduler;
import dev.herald.session.Ticker;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.concurrent.locks.ReentrantLock;

/** A scheduler and ticker driven by hand: {@link #advance} runs due tasks on the caller's thread. */
final class ManualScheduler implements Scheduler, Ticker {
  private record Task(long due, long seq, Runnable run, boolean[] cancelled) {}

  private final ReentrantLock lock = new ReentrantLock();
  private final List<Task> tasks = new ArrayList<>();
  private long now;
  private long seq;

  @Override
  public Cancellable schedule(Runnable task, long delayNanos) {
    lock.lock();
    try {
      boolean[] cancelled = {false};
      tasks.add(new Task(now + Math.max(0, delayNanos), seq++, task, cancelled));
      return () -> cancelled[0] = true;
    } finally {
      lock.unlock();
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

  /** Tasks scheduled and not yet run (cancelled ones included). */
  int pending() {
    lock.lock();
    try {
      return tasks.size();
    } finally {
      lock.unlock();
    }
  }

  /** Moves time forward, running every task that falls due, in due order. */
  void advance(Duration d) {
    long target;
    lock.lock();
    try {
      target = now + d.toNanos();
    } finally {
      lock.unlock();
    }
    while (true) {
      Task next;
      lock.lock();
      try {
        next =
            tasks.stream()
                .filter(t -> t.due() <= target)
                .min(Comparator.comparingLong(Task::due).thenComparingLong(Task::seq))
                .orElse(null);
        if (next == null) {
          now = target;
          return;
        }
        tasks.remove(next);
        now = Math.max(now, next.due());
      } finally {
        lock.unlock();
      }
      if (!next.cancelled()[0]) {
        next.run().run();
      }
    }
  }
}
