package dev.herald.internal.session;

import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.Executor;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * Runs tasks one at a time, in submission order, on virtual threads. Keeps user callbacks (progress
 * listeners, future completions) off the transport's reader and in order for one call.
 */
final class SerialExecutor implements Executor {
  private final ConcurrentLinkedQueue<Runnable> queue = new ConcurrentLinkedQueue<>();
  private final AtomicBoolean running = new AtomicBoolean();

  @Override
  public void execute(Runnable task) {
    queue.add(task);
    if (running.compareAndSet(false, true)) {
      Thread.ofVirtual().name("herald-callback").start(this::drain);
    }
  }

  private void drain() {
    while (true) {
      Runnable next;
      while ((next = queue.poll()) != null) {
        try {
          next.run();
        } catch (RuntimeException e) {
          System.getLogger("dev.herald.session")
              .log(System.Logger.Level.WARNING, "callback failed", e);
        }
      }
      running.set(false);
      if (queue.isEmpty() || !running.compareAndSet(false, true)) {
        return;
      }
    }
  }
}
