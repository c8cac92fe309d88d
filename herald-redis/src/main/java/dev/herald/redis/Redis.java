package dev.herald.redis;

import io.lettuce.core.ClientOptions;
import io.lettuce.core.RedisClient;
import io.lettuce.core.RedisCommandExecutionException;
import io.lettuce.core.RedisCommandTimeoutException;
import io.lettuce.core.RedisException;
import io.lettuce.core.RedisURI;
import io.lettuce.core.SocketOptions;
import io.lettuce.core.TimeoutOptions;
import io.lettuce.core.api.StatefulRedisConnection;
import io.lettuce.core.api.sync.RedisCommands;
import io.lettuce.core.codec.ByteArrayCodec;
import io.lettuce.core.codec.RedisCodec;
import io.lettuce.core.codec.StringCodec;
import io.lettuce.core.pubsub.StatefulRedisPubSubConnection;
import io.lettuce.core.resource.ClientResources;
import io.lettuce.core.resource.DefaultClientResources;
import io.lettuce.core.resource.Delay;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;

/**
 * One Redis connection shared by the stores of a node, and the one place Lettuce's exceptions become
 * Herald's.
 *
 * <p>Design note. Lettuce multiplexes every command of every thread on one connection, so one
 * connection serves the whole node; blocking (sync) calls are fine on virtual threads. Three client
 * options make a Redis outage a bounded, clear failure instead of a hang: a command timeout on every
 * call, rejecting commands at once while disconnected (instead of queueing them until a reconnect),
 * and automatic reconnection with a short, capped backoff ({@link #RECONNECT_CAP}), so the node
 * serves again within a fraction of a second after Redis returns. A call that can wait a little
 * (a directory lookup a request waits for) rides out that reconnection with {@link
 * #callThroughReconnect} instead of failing while other nodes already serve. Keys and channels
 * are Strings (UTF-8), values bytes. Publish/subscribe needs a connection of its own ({@link
 * #pubSub()}), re-subscribed by Lettuce after a reconnect.
 *
 * <p>Thread-safe.
 */
final class Redis implements AutoCloseable {
  static final RedisCodec<String, byte[]> CODEC =
      RedisCodec.of(StringCodec.UTF8, ByteArrayCodec.INSTANCE);

  /**
   * The longest wait between two reconnection attempts. Short, because a node's connections
   * reconnect each on its own: while one node has reconnected and another has not, a session made
   * on the first cannot be found on the second. A refused attempt costs next to nothing.
   */
  static final Duration RECONNECT_CAP = Duration.ofMillis(200);

  /** How often {@link #callThroughReconnect} looks whether the connection is back. */
  private static final Duration RECONNECT_POLL = Duration.ofMillis(20);

  private final String prefix;
  private final Duration timeout;
  private final ClientResources resources;
  private final RedisClient client;
  private final StatefulRedisConnection<String, byte[]> connection;

  /** Whether {@link #close} closes the connection (false for a {@link #withPrefix} view). */
  private final boolean owner;

  private Redis(
      String prefix,
      Duration timeout,
      ClientResources resources,
      RedisClient client,
      StatefulRedisConnection<String, byte[]> connection,
      boolean owner) {
    this.prefix = prefix;
    this.timeout = timeout;
    this.resources = resources;
    this.client = client;
    this.connection = connection;
    this.owner = owner;
  }

  /** The same connection under another key prefix; closing it closes nothing. */
  Redis withPrefix(String otherPrefix) {
    return new Redis(otherPrefix, timeout, resources, client, connection, false);
  }

