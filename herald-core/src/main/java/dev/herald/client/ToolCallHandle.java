package dev.herald.client;

import dev.herald.internal.session.OutboundCall;
import dev.herald.session.ProgressRecord;
import dev.herald.wire.CallToolResult;
import dev.herald.wire.McpJson;
import dev.herald.wire.RequestId;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;

/**
 * A {@code tools/call} in flight: its typed result, its progress record, and a way to cancel it.
 * The result completes only with the server's response (never because progress reached its
 * total), after the final progress render.
 *
 * <p>Thread-safe.
 */
public final class ToolCallHandle {
  private final OutboundCall call;
  private final CompletableFuture<CallToolResult> result;

  ToolCallHandle(OutboundCall call) {
    this.call = call;
    this.result =
        call.result().thenApply(node -> McpJson.resultFromTree(node, CallToolResult.class));
  }

  public RequestId id() {
    return call.id();
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

  /** Cancels the call on the wire ({@code notifications/cancelled}); false if it already ended. */
  public boolean cancel(String reason) {
    return call.cancel(reason);
  }

  /** The call's progress record, when it asked for progress. */
  public Optional<ProgressRecord> progressRecord() {
    return call.progressRecord();
  }
}
