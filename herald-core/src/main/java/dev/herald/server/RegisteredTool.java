package dev.herald.server;

import dev.herald.transport.http.McpHeaders;
import dev.herald.wire.CallToolResult;
import dev.herald.wire.Tool;
import java.util.Objects;
import org.jspecify.annotations.Nullable;
import tools.jackson.core.JacksonException;
import tools.jackson.databind.json.JsonMapper;

/**
 * A tool in a catalog: its definition, its handler and its schemas, checked at registration and
 * compiled once (MCP 2025-11-25 server/tools). Typed tools are adapted to the raw handler shape here, so the call path is one.
 */
record RegisteredTool(
    Tool tool,
    ToolHandler handler,
    ToolSchema input,
    @Nullable ToolSchema output,
    TaskStart taskStart) {
  /** Tools are keyed by name and listed sorted by name. */
  static final Catalog.Kind<RegisteredTool> TOOLS =
      new Catalog.Kind<>(CatalogArea.TOOLS, RegisteredTool::name, Catalog.Order.BY_KEY);

  static RegisteredTool raw(Tool tool, ToolHandler handler) {
    Objects.requireNonNull(tool, "tool");
    Objects.requireNonNull(handler, "handler");
    String what = "tool " + tool.name();
    ToolSchema in = ToolSchema.compile(tool.inputSchema(), what + " inputSchema");
    ToolSchema out =
        tool.outputSchema() == null
            ? null
            : ToolSchema.compile(tool.outputSchema(), what + " outputSchema");
    return new RegisteredTool(tool, handler, in, out, TaskStart.AT_ONCE);
  }

  static <R extends Record> RegisteredTool typed(
      String name,
      @Nullable String description,
      Class<R> type,
      TypedToolHandler<R> handler,
      JsonMapper mapper) {
    Objects.requireNonNull(type, "argsRecord");
    Objects.requireNonNull(handler, "handler");
    Tool.Builder b = Tool.builder(name).inputSchema(RecordSchema.of(type, mapper));
    if (description != null) {
      b.description(description);
    }
    Tool tool = b.build();
    McpHeaders.invalidToolHeaders(tool)
        .ifPresent(why -> {
          throw new IllegalArgumentException("tool " + name + ": " + why);
        });
    return raw(
        tool,
        call -> {
          R args;
          try {
            args = mapper.treeToValue(call.arguments(), type);
          } catch (JacksonException | IllegalArgumentException e) {
            return CallToolResult.error(
                "Invalid arguments for tool " + name + ": " + LogData.clean(bindFailure(e)));
          }
          return handler.call(args, call.context());
        });
  }

  /** This tool with calls that become tasks at {@code start}. */
  RegisteredTool startingTasks(TaskStart start) {
    return new RegisteredTool(tool, handler, input, output, start);
  }

  String name() {
    return tool.name();
  }

  static String bindFailure(Exception e) {
    if (e instanceof JacksonException je) {
      String msg = je.getOriginalMessage() == null ? "malformed value" : je.getOriginalMessage();
      int cut = msg.indexOf('\n');
      msg = cut >= 0 ? msg.substring(0, cut) : msg;
      String field = je.getPath().isEmpty() ? null : je.getPath().getLast().getPropertyName();
      return field == null ? msg : field + ": " + msg;
    }
    return String.valueOf(e.getMessage());
  }
}
