package dev.herald.tasks;

import dev.herald.internal.session.LazyLogger;
import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.security.MessageDigest;
import java.security.SecureRandom;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Base64;
import java.util.Comparator;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.Queue;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.locks.ReentrantLock;
import java.util.function.Consumer;
import java.util.function.Function;
import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;
import org.jspecify.annotations.Nullable;

/**
 * A {@link TaskStore} in this process's memory, bounded: at most {@code maxActivePerOwner} tasks
 * that are not terminal per owner and {@code maxTasks} in all. Tasks are lost when the process ends;
 * use a shared store to keep them across restarts and nodes.
 *
 * <p>Thread-safe. Changes to one task are serialized. Listeners are called one at a time, in the
 * order the changes were made (so in version order per task), on threads that made changes: a
 * change is delivered by the thread that made it before {@link #create} or {@link #update}
 * returns, unless another thread is delivering at that moment, which then delivers it right after
 * the ones before it (no thread ever waits for another's listeners). A listener that changes a task
 * from inside its callback gets that change delivered after the callback returns, never
 * recursively.
 *
 * <p>Design note. An idle task costs one {@link StoredTask} record and one map entry: no thread, no
 * lock, no map of its own (the empty input requests are the shared {@link java.util.Map#of()}). The
 * map's per-key atomic {@code compute} is the one lock per task; everything that must agree with a
 * task's record is done inside it: the active-task count of its owner when it is created, becomes
 * terminal or is purged, and the queueing of its change notification, so notifications leave the
 * queue in version order although they are delivered outside that lock (a listener may call back
 * into the store), by one thread at a time. Admission ({@link #create}) is serialized by one lock so that the two bounds
 * cannot be overrun by racing creations. Cursors are authenticated with a per-store HMAC key and
 * bound to their owner: a forged, garbled or borrowed cursor is refused; a cursor whose task has
 * since been deleted still works, since it names a position in the listing order, not a task.
 */
public final class InMemoryTaskStore implements TaskStore {
  private static final System.Logger LOG = LazyLogger.of(InMemoryTaskStore.class.getName());
  private static final String MAC = "HmacSHA256";
  private static final int TAG_BYTES = 16;

  private final int maxActivePerOwner;
  private final int maxTasks;

  /** Every task by id; a key's compute is the lock that serializes its changes. */
  private final ConcurrentHashMap<String, StoredTask> tasks = new ConcurrentHashMap<>();

  /** Tasks that are not terminal, per owner; changed only inside a {@link #tasks} compute. */
  private final ConcurrentHashMap<TaskOwner, Integer> active = new ConcurrentHashMap<>();

  /** Serializes {@link #create}: the bounds are checked and the task inserted under it. */
  private final ReentrantLock admission = new ReentrantLock();

  private final List<Registration> listeners = new CopyOnWriteArrayList<>();

  /** Changes not yet delivered, in the order they were made; offered inside a compute. */
  private final Queue<StoredTask> pending = new ConcurrentLinkedQueue<>();

  /** Set while one thread delivers {@link #pending}. */
  private final AtomicBoolean delivering = new AtomicBoolean();

  private final AtomicBoolean closed = new AtomicBoolean();

  /** Drawn when the first cursor is made or read (a server that lists no tasks never seeds one). */
  private volatile byte @Nullable [] cursorKey;

  private final ReentrantLock drawingKey = new ReentrantLock();

  /**
   * @param maxActivePerOwner how many tasks that are not terminal one owner may have
   * @param maxTasks how many tasks the store keeps in all
   * @throws IllegalArgumentException if a bound is not positive
   */
  public InMemoryTaskStore(int maxActivePerOwner, int maxTasks) {
    if (maxActivePerOwner < 1 || maxTasks < 1) {
      throw new IllegalArgumentException(
          "bounds must be positive, were " + maxActivePerOwner + " and " + maxTasks);
    }
    this.maxActivePerOwner = maxActivePerOwner;
    this.maxTasks = maxTasks;
  }

