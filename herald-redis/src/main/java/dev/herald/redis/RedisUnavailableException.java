package dev.herald.redis;

/**
 * Redis did not answer in time, or the connection to it is down. Every call of a Redis-backed store
 * fails with this within the command timeout instead of waiting; the connection reconnects by
 * itself, and calls succeed again once Redis is back. A server turns it into a JSON-RPC internal
 * error for the request that needed the store.
 */
public final class RedisUnavailableException extends RuntimeException {
  private static final long serialVersionUID = 1L;

  RedisUnavailableException(String message, Throwable cause) {
    super(message, cause);
  }
}
