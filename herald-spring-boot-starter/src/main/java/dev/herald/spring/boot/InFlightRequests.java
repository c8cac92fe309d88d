package dev.herald.spring.boot;

import dev.herald.server.ServerSession;
import dev.herald.session.Interceptor;
import dev.herald.wire.ErrorCodes;
import dev.herald.wire.McpException;
import java.time.Duration;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.ReentrantLock;
import tools.jackson.databind.JsonNode;

/**
 * Counts the requests a server is running so that the application's shutdown can let them finish,
 * and cancels the ones that do not (the starter's graceful shutdown). Added first to the
 * interceptor chain of the {@code McpServer} the starter builds; an application that builds its
 * own server adds it with {@code builder.interceptor(inFlight)} to get the same shutdown.
 *
 * <p>Once {@link #drain} has begun, a new request (other than {@code ping}) is answered with
 * {@code -32603 Server is shutting down}, so that the count only falls. {@link #cancelRunning}
 * interrupts the handlers still running; each such call is answered with the same error, so its
 * client hears why instead of seeing its stream end without an answer. Long-lived {@code
 * subscriptions/listen} requests (MCP 2026-07-28 basic/patterns/subscriptions) are not counted:
 * the shutdown ends them with {@code McpServer.endListens()}.
 *
 * <p>Thread-safe: {@link #intercept} runs on each request's own virtual thread, which is the
 * thread {@link #cancelRunning} interrupts.
 */
public final class InFlightRequests implements Interceptor<ServerSession> {
  private static final String SHUTTING_DOWN = "Server is shutting down";

  private final ReentrantLock lock = new ReentrantLock();
  private final Condition idle = lock.newCondition();

  /** Requests counted and not yet returned (guarded by {@link #lock}). */
  private int running;

  /** The threads of the requests counted. */
  private final Set<Thread> threads = ConcurrentHashMap.newKeySet();

  /** Set once by {@link #drain}; read without the lock on the request path. */
  private volatile boolean draining;

  /** Set once by {@link #cancelRunning}. */
  private volatile boolean cancelling;

  /** Spring creates it through the starter; an application may create its own. */
  public InFlightRequests() {}

  @Override
  public JsonNode intercept(Chain<ServerSession> chain) throws Exception {
    String method = chain.method();
    if (method.equals("subscriptions/listen") || method.equals("ping")) {
      return chain.proceed();
    }
    lock.lock();
    try {
      if (draining) {
        throw new McpException(ErrorCodes.INTERNAL_ERROR, SHUTTING_DOWN);
      }
      running++;
    } finally {
      lock.unlock();
    }
    Thread self = Thread.currentThread();
    threads.add(self);
    try {
      return chain.proceed();
    } catch (Exception e) {
      if (cancelling && !(e instanceof McpException)) {
        throw new McpException(
            ErrorCodes.INTERNAL_ERROR, SHUTTING_DOWN + "; the call was cancelled");
      }
      throw e;
    } finally {
      threads.remove(self);
      if (cancelling) {
        Thread
            .interrupted(); // the interrupt was for the handler; the engine's send must not see it
      }
      lock.lock();
      try {
        if (--running == 0) {
          idle.signalAll();
        }
      } finally {
        lock.unlock();
      }
    }
  }

  /** Requests running now. */
  public int running() {
    lock.lock();
    try {
      return running;
    } finally {
      lock.unlock();
    }
  }

  /**
   * Refuses new requests from now on and waits until the running ones have returned, or {@code
   * timeout} has passed.
   *
   * @return whether every request returned in time
   * @throws InterruptedException if the waiting thread is interrupted
   */
  public boolean drain(Duration timeout) throws InterruptedException {
    draining = true;
    return awaitIdle(timeout);
  }

  /**
   * Interrupts the handler of every request still running; each is answered with {@code -32603
   * Server is shutting down; the call was cancelled} (or with the {@code McpException} its handler
   * threw). Call it after {@link #drain}.
   */
  public void cancelRunning() {
    cancelling = true;
    for (Thread t : threads) {
      t.interrupt();
    }
  }

  /**
   * Waits until no counted request is running, or {@code timeout} has passed.
   *
   * @return whether none is running
   * @throws InterruptedException if the waiting thread is interrupted
   */
  public boolean awaitIdle(Duration timeout) throws InterruptedException {
    long left = timeout.toNanos();
    lock.lock();
    try {
      while (running > 0) {
        if (left <= 0) {
          return false;
        }
        left = idle.awaitNanos(left);
      }
      return true;
    } finally {
      lock.unlock();
    }
  }

  /** Whether {@link #drain} has begun. */
  public boolean draining() {
    return draining;
  }
}
