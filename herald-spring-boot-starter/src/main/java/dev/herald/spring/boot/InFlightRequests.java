package dev.herald.spring.boot;

import dev.herald.server.ServerSession;
import dev.herald.session.Interceptor;
import dev.herald.wire.ErrorCodes;
import dev.herald.wire.McpException;
import java.time.Duration;
import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.ReentrantLock;
import tools.jackson.databind.JsonNode;

/**
 * Counts the requests a server is running so that the application's shutdown can let them finish
 * (the starter's graceful shutdown). Added first to the interceptor chain of the {@code
 * McpServer} the starter builds; an application that builds its own server adds it with {@code
 * builder.interceptor(inFlight)} to get the same drain.
 *
 * <p>Once {@link #drain} has begun, a new request (other than {@code ping}) is answered with
 * {@code -32603 Server is shutting down}, so that the count only falls. Long-lived {@code
 * subscriptions/listen} requests (MCP 2026-07-28 basic/patterns/subscriptions) are not counted:
 * the shutdown ends them with {@code McpServer.endListens()}.
 *
 * <p>Thread-safe: {@link #intercept} runs on each request's own virtual thread.
 */
public final class InFlightRequests implements Interceptor<ServerSession> {
  private final ReentrantLock lock = new ReentrantLock();
  private final Condition idle = lock.newCondition();

  /** Requests counted and not yet returned (guarded by {@link #lock}). */
  private int running;

  /** Set once by {@link #drain}; read without the lock on the request path. */
  private volatile boolean draining;

  @Override
  public JsonNode intercept(Chain<ServerSession> chain) throws Exception {
    String method = chain.method();
    if (method.equals("subscriptions/listen") || method.equals("ping")) {
      return chain.proceed();
    }
    lock.lock();
    try {
      if (draining) {
        throw new McpException(ErrorCodes.INTERNAL_ERROR, "Server is shutting down");
      }
      running++;
    } finally {
      lock.unlock();
    }
    try {
      return chain.proceed();
    } finally {
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
    long left = timeout.toNanos();
    lock.lock();
    try {
      draining = true;
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
