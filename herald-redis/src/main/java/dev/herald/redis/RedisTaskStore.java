package dev.herald.redis;

import dev.herald.tasks.StoredTask;
import dev.herald.tasks.TaskLimitExceededException;
import dev.herald.tasks.TaskOutcome;
import dev.herald.tasks.TaskOwner;
import dev.herald.tasks.TaskStore;
import dev.herald.wire.ErrorCodes;
import dev.herald.wire.JsonRpcMessage;
import io.lettuce.core.SetArgs;
import java.time.Duration;
import java.time.Instant;
import java.time.InstantSource;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.Consumer;
import java.util.function.Function;
import org.jspecify.annotations.Nullable;

/**
 * A {@link TaskStore} in Redis, shared by every node of a cluster: any node answers {@code
 * tasks/get}, {@code tasks/list} and {@code tasks/cancel} for any task (MCP 2025-11-25
 * basic/utilities/tasks; the 2026-07-28 {@code io.modelcontextprotocol/tasks} extension), and a
 * task whose node died is failed by the others.
 *
 * <p>Design note. The key layout is {@link TaskKeys}'. Creation is one Lua script that checks the
 * two bounds and writes the task and its indexes at once. A change is optimistic: read the task,
 * apply the runtime's function in Java, then a script writes the new record only if the version is
 * still the one read (else read again and retry), so when cancellation races completion exactly one
 * terminal status wins, on any node. The same script publishes the new record on the change
 * channel; Redis runs scripts one at a time, so every node receives each task's versions in order,
 * once; a {@link TaskChanges} per store delivers them to listeners on one thread, dropping any
 * version not newer than one delivered. Expiry: the purge reads the expiry index up to {@code now}
 * and deletes each expired task with a version check; the task's hash also carries a Redis TTL of
 * its own TTL plus an hour, a backstop should every node be gone (indexes that point at a vanished
 * hash are cleaned lazily). Listing reads the owner's sorted set by position ({@link
 * TaskKeys#position}); cursors are signed with a key kept in Redis, so any node accepts another's
 * cursor and another cluster's (another prefix) is refused.
 *
 * <p>Every task records the node that created it, which runs its handler; {@link #sweep} (run
 * periodically on every node) fails, with an {@code internal error} outcome ("The node running
 * this task stopped"), every task that is not terminal and whose node's heartbeat expired. The
 * version check makes that happen once, whichever nodes sweep at the same time.
 *
 * <p>Redis unavailable: every call throws {@link RedisUnavailableException} within the command
 * timeout; changes published while a node was disconnected from Redis are not redelivered to it
 * (its listeners miss them; {@code tasks/get} still reads the truth).
 *
 * <p>Thread-safe.
 */
final class RedisTaskStore implements TaskStore {
  /** How long a task's hash outlives its TTL in Redis (purge normally deletes it first). */
  static final Duration KEY_GRACE = Duration.ofHours(1);

  /** The message of a task failed because its node stopped. */
  static final String NODE_STOPPED = "The node running this task stopped";

  /**
   * KEYS: task, all, active, owner, expiry, node tasks, nodes. ARGV: json, id, node, max tasks, max
   * active, position, expiry score or '', channel, task key prefix, key TTL ms or ''. Returns 1, or
   * -1 (the id exists), -2 (too many tasks), -3 (too many active tasks for the owner).
   */
  private static final Script CREATE =
      new Script(
          """
          if redis.call('EXISTS', KEYS[1]) == 1 then return -1 end
          if redis.call('SCARD', KEYS[2]) >= tonumber(ARGV[4]) then return -2 end
          if redis.call('SCARD', KEYS[3]) >= tonumber(ARGV[5]) then
            for _, id in ipairs(redis.call('SMEMBERS', KEYS[3])) do
              if redis.call('HGET', ARGV[9] .. id, 'a') ~= '1' then
                redis.call('SREM', KEYS[3], id)
              end
            end
            if redis.call('SCARD', KEYS[3]) >= tonumber(ARGV[5]) then return -3 end
          end
          redis.call('HSET', KEYS[1], 'j', ARGV[1], 'v', '1', 'n', ARGV[3], 'a', '1')
          if ARGV[10] ~= '' then redis.call('PEXPIRE', KEYS[1], ARGV[10]) end
          redis.call('SADD', KEYS[2], ARGV[2])
          redis.call('SADD', KEYS[3], ARGV[2])
          redis.call('ZADD', KEYS[4], 0, ARGV[6])
          if ARGV[7] ~= '' then redis.call('ZADD', KEYS[5], ARGV[7], ARGV[2]) end
          redis.call('SADD', KEYS[6], ARGV[2])
          redis.call('SADD', KEYS[7], ARGV[3])
          redis.call('PUBLISH', ARGV[8], ARGV[1])
          return 1
          """);

