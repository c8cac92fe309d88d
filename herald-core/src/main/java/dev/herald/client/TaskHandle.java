package dev.herald.client;

import dev.herald.session.ProgressRecord;
import dev.herald.wire.CallToolResult;
import dev.herald.wire.McpJson;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import org.jspecify.annotations.Nullable;

/**
 * A task the client follows (MCP 2025-11-25 basic/utilities/tasks; the 2026-07-28 extension
 * {@code io.modelcontextprotocol/tasks}): its id, its latest status, its final result, its
 * progress (on the call's own listener, until the task is terminal) and {@code tasks/cancel}.
 *
 * {@snippet :
 * TaskHandle task = client.callToolAsTask("index", args,
 *     CallOptions.builder().progress(bar::show).noTimeout().build(),
 *     snapshot -> row.show(snapshot.status(), snapshot.statusMessage()));
 * CallToolResult result = task.await();
 * }
 *
 * <p>A 2026-07-28 server decides itself whether a call becomes a task; when it answered at once,
 * the handle is already complete and {@link #taskId()} is empty ({@link #hasTask()} is false).
 *
 * <p>Thread-safe.
 */
public final class TaskHandle {
  private final @Nullable TaskFollower follower;
  private final CompletableFuture<CallToolResult> result;
  private final @Nullable ProgressRecord immediateProgress;

  TaskHandle(TaskFollower follower) {
    this.follower = follower;
    this.result =
        follower.result().thenApply(node -> McpJson.resultFromTree(node, CallToolResult.class));
    this.immediateProgress = null;
  }

  /** A call the server answered without creating a task (2026-07-28 only). */
  TaskHandle(CallToolResult answered, @Nullable ProgressRecord progress) {
    this.follower = null;
    this.result = CompletableFuture.completedFuture(answered);
    this.immediateProgress = progress;
  }

  /** The task's id, as the server minted it; empty when the server created no task. */
  public String taskId() {
    return follower == null ? "" : follower.taskId();
  }

  /** Whether the server created a task for this call. */
  public boolean hasTask() {
    return follower != null;
  }

  /**
   * The latest status the client knows (from the creation, a notification, a poll or the cancel
   * answer). For a call answered without a task: a completed snapshot with an empty id.
   */
  public TaskSnapshot status() {
    TaskSnapshot s = follower == null ? null : follower.latest();
    if (s != null) {
      return s;
    }
    java.time.Instant now = java.time.Instant.now();
    return new TaskSnapshot(
        taskId(),
        follower == null
            ? dev.herald.wire.TaskStatus.COMPLETED
            : dev.herald.wire.TaskStatus.WORKING,
        null,
        now,
        now,
        null,
        null);
  }

  /**
   * Completes with the task's final result: the original {@code tools/call} result (a tool error
   * is a result with {@code isError}); fails with {@link dev.herald.wire.McpException} carrying
   * the original JSON-RPC error of a failed task, {@link dev.herald.session.CancelledException}
   * when the task was cancelled, {@link dev.herald.session.TimeoutException} when the call's clock
   * ran out (the task was then cancelled with {@code tasks/cancel}), or {@link
   * dev.herald.transport.TransportException} when the connection ended. The progress listener has
   * seen its last value before this completes.
   */
  public CompletableFuture<CallToolResult> result() {
    return result;
  }

  /**
   * Waits for the final result (see {@link #result()}).
   *
   * @throws dev.herald.wire.McpException for a failed task
   * @throws dev.herald.session.CancelledException if cancelled or timed out
   * @throws dev.herald.transport.TransportException if the connection ended
   */
  public CallToolResult await() throws InterruptedException {
    try {
      return result.get();
    } catch (ExecutionException e) {
      throw McpClient.unwrap(e);
    }
  }

  /**
   * Cancels the task with {@code tasks/cancel} (never {@code notifications/cancelled}): in
   * 2025-11-25 only if the server declared {@code tasks.cancel} (otherwise the client only stops
   * following it), always in 2026-07-28; then the result fails with {@link
   * dev.herald.session.CancelledException}. Returns false if the task had already ended (its
   * outcome stands).
   */
  public boolean cancel(String reason) {
    return follower != null && follower.cancel(reason);
  }

  /**
   * The progress record of the task's request, when the call asked for progress: its token stays
   * active until the task is terminal.
   */
  public Optional<ProgressRecord> progressRecord() {
    return follower == null ? Optional.ofNullable(immediateProgress) : follower.progressRecord();
  }
}
