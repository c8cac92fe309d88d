package dev.herald.testing;

import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Executor;
import java.util.function.Supplier;

/**
 * Work a test runs beside its own thread, each task on a platform thread of its own. Never the
 * common pool that {@code CompletableFuture.supplyAsync(task)} uses: on a machine of two cores its
 * parallelism is one, so a task that blocks (reading a stream, waiting at a barrier, waiting for a
 * process) can hold back the next until the first gives up, and two tasks that wait for each
 * other deadlock until a timeout.
 */
public final class Background {
  private static final Executor OWN_THREAD =
      task -> Thread.ofPlatform().daemon().name("test-background").start(task);

  private Background() {}

  /** Starts {@code task} on a thread of its own; the future holds its result or what it threw. */
  public static <T> CompletableFuture<T> supply(Supplier<T> task) {
    return CompletableFuture.supplyAsync(task, OWN_THREAD);
  }

  /** Starts {@code task} on a thread of its own; the future completes when it ends. */
  public static CompletableFuture<Void> run(Runnable task) {
    return CompletableFuture.runAsync(task, OWN_THREAD);
  }
}
