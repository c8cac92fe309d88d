package dev.herald.redis;

import io.lettuce.core.SetArgs;
import java.lang.System.Logger.Level;
import java.time.Duration;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * This node's membership of a Herald cluster: a node id and a heartbeat. The node keeps a key
 * {@code <prefix>node:<id>} in Redis with a short TTL ({@link #heartbeatTtl()}) and refreshes it
 * every third of that TTL; a node that stops (crash, SIGKILL, partition from Redis) loses the key
 * within one TTL, and every other node sees it as gone through {@link #isAlive}. What a node
 * held (the tasks whose handlers ran on it, the sessions whose streams it served) is taken over
 * or failed by the others when its heartbeat is gone.
 *
 * <p>A node that cannot reach Redis keeps trying to beat; it is alive again as soon as a beat
 * lands. {@link #close} deletes the key at once (a clean leave). Node ids are 128-bit random hex
 * unless the builder names one; reusing a dead node's id is a mistake (its orphaned work would be
 * attributed to the newcomer).
 *
 * {@snippet :
 * try (RedisStores redis = RedisStores.connect("redis://127.0.0.1:6379")) {
 *   ClusterNode me = redis.node();
 *   boolean other = me.isAlive(otherNodeId);
 * }
 * }
 *
 * <p>Thread-safe.
 */
public final class ClusterNode implements AutoCloseable {
  private static final System.Logger LOG = System.getLogger(ClusterNode.class.getName());

  private final Redis redis;
  private final String id;
  private final Duration ttl;
  private final AtomicBoolean closed = new AtomicBoolean();
  private final ScheduledFuture<?> beating;

  ClusterNode(Redis redis, String id, Duration ttl, ScheduledExecutorService scheduler) {
    if (ttl.toMillis() < 3) {
      throw new IllegalArgumentException("the heartbeat TTL must be at least 3 ms, was " + ttl);
    }
    this.redis = redis;
    this.id = id;
    this.ttl = ttl;
    beat(); // alive before anything is attributed to this node
    long every = Math.max(1, ttl.toMillis() / 3);
    this.beating =
        scheduler.scheduleWithFixedDelay(this::tick, every, every, TimeUnit.MILLISECONDS);
  }

  /** This node's id. */
  public String id() {
    return id;
  }

  /** How long a node's heartbeat lasts without a refresh. */
  public Duration heartbeatTtl() {
    return ttl;
  }

  /**
   * Whether the node {@code nodeId} beat within its heartbeat TTL (this node: whether its own key
   * is there).
   *
   * @throws RedisUnavailableException if Redis does not answer within the command timeout
   */
  public boolean isAlive(String nodeId) {
    String key = key(nodeId);
    return redis.call("check a node's heartbeat", () -> redis.sync().exists(key)) == 1L;
  }

  private String key(String nodeId) {
    return redis.key("node:" + nodeId);
  }

  private void beat() {
    String key = key(id);
    redis.call(
        "refresh this node's heartbeat",
        () ->
            redis
                .sync()
                .set(key, Redis.bytes(System.currentTimeMillis()), SetArgs.Builder.px(ttl)));
  }

  private void tick() {
    if (closed.get()) {
      return;
    }
    try {
      beat();
    } catch (RuntimeException e) {
      LOG.log(Level.DEBUG, "heartbeat of node {0} failed: {1}", id, e.getMessage());
    }
  }

  /**
   * For tests: stops beating without deleting the key, as a crashed node does; the others see it
   * gone once the key's TTL runs out.
   */
  void stopBeating() {
    closed.set(true);
    beating.cancel(false);
  }

  /** Stops beating and deletes this node's key: the others see it gone at once. */
  @Override
  public void close() {
    if (closed.compareAndSet(false, true)) {
      beating.cancel(false);
      String key = key(id);
      try {
        redis.call("remove this node's heartbeat", () -> redis.sync().del(key));
      } catch (RuntimeException e) {
        LOG.log(Level.DEBUG, "could not remove the heartbeat of node {0}: {1}", id, e.getMessage());
      }
    }
  }
}