  /**
   * KEYS: task, active, node tasks. ARGV: expected version, json, new version, terminal (1/0), id,
   * channel. Returns 1, 0 (the task is gone) or -1 (another change came first).
   */
  private static final Script UPDATE =
      new Script(
          """
          local v = redis.call('HGET', KEYS[1], 'v')
          if not v then return 0 end
          if v ~= ARGV[1] then return -1 end
          redis.call('HSET', KEYS[1], 'j', ARGV[2], 'v', ARGV[3])
          if ARGV[4] == '1' then
            redis.call('HSET', KEYS[1], 'a', '0')
            redis.call('SREM', KEYS[2], ARGV[5])
            redis.call('SREM', KEYS[3], ARGV[5])
          end
          redis.call('PUBLISH', ARGV[6], ARGV[2])
          return 1
          """);

  /**
   * KEYS: task, all, expiry, owner, active, node tasks. ARGV: expected version, id, position.
   * Returns 1, 0 (gone) or -1 (changed since it was read).
   */
  private static final Script DELETE =
      new Script(
          """
          local v = redis.call('HGET', KEYS[1], 'v')
          if v and v ~= ARGV[1] then return -1 end
          redis.call('DEL', KEYS[1])
          redis.call('SREM', KEYS[2], ARGV[2])
          redis.call('ZREM', KEYS[3], ARGV[2])
          redis.call('ZREM', KEYS[4], ARGV[3])
          redis.call('SREM', KEYS[5], ARGV[2])
          redis.call('SREM', KEYS[6], ARGV[2])
          if v then return 1 end
          return 0
          """);

  /**
   * KEYS: owner. ARGV: start (exclusive, or '-'), count, task key prefix. Returns {scanned, last
   * scanned position, position, json, ...}; positions whose task is gone are removed.
   */
  private static final Script LIST =
      new Script(
          """
          local ps = redis.call('ZRANGEBYLEX', KEYS[1], ARGV[1], '+', 'LIMIT', 0, tonumber(ARGV[2]))
          local out = {#ps, ps[#ps] or ''}
          for _, p in ipairs(ps) do
            local j = redis.call('HGET', ARGV[3] .. string.sub(p, 28), 'j')
            if j then
              out[#out + 1] = p
              out[#out + 1] = j
            else
              redis.call('ZREM', KEYS[1], p)
            end
          end
          return out
          """);

  /** KEYS: node tasks, nodes. ARGV: node. Forgets a node that has no task left. */
  private static final Script FORGET_NODE =
      new Script(
          """
          if redis.call('SCARD', KEYS[1]) == 0 then
            redis.call('SREM', KEYS[2], ARGV[1])
            return 1
          end
          return 0
          """);

  private final Redis redis;
  private final TaskKeys keys;
  private final ClusterNode node;
  private final int maxActivePerOwner;
  private final int maxTasks;
  private final InstantSource clock;
  private final Cursors cursors;
  private final byte[] cursorKey;
  private final TaskChanges changes;
  private final @Nullable ScheduledFuture<?> sweeping;
  private final AtomicBoolean closed = new AtomicBoolean();

