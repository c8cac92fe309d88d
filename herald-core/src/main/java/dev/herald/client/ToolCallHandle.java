package dev.herald.client;

import dev.herald.session.ProgressRecord;
import dev.herald.wire.CallToolResult;
import dev.herald.wire.RequestId;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import org.jspecify.annotations.Nullable;

/**
 * A {@code tools/call} in flight: its typed result, its progress record, and a way to cancel it.
 * The result completes only with the server's final response (never because progress reached its
 * total, never with a 2026-07-28 {@code input_required} round, which the client fulfils and
 * retries), after the final progress render.
 *
 * <p>Thread-safe.
 */
public final class ToolCallHandle {
  private final InputRounds call;
  private final @Nullable TaskCall task;
  private final CompletableFuture<CallToolResult> result;

  ToolCallHandle(InputRounds call) {
    this.call = call;
    this.task = null;
    this.result = call.result().thenApply(CallToolResults::fromTree);
  }

  /** A call that the server may turn into a task, followed to its final result. */
  ToolCallHandle(TaskCall task) {
    this.call = task.rounds();
    this.task = task;
    this.result = task.result().thenApply(CallToolResults::fromTree);
  }

  /**
   * The JSON-RPC id of the request in flight (each {@code input_required} retry has a new one); for
   * a call that became a task, the id of the request that created it.
   */
  public RequestId id() {
    return call.id();
  }

  /** The id of the task the server made of this call, once it made one. */
  public java.util.Optional<String> taskId() {
    return task == null ? java.util.Optional.empty() : task.taskId();
  }

  public CompletableFuture<CallToolResult> result() {
    return result;
  }

  /**
   * Waits for the result.
   *
   * @throws dev.herald.wire.McpException for an error response
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
   * Cancels the call on the wire ({@code notifications/cancelled} on stdio; closing its stream on
   * 2026-07-28 HTTP) and any later round; once the server made a task of it, with {@code
   * tasks/cancel} instead (see {@link TaskHandle#cancel}). False if it already ended.
   */
  public boolean cancel(String reason) {
    return task != null ? task.cancel(reason) : call.cancel(reason);
  }

  /**
   * The progress record of the request in flight, when the call asked for progress; for a call
   * that became a task, its token stays active until the task is terminal.
   */
  public Optional<ProgressRecord> progressRecord() {
    return task != null ? task.progressRecord() : call.progressRecord();
  }
}
