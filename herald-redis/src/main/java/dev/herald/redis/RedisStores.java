package dev.herald.redis;

import dev.herald.http.EventStore;
import dev.herald.server.TaskSettings;
import dev.herald.tasks.TaskStore;
import io.lettuce.core.RedisURI;
import java.security.SecureRandom;
import java.time.Duration;
import java.time.InstantSource;
import java.util.HexFormat;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * One connection to Redis and the stores a Herald node shares with the other nodes of its cluster:
 * the SSE {@link #eventStore() event store} on Redis Streams (a client resumes its stream on any
 * node with {@code Last-Event-ID}, MCP 2025-11-25 basic/transports, "Resumability and
 * Redelivery"), {@link #taskStore() task stores} (any node answers {@code tasks/get} and {@code
 * tasks/cancel}; a task whose node died is failed), and this node's {@link #node() heartbeat}.
 *
 * <p>Every key and channel starts with the {@linkplain Builder#prefix prefix} ({@code herald:}
 * by default), so several clusters can share one Redis. Redis is one server (or a primary with
 * replicas); Redis Cluster's sharding is not supported, since the scripts touch several keys.
 *
 * <p>Failure behaviour: every store call waits at most the {@linkplain Builder#commandTimeout
 * command timeout} (2 s by default) and fails with {@link RedisUnavailableException} when Redis is
 * down or slow; the connection reconnects by itself, and calls succeed again as soon as Redis is
 * back, without restarting the node.
 *
 * {@snippet :
 * RedisStores redis = RedisStores.builder("redis://127.0.0.1:6379").prefix("shop:").build();
 * McpServer server = McpServer.builder()
 *     .info("shop", "1.0")
 *     .tasks(TaskSettings.builder().store(redis::taskStore).build())
 *     .build();
 * McpHttpServer http = McpHttpServer.builder()
 *     .server(server)
 *     .eventStore(redis.eventStore())
 *     .build();
 * }
 *
 * <p>Thread-safe. {@link #close} closes the task stores it made, the heartbeat and the connection.
 */
public final class RedisStores implements AutoCloseable {
  private final Redis redis;
  private final ScheduledExecutorService scheduler;
  private final ClusterNode node;
  private final RedisEventStore eventStore;
  private final Builder settings;
  private final List<RedisTaskStore> taskStores = new CopyOnWriteArrayList<>();
  private final AtomicBoolean closed = new AtomicBoolean();

  private RedisStores(Builder b) {
    this.settings = b;
    this.redis = Redis.connect(RedisURI.create(b.uri), b.prefix, b.commandTimeout);
    this.scheduler =
        Executors.newSingleThreadScheduledExecutor(r -> {
          Thread t = new Thread(r, "herald-redis-" + b.nodeId);
          t.setDaemon(true);
          return t;
        });
    try {
      this.node = new ClusterNode(redis, b.nodeId, b.heartbeatTtl, scheduler);
    } catch (RuntimeException e) {
      scheduler.shutdownNow();
      redis.close();
      throw e;
    }
    this.eventStore =
        new RedisEventStore(redis, b.eventsPerStream, b.eventBytesPerStream, b.eventMaxAge);
  }

  /**
   * Connects to Redis at {@code uri} ({@code redis://host:port}, optionally with a password and a
   * database: {@code redis://:secret@host:6379/2}) with the defaults of {@link Builder}.
   *
   * @throws RedisUnavailableException if Redis does not answer within the command timeout
   */
  public static RedisStores connect(String uri) {
    return builder(uri).build();
  }

  /** A builder for a connection to Redis at {@code uri}. */
  public static Builder builder(String uri) {
    return new Builder(uri);
  }

  /** The event store, shared by every endpoint of this node. */
  public EventStore eventStore() {
    return eventStore;
  }

  /**
   * A new task store on this connection, for {@link TaskSettings.Builder#store}: {@code
   * TaskSettings.builder().store(redis::taskStore)}. Its tasks are recorded as run by this {@link
   * #node()}; it fails, on a timer, the tasks of nodes whose heartbeat stayed missing for a heartbeat TTL. The server closes
   * it when it closes (its listeners and timer, not the connection).
   *
   * @throws IllegalStateException if this is closed
   * @throws RedisUnavailableException if Redis does not answer within the command timeout
   */
  public TaskStore taskStore() {
    if (closed.get()) {
      throw new IllegalStateException("the Redis connection is closed");
    }
    RedisTaskStore s =
        new RedisTaskStore(
            redis,
            node,
            settings.maxActiveTasksPerOwner(),
            settings.maxTasks(),
            settings.clock(),
            scheduler);
    taskStores.removeIf(RedisTaskStore::isClosed); // the servers closed them
    taskStores.add(s);
    return s;
  }

  /** The event store with its cluster-only operations (a stream's producer). */
  RedisEventStore events() {
    return eventStore;
  }

  /** This node: its id and the liveness of others. */
  public ClusterNode node() {
    return node;
  }

  /** The prefix every key and channel of this cluster starts with. */
  public String prefix() {
    return redis.prefix();
  }

  /** For the cluster's own parts: the shared connection. */
  Redis redis() {
    return redis;
  }

  /** For the cluster's own parts: one daemon thread for short periodic jobs. */
  ScheduledExecutorService scheduler() {
    return scheduler;
  }

  Builder settings() {
    return settings;
  }

  @Override
  public void close() {
    if (!closed.compareAndSet(false, true)) {
      return;
    }
    for (RedisTaskStore s : taskStores) {
      try {
        s.close();
      } catch (RuntimeException e) {
        // closing: nothing to do about it
      }
    }
    node.close();
    scheduler.shutdownNow();
    try {
      scheduler.awaitTermination(2, TimeUnit.SECONDS);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
    redis.close();
  }

  /** Builds {@link RedisStores}; validates each value at once. Not thread-safe. */
  public static final class Builder {
    private final String uri;
    private String prefix = "herald:";
    private String nodeId = randomId();
    private Duration commandTimeout = Duration.ofSeconds(2);
    private Duration heartbeatTtl = Duration.ofSeconds(6);
    private int eventsPerStream = 512;
    private long eventBytesPerStream = EventStore.DEFAULT_BYTES_PER_STREAM;
    private Duration eventMaxAge = EventStore.DEFAULT_MAX_AGE;
    private int maxTasks = TaskSettings.DEFAULT_MAX_TASKS;
    private int maxActiveTasksPerOwner = TaskSettings.DEFAULT_MAX_ACTIVE_TASKS;
    private InstantSource clock = InstantSource.system();

    private Builder(String uri) {
      this.uri = Objects.requireNonNull(uri, "uri");
      try {
        RedisURI.create(uri);
      } catch (RuntimeException e) {
        throw new IllegalArgumentException("not a Redis URI: " + uri, e);
      }
    }

    /** Starts every key and channel (default {@code herald:}); one per cluster. */
    public Builder prefix(String prefix) {
      this.prefix = Objects.requireNonNull(prefix, "prefix");
      return this;
    }

    /** This node's id (default: 128 random bits, hex); unique among live and dead nodes. */
    public Builder nodeId(String nodeId) {
      if (nodeId.isEmpty()) {
        throw new IllegalArgumentException("the node id must not be empty");
      }
      this.nodeId = nodeId;
      return this;
    }

    /** How long one Redis call may take before it fails (default 2 s). */
    public Builder commandTimeout(Duration timeout) {
      this.commandTimeout = positive(timeout, "commandTimeout");
      return this;
    }

    /**
     * How long this node counts as alive after its last heartbeat (default 6 s); it beats every
     * third of that. Other nodes fail this node's tasks about that long after it stopped.
     */
    public Builder heartbeatTtl(Duration ttl) {
      this.heartbeatTtl = positive(ttl, "heartbeatTtl");
      return this;
    }

    /** The event store's bounds per stream: events, bytes and age (default 512, 1 MiB, 5 min). */
    public Builder eventLimits(int eventsPerStream, long bytesPerStream, Duration maxAge) {
      if (eventsPerStream < 1 || bytesPerStream < 1) {
        throw new IllegalArgumentException(
            "event bounds must be positive, were "
                + eventsPerStream
                + " events and "
                + bytesPerStream
                + " bytes");
      }
      this.eventsPerStream = eventsPerStream;
      this.eventBytesPerStream = bytesPerStream;
      this.eventMaxAge = positive(maxAge, "maxAge");
      return this;
    }

    /**
     * The task stores' bounds: tasks that are not terminal per owner, and tasks in all (default
     * {@link TaskSettings#DEFAULT_MAX_ACTIVE_TASKS}, {@link TaskSettings#DEFAULT_MAX_TASKS}).
     */
    public Builder taskLimits(int maxActivePerOwner, int maxTasks) {
      if (maxActivePerOwner < 1 || maxTasks < 1) {
        throw new IllegalArgumentException(
            "task bounds must be positive, were " + maxActivePerOwner + " and " + maxTasks);
      }
      this.maxActiveTasksPerOwner = maxActivePerOwner;
      this.maxTasks = maxTasks;
      return this;
    }

    /** The clock the task stores' own sweep reads (default: the system clock). */
    public Builder clock(InstantSource clock) {
      this.clock = Objects.requireNonNull(clock, "clock");
      return this;
    }

    /**
     * Connects, starts this node's heartbeat and makes the event store.
     *
     * @throws RedisUnavailableException if Redis does not answer within the command timeout
     */
    public RedisStores build() {
      return new RedisStores(this);
    }

    String nodeId() {
      return nodeId;
    }

    int maxTasks() {
      return maxTasks;
    }

    int maxActiveTasksPerOwner() {
      return maxActiveTasksPerOwner;
    }

    InstantSource clock() {
      return clock;
    }

    private static Duration positive(Duration d, String what) {
      if (d.isNegative() || d.isZero()) {
        throw new IllegalArgumentException(what + " must be positive, was " + d);
      }
      return d;
    }

    private static String randomId() {
      byte[] b = new byte[16];
      new SecureRandom().nextBytes(b);
      return HexFormat.of().formatHex(b);
    }
  }
}