  /**
   * @param sweeper where {@link #sweep} runs every half heartbeat TTL, or {@code null} for none
   * @throws IllegalArgumentException if a bound is not positive
   * @throws RedisUnavailableException if Redis does not answer
   */
  RedisTaskStore(
      Redis redis,
      ClusterNode node,
      int maxActivePerOwner,
      int maxTasks,
      InstantSource clock,
      @Nullable ScheduledExecutorService sweeper) {
    if (maxActivePerOwner < 1 || maxTasks < 1) {
      throw new IllegalArgumentException(
          "bounds must be positive, were " + maxActivePerOwner + " and " + maxTasks);
    }
    this.redis = redis;
    this.keys = new TaskKeys(redis.prefix());
    this.node = node;
    this.maxActivePerOwner = maxActivePerOwner;
    this.maxTasks = maxTasks;
    this.clock = clock;
    this.cursorKey = sharedCursorKey();
    this.cursors = new Cursors(cursorKey);
    this.changes = new TaskChanges(redis, keys.channel());
    if (sweeper == null) {
      this.sweeping = null;
    } else {
      long every = Math.max(1, node.heartbeatTtl().toMillis() / 2);
      this.sweeping =
          sweeper.scheduleWithFixedDelay(this::sweepQuietly, every, every, TimeUnit.MILLISECONDS);
    }
  }

  /** The cursor key of this cluster: the first node makes it, every other reads it. */
  private byte[] sharedCursorKey() {
    byte[] mine = Cursors.newKey();
    String key = keys.cursorKey();
    return redis.call(
        "read the cursor key",
        () -> {
          redis.sync().set(key, mine, SetArgs.Builder.nx());
          byte[] shared = redis.sync().get(key);
          return shared == null ? mine : shared;
        });
  }

  /**
   * {@inheritDoc}
   *
   * <p>When a bound is reached, the tasks that expired by the new task's {@link
   * StoredTask#createdAt()} are purged first, so expired tasks never hold a slot a new one needs.
   */
  @Override
  public void create(StoredTask task) {
    open();
    if (task.terminal() || task.version() != 1) {
      throw new IllegalArgumentException(
          "a new task is not terminal and has version 1, was "
              + task.status()
              + " version "
              + task.version());
    }
    long r = tryCreate(task);
    if (r == -2 || r == -3) {
      purgeExpired(task.createdAt());
      r = tryCreate(task);
    }
    if (r == -1) {
      throw new IllegalArgumentException("task " + task.taskId() + " exists");
    }
    if (r == -2) {
      throw new TaskLimitExceededException("Too many tasks (limit " + maxTasks + ")");
    }
    if (r == -3) {
      throw new TaskLimitExceededException(
          "Too many active tasks (limit " + maxActivePerOwner + ")");
    }
  }

  private long tryCreate(StoredTask task) {
    String id = task.taskId();
    String[] k = {
      keys.task(id),
      keys.all(),
      keys.active(task.owner()),
      keys.owner(task.owner()),
      keys.expiry(),
      keys.node(node.id()),
      keys.nodes()
    };
    Duration ttl = task.ttl();
    String keyTtl =
        ttl == null || ttl.compareTo(Duration.ofDays(365L * 1000)) > 0
            ? ""
            : Long.toString(ttl.plus(KEY_GRACE).toMillis());
    byte[][] args = {
      TaskCodec.encode(task),
      Redis.bytes(id),
      Redis.bytes(node.id()),
      Redis.bytes(maxTasks),
      Redis.bytes(maxActivePerOwner),
      Redis.bytes(TaskKeys.position(task)),
      Redis.bytes(TaskKeys.expiryScore(task).orElse("")),
      Redis.bytes(keys.channel()),
      Redis.bytes(keys.taskPrefix()),
      Redis.bytes(keyTtl)
    };
    return redis.call("create a task", () -> CREATE.integer(redis, k, args));
  }

  @Override
  public Optional<StoredTask> get(TaskOwner owner, String taskId, Instant now) {
    open();
    String key = keys.task(taskId);
    byte[] json = redis.call("read a task", () -> redis.sync().hget(key, "j"));
    if (json == null) {
      return Optional.empty();
    }
    StoredTask t = TaskCodec.decode(json);
    if (!t.owner().equals(owner) || t.expired(now)) {
      return Optional.empty();
    }
    return Optional.of(t);
  }

