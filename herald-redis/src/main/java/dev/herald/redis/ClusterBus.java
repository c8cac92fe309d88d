package dev.herald.redis;

import io.lettuce.core.pubsub.RedisPubSubAdapter;
import io.lettuce.core.pubsub.StatefulRedisPubSubConnection;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.function.BiConsumer;

/**
 * The live messages between nodes, on Redis publish/subscribe (docs/scale-out.md, "Why pub/sub and
 * Streams"): one channel per node ({@code <prefix>node:<id>}) for relays to that node, and one for
 * the whole cluster ({@code <prefix>cluster}) for broadcasts. A message is {@code
 * <origin node>\n<kind>\n<body>}; a node ignores its own broadcasts.
 *
 * <p>Design note. Publishes leave in the order they were asked for, from one virtual thread, so a
 * caller (a handler, a fan-out) never waits on Redis and a session's relayed messages keep their
 * order. That thread sends every publish queued by the time it runs without waiting in between
 * (pipelined on the node's connection, which keeps their order), then waits for them all: a burst
 * (a call's progress read on another node, relays of a fan-out) costs one round trip, not one per
 * message. Received messages are handed to the handler on one virtual thread too, in order. A node
 * that is not subscribed (down, or cut off) misses what is published meanwhile, on purpose:
 * nothing stale is delivered when it returns. Lettuce subscribes again after a reconnect.
 *
 * <p>Thread-safe.
 */
final class ClusterBus implements AutoCloseable {
  private static final System.Logger LOG = System.getLogger("dev.herald.redis");

  private final Redis redis;
  private final String nodeId;
  private final String nodeChannel;
  private final String clusterChannel;
  private final ExecutorService out =
      Executors.newSingleThreadExecutor(Thread.ofVirtual().name("herald-redis-publish").factory());
  private final ExecutorService in =
      Executors.newSingleThreadExecutor(Thread.ofVirtual().name("herald-redis-receive").factory());
  private final StatefulRedisPubSubConnection<String, byte[]> subscriber;

  /** Publishes asked for and not yet sent: (channel, message), in order. */
  private final java.util.concurrent.ConcurrentLinkedQueue<Publish> queued =
      new java.util.concurrent.ConcurrentLinkedQueue<>();

  /** Whether a {@link #drain} is on {@link #out}'s queue and has not yet started taking. */
  private final java.util.concurrent.atomic.AtomicBoolean drainAsked =
      new java.util.concurrent.atomic.AtomicBoolean();

  @SuppressWarnings("ArrayRecordComponent") // the message's bytes, made once, never modified
  private record Publish(String channel, String kind, byte[] message) {}

  /**
   * Subscribes to this node's and the cluster's channels; {@code handler} gets each message from
   * another node as (kind, body).
   *
   * @throws RedisUnavailableException if Redis cannot be reached
   */
  ClusterBus(Redis redis, String nodeId, BiConsumer<String, byte[]> handler) {
    this.redis = redis;
    this.nodeId = nodeId;
    this.nodeChannel = channelOf(redis, nodeId);
    this.clusterChannel = redis.key("cluster");
    this.subscriber = redis.pubSub();
    subscriber.addListener(
        new RedisPubSubAdapter<>() {
          @Override
          public void message(String channel, byte[] message) {
            in.execute(() -> receive(message, handler));
          }
        });
    redis.call(
        "subscribe",
        () -> {
          subscriber.sync().subscribe(nodeChannel, clusterChannel);
          return null;
        });
  }

  private static String channelOf(Redis redis, String nodeId) {
    return redis.key("node:" + nodeId);
  }

  private void receive(byte[] message, BiConsumer<String, byte[]> handler) {
    int a = indexOf(message, 0);
    int b = a < 0 ? -1 : indexOf(message, a + 1);
    if (b < 0) {
      return;
    }
    String origin = new String(message, 0, a, StandardCharsets.UTF_8);
    if (origin.equals(nodeId)) {
      return; // our own broadcast
    }
    String kind = new String(message, a + 1, b - a - 1, StandardCharsets.UTF_8);
    try {
      handler.accept(kind, Arrays.copyOfRange(message, b + 1, message.length));
    } catch (RuntimeException e) {
      LOG.log(System.Logger.Level.WARNING, "cluster message " + kind + " failed", e);
    }
  }

