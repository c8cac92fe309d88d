package dev.herald.http.internal;

import java.util.concurrent.CountDownLatch;
import java.util.concurrent.Executor;
import java.util.concurrent.ThreadFactory;
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
 * <p>Thread-safe.
 */
public final class VirtualIoThreads extends AbstractLifeCycle
    implements ThreadPool, TryExecutor, VirtualThreads.Configurable {
  /** The name of every thread this pool starts. */
  public static final String NAME = "herald-http-io";

  private final ThreadFactory threads = Thread.ofVirtual().name(NAME).factory();
  private final CountDownLatch stopped = new CountDownLatch(1);

  /** Whether the calling thread is one this pool started (Jetty's selector, acceptor or a task). */
  public static boolean isIoThread() {
    Thread t = Thread.currentThread();
    return t.isVirtual() && NAME.equals(t.getName());
  }

  @Override
  public void execute(Runnable task) {
    threads.newThread(task).start();
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

  @Override
  protected void doStop() {
    stopped.countDown();
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