  @Override
  public Optional<Change> update(
      String taskId, Instant now, Function<StoredTask, Optional<StoredTask>> change) {
    open();
    Objects.requireNonNull(change, "change");
    String key = keys.task(taskId);
    while (true) {
      Read read = read(key);
      if (read == null || read.task.expired(now)) {
        return Optional.empty();
      }
      StoredTask current = read.task;
      Optional<StoredTask> changed = change.apply(current);
      if (changed.isEmpty()) {
        return Optional.of(new Change(current, current));
      }
      StoredTask next = changed.get();
      check(current, next);
      String[] k = {key, keys.active(current.owner()), keys.node(read.node)};
      byte[][] args = {
        Redis.bytes(current.version()),
        TaskCodec.encode(next),
        Redis.bytes(next.version()),
        Redis.bytes(next.terminal() ? "1" : "0"),
        Redis.bytes(taskId),
        Redis.bytes(keys.channel())
      };
      long r = redis.call("change a task", () -> UPDATE.integer(redis, k, args));
      if (r == 1) {
        return Optional.of(new Change(current, next));
      }
      if (r == 0) {
        return Optional.empty();
      }
      // another change came first: read again
    }
  }

  /** A task as read, with the node that runs it. */
  private record Read(StoredTask task, String node) {}

  private @Nullable Read read(String key) {
    var fields = redis.call("read a task", () -> redis.sync().hmget(key, "j", "n"));
    byte[] json = fields.get(0).getValueOrElse(null);
    byte[] n = fields.get(1).getValueOrElse(null);
    if (json == null) {
      return null;
    }
    return new Read(TaskCodec.decode(json), n == null ? "" : Redis.string(n));
  }

  private static void check(StoredTask current, StoredTask next) {
    if (current.terminal()) {
      throw new IllegalArgumentException("a terminal task never changes");
    }
    if (!next.taskId().equals(current.taskId())
        || !next.owner().equals(current.owner())
        || !next.createdAt().equals(current.createdAt())
        || next.version() != current.version() + 1) {
      throw new IllegalArgumentException(
          "a change must keep the task's id, owner and creation time and add one to its version");
    }
  }

  @Override
  public Page list(TaskOwner owner, @Nullable String cursor, int limit, Instant now) {
    open();
    if (limit < 1) {
      throw new IllegalArgumentException("limit must be positive, was " + limit);
    }
    String start = cursor == null ? "-" : "(" + cursors.decode(owner, cursor);
    String[] k = {keys.owner(owner)};
    int batch = Math.min(Math.max(limit + 1, 16), 1_000);
    List<StoredTask> mine = new ArrayList<>();
    while (mine.size() <= limit) {
      String from = start;
      List<Object> out =
          redis.call(
              "list tasks",
              () ->
                  LIST.multi(
                      redis,
                      k,
                      Redis.bytes(from),
                      Redis.bytes(batch),
                      Redis.bytes(keys.taskPrefix())));
      long scanned = (Long) out.get(0);
      for (int i = 3; i < out.size(); i += 2) {
        StoredTask t = TaskCodec.decode((byte[]) out.get(i));
        if (t.owner().equals(owner) && !t.expired(now)) {
          mine.add(t);
        }
      }
      if (scanned < batch) {
        break;
      }
      start = "(" + Redis.string((byte[]) out.get(1));
    }
    if (mine.size() <= limit) {
      return new Page(mine, null);
    }
    List<StoredTask> page = mine.subList(0, limit);
    return new Page(page, cursors.encode(owner, TaskKeys.position(page.getLast())));
  }

  @Override
  public int purgeExpired(Instant now) {
    open();
    String expiry = keys.expiry();
    String max = TaskKeys.score(now);
    List<byte[]> due =
        redis.call(
            "find expired tasks",
            () ->
                redis
                    .sync()
                    .zrangebyscore(
                        expiry,
                        io.lettuce.core.Range.create(
                            Double.NEGATIVE_INFINITY,
                            max.equals("+inf")
                                ? Double.POSITIVE_INFINITY
                                : Double.parseDouble(max))));
    int purged = 0;
    for (byte[] raw : due) {
      if (purgeOne(Redis.string(raw), now)) {
        purged++;
      }
    }
    return purged;
  }

