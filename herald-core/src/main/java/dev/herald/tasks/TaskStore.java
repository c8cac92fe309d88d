package dev.herald.tasks;

import java.time.Instant;
import java.util.List;
import java.util.Optional;
import java.util.function.Consumer;
import java.util.function.Function;
import org.jspecify.annotations.Nullable;

/**
 * Where a server keeps its tasks. The server's task runtime is the only writer of a task's status;
 * the store makes each change atomic and durable, and tells listeners about it, so that a status
 * notification, a {@code tasks/get} and a {@code tasks/result} all see the same history. A store
 * shared by several server nodes lets any node answer for any task.
 *
 * <p>The contract every implementation keeps:
 *
 * <ul>
 *   <li><b>Durable creation</b>: once {@link #create} returns, {@link #get} finds the task (MCP
 *       2026-07-28 tasks extension: a {@code CreateTaskResult} is sent only once a {@code
 *       tasks/get} for its id would succeed).
 *   <li><b>Atomic changes</b>: {@link #update} applies its function to the current record with no
 *       other change in between; when two changes race for a terminal status, exactly one wins.
 *   <li><b>Isolation</b>: lookups take the owner; a task of another owner is reported exactly like
 *       an unknown one.
 *   <li><b>Expiry</b>: a task whose TTL ran out is never returned, and is deleted by {@link
 *       #purgeExpired} at the latest.
 *   <li><b>Bounds</b>: an implementation keeps a bounded number of tasks and refuses more with
 *       {@link TaskLimitExceededException}, never by failing later.
 * </ul>
 *
 * <p>Implementations are thread-safe.
 */
public interface TaskStore extends AutoCloseable {

  /**
   * Stores a new task.
   *
   * @throws TaskLimitExceededException if the store is full (its owner has too many tasks that are
   *     not terminal, or the store too many tasks in all)
   * @throws IllegalArgumentException if a task with that id exists, or {@code task} is not new (it
   *     is terminal, or its version is not 1)
   */
  void create(StoredTask task);

  /** The task, if it exists, belongs to {@code owner} and has not expired at {@code now}. */
  Optional<StoredTask> get(TaskOwner owner, String taskId, Instant now);

  /**
   * Applies {@code change} atomically to the task, if it exists and has not expired at {@code now}
   * (whoever owns it: the runtime checked the owner before). {@code change} returns the new record
   * (its {@link StoredTask#version()} must be one more), or empty to leave the task as it is; it
   * may run more than once and must have no side effects.
   *
   * @return what happened: the task before and after, or empty if there is no such task
   */
  Optional<Change> update(
      String taskId, Instant now, Function<StoredTask, Optional<StoredTask>> change);

  /**
   * One page of {@code owner}'s tasks that have not expired, oldest first.
   *
   * <p>A cursor names a position in the listing order (creation time, then id), so a page never
   * repeats a task of an earlier page, and a cursor stays valid when the task it stopped at is
   * deleted.
   *
   * @param cursor {@code null} for the first page, or a {@link Page#nextCursor()} this store made
   *     for the same owner
   * @throws IllegalArgumentException if the cursor was not made by this store for {@code owner}
   *     (forged, garbled or another owner's; the runtime answers -32602), or {@code limit} is not
   *     positive
   */
  Page list(TaskOwner owner, @Nullable String cursor, int limit, Instant now);

  /**
   * Deletes every task whose TTL ran out at {@code now}.
   *
   * @return how many were deleted
   */
  int purgeExpired(Instant now);

  /**
   * Calls {@code listener} after each change made through {@link #update} (and each creation),
   * with the new record, exactly once per change and in the order of each task's versions, also
   * when several threads change one task at once. A store shared by several nodes reports changes
   * made on any of them. Listeners must return quickly and must not wait for other calls to the
   * store; an exception a listener throws is logged and does not stop the others.
   *
   * @return a handle that removes the listener when closed
   */
  AutoCloseable listen(Consumer<StoredTask> listener);

  /** How many tasks the store holds now, expired ones not yet purged included. */
  int size();

  /** Releases what the store holds (threads, connections); a closed store refuses every call. */
  @Override
  void close();

  /**
   * What one {@link #update} did.
   *
   * @param before the task before the change
   * @param after the task after it (the same record when nothing changed)
   */
  record Change(StoredTask before, StoredTask after) {
    /** Whether the change was applied. */
    public boolean changed() {
      return after.version() != before.version();
    }
  }

  /**
   * One page of a listing.
   *
   * @param tasks the tasks on this page
   * @param nextCursor where the next page starts, or {@code null} on the last page
   */
  record Page(List<StoredTask> tasks, @Nullable String nextCursor) {
    public Page {
      tasks = List.copyOf(tasks);
    }
  }
}