  /**
   * Connects.
   *
   * @throws RedisUnavailableException if Redis does not answer within {@code timeout}
   */
  static Redis connect(RedisURI uri, String prefix, Duration timeout) {
    uri.setTimeout(timeout);
    ClientResources resources =
        DefaultClientResources.builder()
            .ioThreadPoolSize(2)
            .computationThreadPoolSize(2)
            .reconnectDelay(
                Delay.exponential(Duration.ofMillis(50), RECONNECT_CAP, 2, TimeUnit.MILLISECONDS))
            .build();
    RedisClient client = RedisClient.create(resources, uri);
    client.setOptions(
        ClientOptions.builder()
            .autoReconnect(true)
            .disconnectedBehavior(ClientOptions.DisconnectedBehavior.REJECT_COMMANDS)
            .timeoutOptions(TimeoutOptions.enabled(timeout))
            .socketOptions(SocketOptions.builder().connectTimeout(timeout).build())
            .build());
    try {
      return new Redis(prefix, timeout, resources, client, client.connect(CODEC), true);
    } catch (RedisException e) {
      client.shutdown(Duration.ZERO, Duration.ofSeconds(2));
      resources.shutdown(0, 2, TimeUnit.SECONDS);
      throw new RedisUnavailableException(
          "cannot connect to Redis at "
              + uri.getHost()
              + ":"
              + uri.getPort()
              + ": "
              + e.getMessage(),
          e);
    }
  }

  /** The commands, blocking the caller for at most the command timeout. */
  RedisCommands<String, byte[]> sync() {
    return connection.sync();
  }

  /**
   * The same connection's commands without waiting: several sent one after the other go out
   * pipelined (one round trip for all). Each future fails after the command timeout at the latest.
   */
  io.lettuce.core.api.async.RedisAsyncCommands<String, byte[]> async() {
    return connection.async();
  }

  /** A new publish/subscribe connection; the caller closes it. */
  StatefulRedisPubSubConnection<String, byte[]> pubSub() {
    return call("subscribe", () -> client.connectPubSub(CODEC));
  }

  /** The key prefix every key and channel starts with. */
  String prefix() {
    return prefix;
  }

  Duration timeout() {
    return timeout;
  }

  /** {@code prefix + name}. */
  String key(String name) {
    return prefix + name;
  }

  /**
   * Runs one or more commands, with the caller's interrupt status set aside until they end,
   * turning Lettuce's failures into Herald's: a timeout, a refused or
   * lost connection becomes {@link RedisUnavailableException}; an error reply from Redis (a bug, or
   * Redis out of memory) becomes {@link IllegalStateException}.
   *
   * @param what what the call does, for the message ("append an event")
   */
  <T> T call(String what, Supplier<T> command) {
    // A store call is bounded by the timeout, not cut short by an interrupt: a cancelled handler
    // still stores its last status and the events it sends, as with the in-memory stores.
    boolean interrupted = Thread.interrupted();
    try {
      return command.get();
    } catch (RedisCommandExecutionException e) {
      throw new IllegalStateException("Redis refused to " + what + ": " + e.getMessage(), e);
    } catch (RedisException e) {
      throw new RedisUnavailableException(
          "Redis is unavailable (could not " + what + "): " + e.getMessage(), e);
    } finally {
      if (interrupted) {
        Thread.currentThread().interrupt();
      }
    }
  }

  /**
   * As {@link #call}, but a call refused or cut off because the connection is down (Lettuce
   * reconnecting) is tried again, every few milliseconds, for at most {@code patience}: a Redis
   * that restarts costs the caller a short wait instead of an error. A call that timed out (Redis
   * slow, not gone) is not tried again: it already waited the command timeout.
   *
   * @throws RedisUnavailableException if the call still fails after {@code patience}, or timed out
   */
  <T> T callThroughReconnect(String what, Duration patience, Supplier<T> command) {
    long deadline = System.nanoTime() + patience.toNanos();
    while (true) {
      try {
        return call(what, command);
      } catch (RedisUnavailableException e) {
        if (e.getCause() instanceof RedisCommandTimeoutException
            || System.nanoTime() - deadline >= 0) {
          throw e;
        }
        try {
          Thread.sleep(RECONNECT_POLL); // the connection coming back: Lettuce has no wait for it
        } catch (InterruptedException ie) {
          Thread.currentThread().interrupt();
          throw e;
        }
      }
    }
  }

  static byte[] bytes(String s) {
    return s.getBytes(StandardCharsets.UTF_8);
  }

  static byte[] bytes(long n) {
    return bytes(Long.toString(n));
  }

  static String string(byte[] b) {
    return new String(b, StandardCharsets.UTF_8);
  }

  @Override
  public void close() {
    if (!owner) {
      return;
    }
    try {
      connection.close();
    } finally {
      client.shutdown(Duration.ZERO, Duration.ofSeconds(2));
      resources.shutdown(0, 2, TimeUnit.SECONDS);
    }
  }
}
