package dev.herald.server;

import dev.herald.wire.CallToolResult;

/**
 * Handles calls to one tool. Runs on the call's own virtual thread: block freely. A thrown
 * exception becomes a tool error result ({@code isError: true}) whose text is the exception's
 * message; throw {@link dev.herald.wire.McpException} instead to answer with a JSON-RPC error.
 */
@FunctionalInterface
public interface ToolHandler {
  CallToolResult call(ToolCall call) throws Exception;
}