  private byte[] cursorKey() {
    byte[] k = cursorKey;
    if (k != null) {
      return k;
    }
    drawingKey.lock();
    try {
      k = cursorKey;
      if (k == null) {
        k = new byte[32];
        new SecureRandom().nextBytes(k);
        cursorKey = k;
      }
      return k;
    } finally {
      drawingKey.unlock();
    }
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
    admission.lock();
    try {
      if (full(task.owner())) {
        purgeExpired(task.createdAt());
        if (tasks.size() >= maxTasks) {
          throw new TaskLimitExceededException("Too many tasks (limit " + maxTasks + ")");
        }
        if (full(task.owner())) {
          throw new TaskLimitExceededException(
              "Too many active tasks (limit " + maxActivePerOwner + ")");
        }
      }
      boolean[] added = new boolean[1];
      tasks.computeIfAbsent(
          task.taskId(),
          id -> {
            active.merge(task.owner(), 1, Integer::sum);
            pending.offer(task);
            added[0] = true;
            return task;
          });
      if (!added[0]) {
        throw new IllegalArgumentException("task " + task.taskId() + " exists");
      }
    } finally {
      admission.unlock();
    }
    deliver();
  }

  /** Whether one more task, of {@code owner}, would overrun a bound. Under {@link #admission}. */
  private boolean full(TaskOwner owner) {
    return tasks.size() >= maxTasks || active.getOrDefault(owner, 0) >= maxActivePerOwner;
  }

  @Override
  public Optional<StoredTask> get(TaskOwner owner, String taskId, Instant now) {
    open();
    StoredTask t = tasks.get(taskId);
    if (t == null || !t.owner().equals(owner) || t.expired(now)) {
      return Optional.empty();
    }
    return Optional.of(t);
  }

