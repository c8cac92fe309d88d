package dev.herald.server;

import dev.herald.session.Ticker;
import java.util.concurrent.locks.ReentrantLock;

/**
 * A token bucket on an injected {@link Ticker}: {@code burst} tokens, refilled at {@code
 * perSecond}. Used to rate-limit {@code notifications/message} per session (MCP 2025-11-25
 * server/utilities/logging: servers SHOULD rate-limit logs). Thread-safe; the lock guards {@code
 * tokens} and {@code last} and is never held across I/O.
 */
final class TokenBucket {
  private final Ticker ticker;
  private final double perNano;
  private final double burst;
  private final ReentrantLock lock = new ReentrantLock();
  private double tokens; // guarded by lock
  private long last; // guarded by lock

  TokenBucket(Ticker ticker, double perSecond, int burst) {
    this.ticker = ticker;
    this.perNano = perSecond / 1e9;
    this.burst = burst;
    this.tokens = burst;
    this.last = ticker.nanos();
  }

  /** Takes a token if one is available. */
  boolean tryAcquire() {
    lock.lock();
    try {
      long now = ticker.nanos();
      if (now > last) {
        tokens = Math.min(burst, tokens + (now - last) * perNano);
        last = now;
      }
      if (tokens >= 1) {
        tokens -= 1;
        return true;
      }
      return false;
    } finally {
      lock.unlock();
    }
  }
}
