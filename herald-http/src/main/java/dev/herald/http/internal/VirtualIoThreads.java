package dev.herald.http.internal;

import java.util.concurrent.CountDownLatch;
import java.util.concurrent.Executor;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.ReentrantLock;
import org.eclipse.jetty.util.VirtualThreads;
import org.eclipse.jetty.util.component.AbstractLifeCycle;
import org.eclipse.jetty.util.thread.ThreadPool;
import org.eclipse.jetty.util.thread.TryExecutor;

/**
 * Jetty's threads as virtual threads: the acceptor, the selector and every task they start
 * (parsing a request, completing a write) each run on a new virtual thread named {@value #NAME}.
 *
 * <p>Design note. A request's handler runs on a virtual thread of the session engine. When the
 * thread that read the request is a platform thread, handing the request over wakes a carrier
 * thread and parks it again afterwards: about one OS context switch per call, and the selector
 * is woken from another core to take the connection's read interest back. When the reader is a
 * virtual thread too, the handler's thread is queued on the same carrier and runs when the
 * selector parks: a switch between virtual threads. Measured in the peer bench (docs/benchmarks.md,
 * "Jetty's threads as virtual threads"): about a third fewer context switches and a quarter less
 * server CPU per call. Unlike Jetty's own {@code VirtualThreadPool} it names its threads so
 * that {@link #isIoThread()} can tell them, and starts no keep-alive thread of its own: Jetty's
 * scheduler thread already keeps the JVM alive until the server is stopped.
 *
 * <p>{@link #isIoThread()} tells a Jetty thread from a handler's: code that may wait on a
 * handler's thread must not wait on the selector's.
 *
 * <p>Stopping waits (at most {@link #STOP_WAIT_MILLIS}) until every thread it started has ended,
 * as Jetty's platform pool joins its threads. It matters for the acceptor: the JDK closes a server
 * socket that a virtual thread is blocked accepting on only when that thread has left {@code
 * accept}, so without the wait the port could still be bound after the server was stopped, and a
 * server started again on it at once would fail to bind (seen on a busy machine).
 *
 * <p>Thread-safe.
 */
public final class VirtualIoThreads extends AbstractLifeCycle
    implements ThreadPool, TryExecutor, VirtualThreads.Configurable {
  /** The name of every thread this pool starts. */
  public static final String NAME = "herald-http-io";

  /** How long stopping waits for the threads this pool started to end. */
  static final long STOP_WAIT_MILLIS = 5_000;

  private final ThreadFactory threads = Thread.ofVirtual().name(NAME).factory();
  private final CountDownLatch stopped = new CountDownLatch(1);

  /** Threads started and not yet ended. */
  private final AtomicInteger live = new AtomicInteger();

  private final ReentrantLock lock = new ReentrantLock();

  /** Signalled, once stopping, when {@link #live} falls to one or none. */
  private final Condition none = lock.newCondition();

  /** Set when stopping begins; only then does a thread's end signal {@link #none}. */
  private volatile boolean stopping;

  /** Whether the calling thread is one this pool started (Jetty's selector, acceptor or a task). */
  public static boolean isIoThread() {
    Thread t = Thread.currentThread();
    return t.isVirtual() && NAME.equals(t.getName());
  }

  @Override
  public void execute(Runnable task) {
    live.incrementAndGet();
    try {
      threads.newThread(() -> run(task)).start();
    } catch (RuntimeException | Error e) {
      ended();
      throw e;
    }
  }

  private void run(Runnable task) {
    try {
      task.run();
    } finally {
      ended();
    }
  }

  private void ended() {
    if (live.decrementAndGet() <= 1 && stopping) {
      lock.lock();
      try {
        none.signalAll();
      } finally {
        lock.unlock();
      }
    }
  }

  /** Always runs the task: a virtual thread is always available. */
  @Override
  public boolean tryExecute(Runnable task) {
    execute(task);
    return true;
  }

  /** This pool itself: Jetty runs a blocking task on a virtual thread of its own. */
  @Override
  public Executor getVirtualThreadsExecutor() {
    return this;
  }

  @Override
  public void setVirtualThreadsExecutor(Executor executor) {
    throw new UnsupportedOperationException("every thread of this pool is virtual already");
  }

  /**
   * Waits until every thread this pool started has ended (the calling one aside, if it is one),
   * for at most {@link #STOP_WAIT_MILLIS}.
   */
  @Override
  protected void doStop() throws InterruptedException {
    stopping = true;
    int self = isIoThread() ? 1 : 0;
    long left = TimeUnit.MILLISECONDS.toNanos(STOP_WAIT_MILLIS);
    lock.lock();
    try {
      while (live.get() > self && left > 0) {
        left = none.awaitNanos(left);
      }
    } finally {
      lock.unlock();
      stopped.countDown();
    }
  }

  /** Waits until the pool is stopped. */
  @Override
  public void join() throws InterruptedException {
    stopped.await();
  }

  /** Not counted: virtual threads are not pooled. */
  @Override
  public int getThreads() {
    return -1;
  }

  /** None: virtual threads are not pooled. */
  @Override
  public int getIdleThreads() {
    return 0;
  }

  /** Never: a virtual thread is always available. */
  @Override
  public boolean isLowOnThreads() {
    return false;
  }
}
