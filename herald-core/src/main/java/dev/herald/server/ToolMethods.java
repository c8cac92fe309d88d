package dev.herald.server;

import dev.herald.internal.session.ExceptionTranslation;
import dev.herald.internal.session.InboundCall;
import dev.herald.wire.CallToolParams;
import dev.herald.wire.CallToolResult;
import dev.herald.wire.ListToolsResult;
import dev.herald.wire.McpException;
import dev.herald.wire.McpJson;
import dev.herald.wire.PaginatedParams;
import dev.herald.wire.ProtocolVersion;
import dev.herald.wire.Tool;
import java.util.List;
import tools.jackson.databind.node.ObjectNode;

/**
 * {@code tools/list} and {@code tools/call} (MCP specification, "Tools"). A tool's own failure is
 * a result with {@code isError} (so the model can see it), not a protocol error: only failures
 * {@link ExceptionTranslation} classifies as bugs become such results; protocol errors and
 * cancellation pass on to the one translation. Runs on the request's virtual thread.
 */
final class ToolMethods {
  private ToolMethods() {}

  /** One page of the tools this session sees (the server's with its overlay on top). */
  static ListToolsResult list(ServerSession session, PaginatedParams p, InboundCall call) {
    Pagination.Page<Tool> page =
        session
            .server()
            .pagination
            .page(
                call.method(), Visibility.tools(session, call, session.toolList(call)), p.cursor());
    List<Tool> tools = page.items();
    if (!coreTasks(session, call)) {
      // execution.taskSupport is the 2025-11-25 task model: no other version sees it
      tools = tools.stream().map(ToolMethods::withoutExecution).toList();
    }
    return new ListToolsResult(tools, page.nextCursor(), null);
  }

  /** Whether the request is served under a version with the 2025-11-25 tasks. */
  private static boolean coreTasks(ServerSession session, InboundCall call) {
    return !call.stateless()
        && session.protocolVersion().map(ProtocolVersion::coreTasks).orElse(false);
  }

  private static Tool withoutExecution(Tool t) {
    return t.execution() == null
        ? t
        : new Tool(
            t.name(),
            t.title(),
            t.description(),
            t.inputSchema(),
            t.outputSchema(),
            t.annotations(),
            t.icons(),
            null,
            t.meta());
  }

  /** The tool's {@link CallToolResult}, or an {@code InputRequiredResult} (2026-07-28). */
  static Object call(ServerSession session, CallToolParams p, InboundCall call) throws Exception {
    RegisteredTool tool = session.findTool(p.name(), call);
    if (tool == null) {
      throw McpException.invalidParams("Unknown tool: " + p.name());
    }
    ObjectNode args = p.arguments() == null ? McpJson.object() : p.arguments();
    if (coreTasks(session, call) && session.serverCapabilities().tasks() != null) {
      Object task = LegacyTaskCalls.call(session, call, tool, p, args);
      if (task != null) {
        return task;
      }
    }
    var invalid = tool.input().check(args);
    if (invalid.isPresent()) {
      return CallToolResult.error("Invalid arguments for tool " + p.name() + ": " + invalid.get());
    }
    InputRounds.Target target =
        new InputRounds.Target(call.method(), p.name(), args, p.inputResponses(), p.requestState());
    if (ModernTaskCalls.applies(call, tool)) { // 2026-07-28 tasks extension
      return ModernTaskCalls.call(
          session, call, tool, target, context -> run(tool, p.name(), args, context, call));
    }
    return InputRounds.serve(
        session, call, target, context -> run(tool, p.name(), args, context, call));
  }

  /**
   * Runs the tool's handler with {@code context} (a task's too): its failures that are bugs become
   * {@code isError} results; protocol errors and cancellation pass on.
   */
  static CallToolResult run(
      RegisteredTool tool, String name, ObjectNode args, RequestContext context, InboundCall call)
      throws Exception {
    CallToolResult result;
    try {
      result = tool.handler().call(new ToolCall(name, args, context));
    } catch (InputRequired e) {
      throw e;
    } catch (Exception e) {
      if (ExceptionTranslation.classify(e, call) != ExceptionTranslation.Kind.BUG) {
        throw e;
      }
      result =
          CallToolResult.error(
              e.getMessage() == null ? "Tool " + name + " failed" : LogData.clean(e.getMessage()));
    }
    if (result == null) {
      result = CallToolResult.of(List.of());
    }
    return checkOutput(name, tool, result);
  }

  /** A successful result of a tool with an output schema must carry conforming structuredContent. */
  private static CallToolResult checkOutput(
      String name, RegisteredTool tool, CallToolResult result) {
    ToolSchema out = tool.output();
    if (out == null || result.failed()) {
      return result;
    }
    if (result.structuredContent() == null) {
      return CallToolResult.error(
          "Tool "
              + name
              + " produced invalid output: its outputSchema requires structuredContent, and there was none");
    }
    return out.check(result.structuredContent())
        .map(why -> CallToolResult.error("Tool " + name + " produced invalid output: " + why))
        .orElse(result);
  }
}