  /** Deletes one task if it expired at {@code now}; cleans the indexes of one that vanished. */
  private boolean purgeOne(String id, Instant now) {
    String key = keys.task(id);
    while (true) {
      Read read = read(key);
      if (read == null) {
        String all = keys.all();
        String expiry = keys.expiry();
        redis.call(
            "forget a vanished task",
            () -> {
              redis.sync().zrem(expiry, Redis.bytes(id));
              return redis.sync().srem(all, Redis.bytes(id));
            });
        return false;
      }
      StoredTask t = read.task;
      if (!t.expired(now)) {
        return false;
      }
      String[] k = {
        key,
        keys.all(),
        keys.expiry(),
        keys.owner(t.owner()),
        keys.active(t.owner()),
        keys.node(read.node)
      };
      byte[][] args = {
        Redis.bytes(t.version()), Redis.bytes(id), Redis.bytes(TaskKeys.position(t))
      };
      long r = redis.call("delete an expired task", () -> DELETE.integer(redis, k, args));
      if (r != -1) {
        return r == 1;
      }
    }
  }

  /**
   * Fails every task that is not terminal and whose node's heartbeat expired, with an internal
   * error ("The node running this task stopped"); forgets such nodes once they have no task left.
   *
   * @return how many tasks this call failed (a task failed by another node's sweep is not counted)
   */
  int sweep() {
    open();
    String nodesKey = keys.nodes();
    List<byte[]> nodes =
        redis.call("list task nodes", () -> redis.sync().smembers(nodesKey)).stream().toList();
    int failed = 0;
    for (byte[] raw : nodes) {
      String other = Redis.string(raw);
      if (other.equals(node.id()) || node.isAlive(other)) {
        continue;
      }
      String nodeKey = keys.node(other);
      for (byte[] id : redis.call("list a node's tasks", () -> redis.sync().smembers(nodeKey))) {
        failed += failOrphan(nodeKey, Redis.string(id)) ? 1 : 0;
      }
      String[] k = {nodeKey, nodesKey};
      redis.call("forget a node", () -> FORGET_NODE.integer(redis, k, Redis.bytes(other)));
    }
    return failed;
  }

  private boolean failOrphan(String nodeKey, String taskId) {
    Instant now = clock.instant();
    TaskOutcome stopped =
        new TaskOutcome.Error(
            new JsonRpcMessage.ErrorObject(ErrorCodes.INTERNAL_ERROR, NODE_STOPPED, null));
    Optional<Change> c = update(taskId, now, t -> t.complete(stopped, now));
    if (c.isEmpty()) {
      String key = keys.task(taskId);
      // gone (or expired: the purge deletes it and its entry here)
      if (redis.call("check a task", () -> redis.sync().exists(key)) == 0L) {
        redis.call("forget a vanished task", () -> redis.sync().srem(nodeKey, Redis.bytes(taskId)));
      }
      return false;
    }
    return c.get().changed();
  }

  /**
   * Sweeps, and puts the cursor key back if Redis lost it (a restart without persistence), so that
   * nodes that start afterwards share this node's key instead of making their own.
   */
  private void sweepQuietly() {
    if (closed.get()) {
      return;
    }
    try {
      String key = keys.cursorKey();
      redis.call(
          "keep the cursor key", () -> redis.sync().set(key, cursorKey, SetArgs.Builder.nx()));
      sweep();
    } catch (RuntimeException e) {
      System.getLogger(RedisTaskStore.class.getName())
          .log(System.Logger.Level.DEBUG, "task sweep failed: {0}", e.getMessage());
    }
  }

  @Override
  public AutoCloseable listen(Consumer<StoredTask> listener) {
    open();
    return changes.listen(Objects.requireNonNull(listener, "listener"));
  }

  @Override
  public int size() {
    open();
    String all = keys.all();
    return Math.toIntExact(redis.call("count tasks", () -> redis.sync().scard(all)));
  }

  /**
   * {@inheritDoc}
   *
   * <p>Stops this store's listeners and sweep; the tasks stay in Redis for the other nodes, and the
   * connection stays open for its owner ({@link RedisStores}).
   */
  @Override
  public void close() {
    if (closed.compareAndSet(false, true)) {
      if (sweeping != null) {
        sweeping.cancel(false);
      }
      changes.close();
    }
  }

  boolean isClosed() {
    return closed.get();
  }

  private void open() {
    if (closed.get()) {
      throw new IllegalStateException("the task store is closed");
    }
  }
}
