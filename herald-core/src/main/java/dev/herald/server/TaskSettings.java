package dev.herald.server;

import dev.herald.tasks.InMemoryTaskStore;
import dev.herald.tasks.TaskStore;
import java.time.Duration;
import java.util.Objects;
import java.util.function.Supplier;
import org.jspecify.annotations.Nullable;

/**
 * How a server runs tasks (MCP 2025-11-25 basic/utilities/tasks; the 2026-07-28 {@code
 * io.modelcontextprotocol/tasks} extension): where they are kept, how many may run, how long they
 * are kept and how often clients should poll. A tool runs as a task only if its {@link
 * dev.herald.wire.Tool#taskSupport()} allows it; these settings apply to every such tool.
 *
 * {@snippet :
 * McpServer server = McpServer.builder()
 *     .tasks(TaskSettings.builder()
 *         .maxActiveTasks(200)                   // per owner; more are refused
 *         .defaultTtl(Duration.ofMinutes(30))
 *         .maxTtl(Duration.ofHours(6))           // a longer requested ttl is cut to this
 *         .pollInterval(Duration.ofSeconds(1))
 *         .build())
 *     .tool(Tool.builder("report").taskSupport(TaskSupport.OPTIONAL).build(), handler)
 *     .build();
 * }
 *
 * <p>Immutable and thread-safe.
 */
public final class TaskSettings {
  /** Default for {@link Builder#defaultTtl}. */
  public static final Duration DEFAULT_TTL = Duration.ofHours(1);

  /** Default for {@link Builder#maxTtl}. */
  public static final Duration DEFAULT_MAX_TTL = Duration.ofHours(24);

  /** Default for {@link Builder#pollInterval}. */
  public static final Duration DEFAULT_POLL_INTERVAL = Duration.ofSeconds(1);

  /** Default for {@link Builder#maxActiveTasks}. */
  public static final int DEFAULT_MAX_ACTIVE_TASKS = 100;

  /** Default for {@link Builder#maxTasks}. */
  public static final int DEFAULT_MAX_TASKS = 10_000;

  private static final TaskSettings DEFAULTS = builder().build();

  final Supplier<TaskStore> store;
  final int maxActiveTasks;
  final int maxTasks;
  final Duration defaultTtl;
  final Duration maxTtl;
  final Duration pollInterval;

  private TaskSettings(Builder b) {
    this.maxActiveTasks = b.maxActiveTasks;
    this.maxTasks = b.maxTasks;
    this.defaultTtl = b.defaultTtl;
    this.maxTtl = b.maxTtl;
    this.pollInterval = b.pollInterval;
    Supplier<TaskStore> custom = b.store;
    int active = b.maxActiveTasks;
    int all = b.maxTasks;
    this.store = custom != null ? custom : () -> new InMemoryTaskStore(active, all);
  }

  /**
   * An in-memory store (one per server) with {@link #DEFAULT_MAX_ACTIVE_TASKS} active tasks per
   * owner and {@link #DEFAULT_MAX_TASKS} in all, a TTL of {@link #DEFAULT_TTL} (at most {@link
   * #DEFAULT_MAX_TTL}) and a poll interval of {@link #DEFAULT_POLL_INTERVAL}.
   */
  public static TaskSettings defaults() {
    return DEFAULTS;
  }

  public static Builder builder() {
    return new Builder();
  }

  public int maxActiveTasks() {
    return maxActiveTasks;
  }

  public int maxTasks() {
    return maxTasks;
  }

  public Duration defaultTtl() {
    return defaultTtl;
  }

  public Duration maxTtl() {
    return maxTtl;
  }

  public Duration pollInterval() {
    return pollInterval;
  }

  /** Builds {@link TaskSettings}; not thread-safe. */
  public static final class Builder {
    private @Nullable Supplier<TaskStore> store;
    private int maxActiveTasks = DEFAULT_MAX_ACTIVE_TASKS;
    private int maxTasks = DEFAULT_MAX_TASKS;
    private Duration defaultTtl = DEFAULT_TTL;
    private Duration maxTtl = DEFAULT_MAX_TTL;
    private Duration pollInterval = DEFAULT_POLL_INTERVAL;

    private Builder() {}

    /**
     * Where tasks are kept (default: a bounded {@link InMemoryTaskStore} per server, built from
     * {@link #maxActiveTasks} and {@link #maxTasks}). The store's own bounds apply to a store
     * given here; the server closes it when it closes.
     */
    public Builder store(Supplier<TaskStore> store) {
      this.store = Objects.requireNonNull(store, "store");
      return this;
    }

    /**
     * How many tasks that are not terminal one owner (a session, a principal, or all anonymous
     * requestors together) may have; the request that would create one more is refused.
     *
     * @throws IllegalArgumentException if not positive
     */
    public Builder maxActiveTasks(int max) {
      if (max < 1) {
        throw new IllegalArgumentException("maxActiveTasks must be positive, was " + max);
      }
      this.maxActiveTasks = max;
      return this;
    }

    /**
     * How many tasks the store keeps in all, terminal ones until their TTL runs out included.
     *
     * @throws IllegalArgumentException if not positive
     */
    public Builder maxTasks(int max) {
      if (max < 1) {
        throw new IllegalArgumentException("maxTasks must be positive, was " + max);
      }
      this.maxTasks = max;
      return this;
    }

    /**
     * How long a task is kept after its creation when the request names no TTL (and, in the
     * 2026-07-28 era, always).
     *
     * @throws IllegalArgumentException if not positive
     */
    public Builder defaultTtl(Duration ttl) {
      this.defaultTtl = positive(ttl, "defaultTtl");
      return this;
    }

    /**
     * The longest TTL granted; a request asking for more (or for none) gets this one (MCP
     * 2025-11-25: receivers may override the requested ttl and cap it).
     *
     * @throws IllegalArgumentException if not positive
     */
    public Builder maxTtl(Duration ttl) {
      this.maxTtl = positive(ttl, "maxTtl");
      return this;
    }

    /**
     * The poll interval suggested to clients on every task response.
     *
     * @throws IllegalArgumentException if not positive
     */
    public Builder pollInterval(Duration interval) {
      this.pollInterval = positive(interval, "pollInterval");
      return this;
    }

    /**
     * The settings.
     *
     * @throws IllegalArgumentException if {@code defaultTtl} exceeds {@code maxTtl}
     */
    public TaskSettings build() {
      if (defaultTtl.compareTo(maxTtl) > 0) {
        throw new IllegalArgumentException(
            "defaultTtl " + defaultTtl + " exceeds maxTtl " + maxTtl);
      }
      return new TaskSettings(this);
    }

    private static Duration positive(Duration d, String what) {
      Objects.requireNonNull(d, what);
      if (d.isNegative() || d.isZero()) {
        throw new IllegalArgumentException(what + " must be positive, was " + d);
      }
      return d;
    }
  }
}
