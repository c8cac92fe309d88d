package dev.herald.server;

import dev.herald.internal.session.DetachedWork;
import dev.herald.internal.session.InboundCall;
import dev.herald.session.CancellationToken;
import dev.herald.tasks.TaskOwner;
import dev.herald.wire.ProtocolVersion;
import java.time.Instant;
import java.util.Objects;
import org.jspecify.annotations.Nullable;

/**
 * One task running on this node: the handler's thread, the work detached from the request that
 * created it (its progress token, its emitter, the requests it makes to the requestor), its
 * cancellation and how it asks for input. What the task is (status, outcome) lives in the store;
 * this is only what cannot be stored.
 *
 * <p>Thread-safe: the thread is set once by the thread that runs the handler.
 */
final class RunningTask {
  private final String taskId;
  private final TaskOwner owner;
  private final ProtocolVersion.Era era;
  private final ServerSession session;
  private final InboundCall call;
  private final DetachedWork work;
  private final @Nullable Instant expiresAt;
  private volatile @Nullable Thread thread;
  private volatile @Nullable TaskInput input;

  RunningTask(
      String taskId,
      TaskOwner owner,
      ProtocolVersion.Era era,
      ServerSession session,
      InboundCall call,
      DetachedWork work,
      @Nullable Instant expiresAt) {
    this.taskId = Objects.requireNonNull(taskId, "taskId");
    this.owner = Objects.requireNonNull(owner, "owner");
    this.era = Objects.requireNonNull(era, "era");
    this.session = Objects.requireNonNull(session, "session");
    this.call = Objects.requireNonNull(call, "call");
    this.work = Objects.requireNonNull(work, "work");
    this.expiresAt = expiresAt;
  }

  String taskId() {
    return taskId;
  }

  TaskOwner owner() {
    return owner;
  }

  ProtocolVersion.Era era() {
    return era;
  }

  /** The session the creating request arrived on (for a 2026-07-28 HTTP request, already gone). */
  ServerSession session() {
    return session;
  }

  /** The request that created the task. */
  InboundCall call() {
    return call;
  }

  /** What outlives the request: progress token, emitter, requests to the requestor. */
  DetachedWork work() {
    return work;
  }

  /** Trips when the task is cancelled ({@code tasks/cancel}, expiry, its session's end). */
  CancellationToken cancellation() {
    return work.cancellation();
  }

  /** When the task's TTL runs out, or {@code null}. */
  @Nullable Instant expiresAt() {
    return expiresAt;
  }

  /** How the handler asks for input. */
  TaskInput input() {
    TaskInput i = input;
    if (i == null) {
      throw new IllegalStateException("task " + taskId + " has no input yet");
    }
    return i;
  }

  void input(TaskInput input) {
    this.input = input;
  }

  void bindThread(Thread t) {
    this.thread = t;
  }

  /**
   * Stops the handler: the cancellation token trips, pending progress is dropped, the progress
   * token is freed, waiting requests to the requestor are cancelled and the thread is interrupted.
   * Returns false if the task was already cancelled.
   */
  boolean cancel(String reason) {
    boolean first = work.cancel(reason);
    Thread t = thread;
    if (first && t != null && t != Thread.currentThread()) {
      t.interrupt();
    }
    return first;
  }
}
