package dev.herald.redis;

import io.lettuce.core.ClientOptions;
import io.lettuce.core.RedisClient;
import io.lettuce.core.RedisCommandExecutionException;
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
 * and automatic reconnection with a short, capped backoff, so the node serves again within about a
 * second after Redis returns. Keys and channels are Strings (UTF-8), values bytes. Publish/subscribe
 * needs a connection of its own ({@link #pubSub()}), re-subscribed by Lettuce after a reconnect.
 *
 * <p>Thread-safe.
 */
final class Redis implements AutoCloseable {
  static final RedisCodec<String, byte[]> CODEC =
      RedisCodec.of(StringCodec.UTF8, ByteArrayCodec.INSTANCE);

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
                Delay.exponential(
                    Duration.ofMillis(50), Duration.ofSeconds(1), 2, TimeUnit.MILLISECONDS))
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
