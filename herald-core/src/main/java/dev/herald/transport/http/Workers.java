package dev.herald.transport.http;

import java.io.InputStream;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * The virtual threads and open response bodies of one transport, so that closing it ends them all:
 * each body is discarded (which unblocks its reader) and each thread is interrupted (which ends a
 * wait between reconnections).
 */
final class Workers {
  private final ConnectionStateMachine machine;
  private final Set<Thread> threads = ConcurrentHashMap.newKeySet();
  private final Set<InputStream> bodies = ConcurrentHashMap.newKeySet();

  /** Answers awaited or being handled on the thread that completed them (no worker of their own). */
  private final AtomicInteger answering = new AtomicInteger();

  Workers(ConnectionStateMachine machine) {
    this.machine = machine;
  }

  /** Runs {@code task} on a new virtual thread that {@link #cancelAll()} interrupts. */
  void spawn(String name, Runnable task) {
    Thread t =
        Thread.ofVirtual()
            .name("herald-http-" + name)
            .unstarted(() -> {
              try {
                if (!machine.isClosed()) {
                  task.run();
                }
              } catch (RuntimeException e) {
                if (!machine.isClosed()) {
                  StreamableHttpClientTransport.LOG.log(
                      System.Logger.Level.WARNING, "HTTP transport worker failed", e);
                }
              } finally {
                threads.remove(Thread.currentThread());
              }
            });
    threads.add(t);
    t.start();
  }

  /**
   * An answer is awaited: it counts as work until {@link #answerHandled()}, whether it is then
   * handled where it completed or by a worker spawned for it.
   */
  void answerAwaited() {
    answering.incrementAndGet();
  }

  void answerHandled() {
    answering.decrementAndGet();
  }

  /** Threads still working, and answers awaited or being handled (tests check that close ends them). */
  int count() {
    return threads.size() + answering.get();
  }

  /** Registers a response body so that {@link #cancelAll()} can cancel it. */
  InputStream track(InputStream in) {
    bodies.add(in);
    if (machine.isClosed()) {
      Http.discard(in);
    }
    return in;
  }

  void untrack(InputStream in) {
    bodies.remove(in);
  }

  /** Discards every open body and interrupts every other worker. */
  void cancelAll() {
    for (InputStream in : bodies) {
      Http.discard(in);
    }
    bodies.clear();
    for (Thread t : threads) {
      if (t != Thread.currentThread()) {
        t.interrupt();
      }
    }
  }
}
