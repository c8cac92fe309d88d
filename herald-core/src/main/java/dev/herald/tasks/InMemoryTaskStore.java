package dev.herald.tasks;

import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Base64;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.locks.ReentrantLock;
import java.util.function.Consumer;
import java.util.function.Function;
import org.jspecify.annotations.Nullable;

/**
 * A {@link TaskStore} in this process's memory, bounded: at most {@code maxActivePerOwner} tasks
 * that are not terminal per owner and {@code maxTasks} in all. Tasks are lost when the process ends;
 * use a shared store to keep them across restarts and nodes.
 *
 * <p>Thread-safe. Changes to one task are serialized; listeners are called on the thread that made
 * the change, after it, in version order per task.
 */
public final class InMemoryTaskStore implements TaskStore {
  private final int maxActivePerOwner;
  private final int maxTasks;
  private final ConcurrentHashMap<String, StoredTask> tasks = new ConcurrentHashMap<>();
  private final ConcurrentHashMap<TaskOwner, Integer> active = new ConcurrentHashMap<>();
  private final ReentrantLock admission = new ReentrantLock();
  private final List<Consumer<StoredTask>> listeners = new CopyOnWriteArrayList<>();
  private final AtomicBoolean closed = new AtomicBoolean();

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

  @Override
  public void create(StoredTask task) {
    open();
    admission.lock();
    try {
      if (tasks.size() >= maxTasks) {
        throw new TaskLimitExceededException("Too many tasks (limit " + maxTasks + ")");
      }
      if (!task.terminal() && active.getOrDefault(task.owner(), 0) >= maxActivePerOwner) {
        throw new TaskLimitExceededException(
            "Too many active tasks (limit " + maxActivePerOwner + ")");
      }
      if (tasks.putIfAbsent(task.taskId(), task) != null) {
        throw new IllegalArgumentException("task " + task.taskId() + " exists");
      }
      if (!task.terminal()) {
        active.merge(task.owner(), 1, Integer::sum);
      }
    } finally {
      admission.unlock();
    }
    notifyListeners(task);
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
    Change[] done = new Change[1];
    tasks.computeIfPresent(
        taskId,
        (id, current) -> {
          if (current.expired(now)) {
            return current;
          }
          Optional<StoredTask> changed = change.apply(current);
          StoredTask next = changed.orElse(current);
          if (changed.isPresent()) {
            check(current, next);
            if (!current.terminal() && next.terminal()) {
              active.computeIfPresent(current.owner(), (o, n) -> n <= 1 ? null : n - 1);
            }
          }
          done[0] = new Change(current, next);
          return next;
        });
    Change c = done[0];
    if (c != null && c.changed()) {
      notifyListeners(c.after());
    }
    return Optional.ofNullable(c);
  }

  private static void check(StoredTask current, StoredTask next) {
    if (!next.taskId().equals(current.taskId())
        || !next.owner().equals(current.owner())
        || next.version() != current.version() + 1) {
      throw new IllegalArgumentException(
          "a change must keep the task's id and owner and add one to its version");
    }
    if (current.terminal()) {
      throw new IllegalArgumentException("a terminal task never changes");
    }
  }

  @Override
  public Page list(TaskOwner owner, @Nullable String cursor, int limit, Instant now) {
    open();
    if (limit < 1) {
      throw new IllegalArgumentException("limit must be positive, was " + limit);
    }
    Position after = cursor == null ? null : Position.decode(cursor);
    List<StoredTask> mine = new ArrayList<>();
    for (StoredTask t : tasks.values()) {
      if (t.owner().equals(owner) && !t.expired(now)) {
        mine.add(t);
      }
    }
    mine.sort(ORDER);
    List<StoredTask> page = new ArrayList<>(Math.min(limit, mine.size()));
    for (StoredTask t : mine) {
      if (after != null && !after.before(t)) {
        continue;
      }
      if (page.size() == limit) {
        StoredTask last = page.getLast();
        return new Page(page, new Position(last.createdAt(), last.taskId()).encode());
      }
      page.add(t);
    }
    return new Page(page, null);
  }

  private static final Comparator<StoredTask> ORDER =
      Comparator.comparing(StoredTask::createdAt).thenComparing(StoredTask::taskId);

  @Override
  public int purgeExpired(Instant now) {
    open();
    int purged = 0;
    for (Map.Entry<String, StoredTask> e : tasks.entrySet()) {
      StoredTask t = e.getValue();
      if (t.expired(now) && tasks.remove(e.getKey(), t)) {
        if (!t.terminal()) {
          active.computeIfPresent(t.owner(), (o, n) -> n <= 1 ? null : n - 1);
        }
        purged++;
      }
    }
    return purged;
  }

  @Override
  public AutoCloseable listen(Consumer<StoredTask> listener) {
    listeners.add(java.util.Objects.requireNonNull(listener, "listener"));
    return () -> listeners.remove(listener);
  }

  @Override
  public int size() {
    return tasks.size();
  }

  @Override
  public void close() {
    if (closed.compareAndSet(false, true)) {
      tasks.clear();
      active.clear();
      listeners.clear();
    }
  }

  private void open() {
    if (closed.get()) {
      throw new IllegalStateException("the task store is closed");
    }
  }

  private void notifyListeners(StoredTask t) {
    for (Consumer<StoredTask> l : listeners) {
      try {
        l.accept(t);
      } catch (RuntimeException e) {
        System.getLogger(InMemoryTaskStore.class.getName())
            .log(System.Logger.Level.WARNING, "task listener failed", e);
      }
    }
  }

  /** Where a listing stopped: the last task's creation time and id, in an opaque cursor. */
  private record Position(Instant createdAt, String taskId) {
    /** Whether {@code t} comes after this position in the listing order. */
    boolean before(StoredTask t) {
      int c = createdAt.compareTo(t.createdAt());
      return c < 0 || (c == 0 && taskId.compareTo(t.taskId()) < 0);
    }

    String encode() {
      String raw = createdAt.getEpochSecond() + "." + createdAt.getNano() + "." + taskId;
      return Base64.getUrlEncoder()
          .withoutPadding()
          .encodeToString(raw.getBytes(StandardCharsets.UTF_8));
    }

    static Position decode(String cursor) {
      try {
        String raw = new String(Base64.getUrlDecoder().decode(cursor), StandardCharsets.UTF_8);
        String[] parts = raw.split("\\.", 3);
        if (parts.length != 3 || parts[2].isEmpty()) {
          throw new IllegalArgumentException("Invalid cursor");
        }
        return new Position(
            Instant.ofEpochSecond(Long.parseLong(parts[0]), Long.parseLong(parts[1])), parts[2]);
      } catch (RuntimeException e) {
        throw new IllegalArgumentException("Invalid cursor", e);
      }
    }
  }
}