  @Override
  public Optional<Change> update(
      String taskId, Instant now, Function<StoredTask, Optional<StoredTask>> change) {
    open();
    Objects.requireNonNull(change, "change");
    Change[] done = new Change[1];
    tasks.computeIfPresent(
        taskId,
        (id, current) -> {
          if (current.expired(now)) {
            return current;
          }
          Optional<StoredTask> changed = change.apply(current);
          if (changed.isEmpty()) {
            done[0] = new Change(current, current);
            return current;
          }
          StoredTask next = changed.get();
          check(current, next);
          if (next.terminal()) {
            release(current.owner());
          }
          pending.offer(next);
          done[0] = new Change(current, next);
          return next;
        });
    deliver();
    return Optional.ofNullable(done[0]);
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

  /** One task of {@code owner} stopped being active. Inside that task's compute. */
  private void release(TaskOwner owner) {
    active.computeIfPresent(owner, (o, n) -> n <= 1 ? null : n - 1);
  }

  @Override
  public Page list(TaskOwner owner, @Nullable String cursor, int limit, Instant now) {
    open();
    if (limit < 1) {
      throw new IllegalArgumentException("limit must be positive, was " + limit);
    }
    Position after = cursor == null ? null : decode(owner, cursor);
    List<StoredTask> mine = new ArrayList<>();
    for (StoredTask t : tasks.values()) {
      if (t.owner().equals(owner) && !t.expired(now) && (after == null || after.before(t))) {
        mine.add(t);
      }
    }
    mine.sort(ORDER);
    if (mine.size() <= limit) {
      return new Page(mine, null);
    }
    List<StoredTask> page = mine.subList(0, limit);
    StoredTask last = page.getLast();
    return new Page(page, encode(owner, new Position(last.createdAt(), last.taskId())));
  }

  private static final Comparator<StoredTask> ORDER =
      Comparator.comparing(StoredTask::createdAt).thenComparing(StoredTask::taskId);

  @Override
  public int purgeExpired(Instant now) {
    open();
    int[] purged = new int[1];
    for (String id : tasks.keySet()) {
      tasks.computeIfPresent(
          id,
          (k, t) -> {
            if (!t.expired(now)) {
              return t;
            }
            if (!t.terminal()) {
              release(t.owner());
            }
            purged[0]++;
            return null;
          });
    }
    return purged[0];
  }

  @Override
  public AutoCloseable listen(Consumer<StoredTask> listener) {
    open();
    Registration r = new Registration(Objects.requireNonNull(listener, "listener"));
    listeners.add(r);
    return () -> listeners.remove(r);
  }

  @Override
  public int size() {
    open();
    return tasks.size();
  }

  /**
   * {@inheritDoc}
   *
   * <p>Forgets every task and listener at once; a notification that a listener is receiving at
   * that moment completes, no other one follows.
   */
  @Override
  public void close() {
    if (closed.compareAndSet(false, true)) {
      listeners.clear();
      pending.clear();
      tasks.clear();
      active.clear();
    }
  }

  private void open() {
    if (closed.get()) {
      throw new IllegalStateException("the task store is closed");
    }
  }

  /**
   * Delivers the pending changes unless another thread is at it, which then delivers the caller's
   * too: nobody ever waits for another thread's listeners. The loop re-checks after letting go, so
   * a change queued while the other thread was finishing is never stranded. From inside a listener
   * the flag is held by this thread, so the call returns and the loop around that listener
   * delivers the new change after it.
   */
  private void deliver() {
    while (!pending.isEmpty() && delivering.compareAndSet(false, true)) {
      try {
        StoredTask t;
        while ((t = pending.poll()) != null) {
          for (Registration r : listeners) {
            r.call(t);
          }
        }
      } finally {
        delivering.set(false);
      }
    }
  }

  /** One {@link #listen} call: its own identity, so closing it removes exactly it. */
  private static final class Registration {
    private final Consumer<StoredTask> listener;

    Registration(Consumer<StoredTask> listener) {
      this.listener = listener;
    }

    void call(StoredTask t) {
      try {
        listener.accept(t);
      } catch (RuntimeException e) {
        LOG.log(System.Logger.Level.WARNING, "task listener failed", e);
      }
    }
  }

  private String encode(TaskOwner owner, Position p) {
    Instant at = p.createdAt();
    String raw = at.getEpochSecond() + "." + at.getNano() + "." + p.taskId();
    byte[] body = raw.getBytes(StandardCharsets.UTF_8);
    Base64.Encoder b64 = Base64.getUrlEncoder().withoutPadding();
    return b64.encodeToString(body) + "." + b64.encodeToString(tag(owner, body));
  }

  /**
   * The position in {@code cursor}.
   *
   * @throws IllegalArgumentException if this store did not make it for {@code owner}
   */
  private Position decode(TaskOwner owner, String cursor) {
    try {
      int dot = cursor.indexOf('.');
      if (dot < 0) {
        throw new IllegalArgumentException("no tag");
      }
      Base64.Decoder b64 = Base64.getUrlDecoder();
      byte[] body = b64.decode(cursor.substring(0, dot));
      byte[] tag = b64.decode(cursor.substring(dot + 1));
      if (!MessageDigest.isEqual(tag, tag(owner, body))) {
        throw new IllegalArgumentException("bad tag");
      }
      // only the canonical form: base64 leaves spare bits in the last character (and allows
      // padding), and a cursor differing from the issued one in any character is not ours
      Base64.Encoder canonical = Base64.getUrlEncoder().withoutPadding();
      if (!cursor.equals(canonical.encodeToString(body) + "." + canonical.encodeToString(tag))) {
        throw new IllegalArgumentException("not canonical");
      }
      String[] parts = new String(body, StandardCharsets.UTF_8).split("\\.", 3);
      return new Position(
          Instant.ofEpochSecond(Long.parseLong(parts[0]), Long.parseLong(parts[1])), parts[2]);
    } catch (RuntimeException e) {
      throw new IllegalArgumentException("Invalid cursor", e);
    }
  }

  /** The cursor's tag: an HMAC of the owner and the position under this store's key. */
  private byte[] tag(TaskOwner owner, byte[] body) {
    try {
      Mac mac = Mac.getInstance(MAC);
      mac.init(new SecretKeySpec(cursorKey(), MAC));
      mac.update(owner.kind().name().getBytes(StandardCharsets.UTF_8));
      mac.update((byte) 0);
      mac.update(owner.id().getBytes(StandardCharsets.UTF_8));
      mac.update((byte) 0);
      return Arrays.copyOf(mac.doFinal(body), TAG_BYTES);
    } catch (GeneralSecurityException e) {
      throw new IllegalStateException("HmacSHA256 is missing from this JDK", e);
    }
  }

  /** Where a listing stopped: the last task's creation time and id. */
  private record Position(Instant createdAt, String taskId) {
    /** Whether {@code t} comes after this position in the listing order. */
    boolean before(StoredTask t) {
      int c = createdAt.compareTo(t.createdAt());
      return c < 0 || (c == 0 && taskId.compareTo(t.taskId()) < 0);
    }
  }
}
