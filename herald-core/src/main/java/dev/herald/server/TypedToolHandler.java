package dev.herald.server;

import dev.herald.wire.CallToolResult;

/**
 * Handles calls to a tool whose arguments are a record. Register it with {@link
 * McpServer.Builder#tool(String, String, Class, TypedToolHandler)}, {@link
 * McpServer#addTool(String, String, Class, TypedToolHandler)} or {@link
 * ServerSession#addTool(String, String, Class, TypedToolHandler)}.
 *
 * <p>Compared with the raw form ({@link ToolHandler}, an {@code ObjectNode} in), the typed form
 * adds exactly this:
 *
 * <ol>
 *   <li>the tool's {@code inputSchema} is derived from the record's components (which types are
 *       supported, and which components are optional, is listed on the registration methods);
 *   <li>the validated arguments are bound to a new instance of the record, so the handler never
 *       reads JSON; a binding failure (a value the schema admits but the record cannot hold)
 *       becomes an {@code isError} result naming the argument, and the handler is not called.
 * </ol>
 *
 * <p>Everything else is shared with the raw form: arguments are validated against the input
 * schema before any handler runs (a failure is an {@code isError} result naming the failing
 * paths); {@code structuredContent} is validated against an output schema if the tool has one; a
 * thrown exception becomes an {@code isError} result carrying its message; throwing {@link
 * dev.herald.wire.McpException} answers with a JSON-RPC error instead; the handler runs on the
 * call's own virtual thread, so it may block.
 *
 * <p>Binding uses the server's mapper: Herald's own unless {@link
 * McpServer.Builder#jsonMapper} gave the application's, whose property names the schema then
 * follows. In a named module, the record must be public in an
 * exported package, or its package must be opened to {@code tools.jackson.databind}.
 *
 * {@snippet :
 * record Add(long a, long b) {}
 *
 * McpServer server = McpServer.builder()
 *     .tool("add", "Adds two integers", Add.class,
 *           (args, ctx) -> CallToolResult.text(String.valueOf(args.a() + args.b())))
 *     .build();
 * }
 *
 * @param <R> the arguments record
 */
@FunctionalInterface
public interface TypedToolHandler<R extends Record> {

  /**
   * Handles one call.
   *
   * @param arguments the call's arguments, validated and bound
   * @param context progress, logging, cancellation and the session of this call
   * @return the result; {@code null} is an empty successful result
   * @throws Exception any failure, reported to the client as an {@code isError} result
   */
  CallToolResult call(R arguments, RequestContext context) throws Exception;
}
