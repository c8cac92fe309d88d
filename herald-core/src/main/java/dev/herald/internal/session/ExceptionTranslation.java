package dev.herald.internal.session;

import dev.herald.session.CancelledException;
import dev.herald.wire.ErrorCodes;
import dev.herald.wire.JsonRpcMessage;
import dev.herald.wire.McpException;
import java.lang.System.Logger.Level;

/**
 * The one place that decides what a failed request becomes on the wire, for both roles.
 *
 * <ul>
 *   <li>{@link McpException}: that JSON-RPC error, as thrown (a gate's -32601, a params decoding
 *       failure's -32602 in protocol terms, a handler's own code).
 *   <li>Cancellation: a {@link CancelledException}, an {@link InterruptedException}, or any failure
 *       once the request's token is cancelled. A request the peer cancelled gets no response at
 *       all (MCP specification, "Cancellation": the receiver should not respond); otherwise, when
 *       the handler gave up by itself, {@code -32001 Request cancelled}.
 *   <li>Anything else is a bug: logged here with its stack, answered with a bare {@code -32603
 *       Internal error}, so no class name, message or stack of the implementation reaches the
 *       peer.
 * </ul>
 *
 * Tool handlers are the exception the specification makes: a tool's own failure is a result with
 * {@code isError}, not a protocol error; the tools/call handler asks {@link #classify} and turns
 * only a {@link Kind#BUG} into such a result.
 */
public final class ExceptionTranslation {
  private static final System.Logger LOG = LazyLogger.of("dev.herald.session");

  private ExceptionTranslation() {}

  /** What a failure is. */
  public enum Kind {
    /** An {@link McpException}: sent as is. */
    PROTOCOL,
    /** The request was cancelled or interrupted: nothing useful to send. */
    CANCELLED,
    /** Anything else: an internal error. */
    BUG
  }

  /** Classifies a failure of the handler of {@code call}. */
  public static Kind classify(Throwable failure, InboundCall call) {
    if (failure instanceof McpException) {
      return Kind.PROTOCOL;
    }
    if (failure instanceof CancelledException
        || failure instanceof InterruptedException
        || call.cancellation().isCancelled()) {
      return Kind.CANCELLED;
    }
    return Kind.BUG;
  }

  /**
   * The response for a request whose chain threw {@code failure}.
   *
   * @throws VirtualMachineError rethrown as is (except a stack overflow, which is a bug)
   */
  static JsonRpcMessage.Error toResponse(Throwable failure, InboundCall call, String session) {
    if (failure instanceof VirtualMachineError vme && !(failure instanceof StackOverflowError)) {
      throw vme;
    }
    return switch (classify(failure, call)) {
      case PROTOCOL ->
          new JsonRpcMessage.Error(call.id(), ((McpException) failure).toErrorObject());
      case CANCELLED -> error(call, ErrorCodes.REQUEST_CANCELLED, "Request cancelled");
      case BUG -> {
        LOG.log(
            Level.WARNING, "[" + session + "] handler for " + call.method() + " failed", failure);
        yield error(call, ErrorCodes.INTERNAL_ERROR, "Internal error");
      }
    };
  }

  /**
   * The JSON-RPC error a failure of the work of {@code call} stands for, as {@link #toResponse}
   * would send it (a task keeps it as its outcome).
   */
  public static JsonRpcMessage.ErrorObject errorOf(
      Throwable failure, InboundCall call, String session) {
    return toResponse(failure, call, session).error();
  }

  private static JsonRpcMessage.Error error(InboundCall call, int code, String message) {
    return new JsonRpcMessage.Error(call.id(), new JsonRpcMessage.ErrorObject(code, message, null));
  }
}