  static int indexOf(byte[] b, int from) {
    for (int i = from; i < b.length; i++) {
      if (b[i] == '\n') {
        return i;
      }
    }
    return -1;
  }

  /** Publishes to every other node. */
  void broadcast(String kind, byte[] body) {
    publish(clusterChannel, kind, body);
  }

  /** Publishes to one node. */
  void send(String node, String kind, byte[] body) {
    publish(channelOf(redis, node), kind, body);
  }

  /**
   * Publishes to every other node from the calling thread, waiting for Redis to take it (at most
   * the command timeout).
   *
   * @throws RedisUnavailableException if Redis cannot be reached
   */
  void broadcastNow(String kind, byte[] body) {
    byte[] message = message(kind, body);
    redis.call("publish", () -> redis.sync().publish(clusterChannel, message));
  }

  private byte[] message(String kind, byte[] body) {
    byte[] head = Redis.bytes(nodeId + "\n" + kind + "\n");
    byte[] message = Arrays.copyOf(head, head.length + body.length);
    System.arraycopy(body, 0, message, head.length, body.length);
    return message;
  }

  private void publish(String channel, String kind, byte[] body) {
    queued.add(new Publish(channel, kind, message(kind, body)));
    if (drainAsked.compareAndSet(false, true)) {
      try {
        out.execute(this::drain);
      } catch (java.util.concurrent.RejectedExecutionException e) {
        // closed
      }
    }
  }

  /**
   * Sends every queued publish, pipelined, and waits for Redis to take them (on {@link #out}). A
   * publish queued after this run took its snapshot asks for the next run, so a task given to
   * {@link #afterPublishes} after a publish always runs after it was sent.
   */
  private void drain() {
    drainAsked.set(false); // from here on, a new publish asks for another run
    List<Publish> batch = new ArrayList<>();
    for (Publish p; (p = queued.poll()) != null; ) {
      batch.add(p);
    }
    if (batch.isEmpty()) {
      return;
    }
    if (batch.size() == 1) {
      Publish p = batch.get(0);
      try {
        redis.call("publish", () -> redis.sync().publish(p.channel(), p.message()));
      } catch (RuntimeException e) {
        LOG.log(System.Logger.Level.DEBUG, "cluster message {0} lost: {1}", p.kind(), e);
      }
      return;
    }
    List<io.lettuce.core.RedisFuture<Long>> sent = new ArrayList<>(batch.size());
    try {
      for (Publish p : batch) {
        sent.add(redis.async().publish(p.channel(), p.message()));
      }
    } catch (RuntimeException e) { // refused at once (disconnected): the rest are lost too
      LOG.log(System.Logger.Level.DEBUG, "{0} cluster messages lost: {1}", batch.size(), e);
    }
    long deadline = System.nanoTime() + 2 * redis.timeout().toNanos();
    for (int i = 0; i < sent.size(); i++) {
      try {
        sent.get(i)
            .get(
                Math.max(0, deadline - System.nanoTime()),
                java.util.concurrent.TimeUnit.NANOSECONDS);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        return; // closing
      } catch (java.util.concurrent.ExecutionException | java.util.concurrent.TimeoutException e) {
        LOG.log(System.Logger.Level.DEBUG, "cluster message {0} lost: {1}", batch.get(i).kind(), e);
      }
    }
  }

  /** Runs {@code task} after every publish asked for so far (it sees them in Redis). */
  <T> java.util.concurrent.CompletableFuture<T> afterPublishes(
      java.util.function.Supplier<T> task) {
    return java.util.concurrent.CompletableFuture.supplyAsync(task, out);
  }

  @Override
  public void close() {
    out.shutdown();
    in.shutdown();
    try {
      subscriber.close();
    } catch (RuntimeException e) {
      // closing
    }
  }

  /** {@code a + "\n" + b} as bytes. */
  static byte[] join(String a, byte[] b) {
    byte[] head = Redis.bytes(a + "\n");
    byte[] out = Arrays.copyOf(head, head.length + b.length);
    System.arraycopy(b, 0, out, head.length, b.length);
    return out;
  }
}
