package dev.herald.server;

import dev.herald.server.annotation.McpParam;
import dev.herald.server.annotation.McpTool;
import dev.herald.server.annotation.ToolHint;
import dev.herald.transport.http.McpHeaders;
import dev.herald.wire.CallToolResult;
import dev.herald.wire.ContentBlock;
import dev.herald.wire.TaskSupport;
import dev.herald.wire.Tool;
import dev.herald.wire.ToolAnnotations;
import java.lang.reflect.ParameterizedType;
import java.lang.reflect.Type;
import java.lang.reflect.WildcardType;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import org.jspecify.annotations.Nullable;
import tools.jackson.core.JacksonException;
import tools.jackson.databind.JavaType;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;
import tools.jackson.databind.node.ObjectNode;

/**
 * A tool made from an {@link McpTool} method (MCP 2025-11-25 server/tools): its definition, derived
 * from the parameters and the return type, and a raw {@link ToolHandler} that binds the validated
 * arguments and converts what the method returns.
 *
 * <p>Design note. The input schema is {@link RecordSchema}'s, built from the parameters as if they
 * were the components of an arguments record, so an annotated tool and a typed tool with the same
 * shape list the same schema; the output schema is the returned record's. Registration goes
 * through {@link McpServer.Builder#tool(Tool, ToolHandler)}, so validation, error results and
 * output checks are the hand-built path's.
 */
record AnnotatedTool(
    Tool tool, ToolHandler handler, String where, List<String> scopes, TaskStart taskStart) {
  /** Whether calls of this tool may become tasks (they then start at {@link #taskStart()}). */
  boolean mayRunAsTask() {
    return tool.taskSupport() != TaskSupport.FORBIDDEN;
  }

  /** How a returned value becomes a result. */
  private enum Result {
    VOID,
    CALL_TOOL_RESULT,
    TEXT,
    BLOCK,
    BLOCKS,
    STRUCTURED
  }

  /** The tool of {@code m}, or null after adding its problems to {@code problems}. */
  static @Nullable AnnotatedTool of(
      AnnotatedMethod m, McpTool a, List<String> problems, JsonMapper mapper) {
    String name = a.name().isBlank() ? AnnotatedMethod.snakeCase(m.method.getName()) : a.name();
    int before = problems.size();
    List<AnnotatedMethod.Arg> args = m.args();
    List<RecordSchema.Property> properties = new ArrayList<>();
    List<JavaType> types = new ArrayList<>();
    for (AnnotatedMethod.Arg arg : args) {
      properties.add(arg.property());
      types.add(mapper.getTypeFactory().constructType(arg.type()));
    }
    ObjectNode input = null;
    if (!a.inputSchema().isBlank()) {
      input = explicitInput(m, a, args, problems);
    } else {
      try {
        input = RecordSchema.of(properties, !a.allowUnknownArguments(), mapper);
      } catch (IllegalArgumentException e) {
        problems.add(m.where + ": parameter " + e.getMessage());
      }
    }
    if (a.taskStart() != TaskStart.AT_ONCE && a.taskSupport() == TaskSupport.FORBIDDEN) {
      problems.add(
          m.where
              + ": taskStart "
              + a.taskStart()
              + " needs taskSupport OPTIONAL or REQUIRED (the tool never runs as a task)");
    }
    Type returned = m.method.getGenericReturnType();
    Result result = resultOf(returned);
    ObjectNode output = null;
    if (result == null) {
      problems.add(
          m.where
              + ": cannot return "
              + returned.getTypeName()
              + " (return CallToolResult, String, ContentBlock, List<ContentBlock>, a record or void)");
    } else if (result == Result.STRUCTURED) {
      try {
        output = RecordSchema.valueSchema(returned, mapper);
      } catch (IllegalArgumentException e) {
        problems.add(m.where + ": return type " + e.getMessage());
      }
    }
    if (problems.size() > before || input == null || result == null) {
      return null;
    }
    Tool.Builder b = Tool.builder(name).inputSchema(input);
    if (!a.title().isBlank()) {
      b.title(a.title());
    }
    if (!a.description().isBlank()) {
      b.description(a.description());
    }
    if (output != null) {
      b.outputSchema(output);
    }
    if (a.taskSupport() != TaskSupport.FORBIDDEN) {
      b.taskSupport(a.taskSupport());
    }
    ToolAnnotations hints = hints(a);
    if (hints != null) {
      b.annotations(hints);
    }
    Tool tool = b.build();
    Optional<String> headers = McpHeaders.invalidToolHeaders(tool);
    if (headers.isPresent()) {
      problems.add(m.where + ": " + headers.get());
      return null;
    }
    Result kind = result;
    ToolHandler handler =
        call -> {
          @Nullable Object[] values = new Object[m.slots.size()];
          int next = 0;
          for (int i = 0; i < values.length; i++) {
            if (m.slots.get(i) instanceof AnnotatedMethod.Arg arg) {
              JsonNode value = call.arguments().get(arg.name());
              JavaType type = types.get(next++);
              if (value == null || value.isNull()) {
                values[i] = arg.absent();
                continue;
              }
              try {
                values[i] = arg.present(mapper.treeToValue(value, type));
              } catch (JacksonException | IllegalArgumentException e) {
                return CallToolResult.error(
                    "Invalid arguments for tool "
                        + name
                        + ": "
                        + LogData.clean(arg.name() + ": " + RegisteredTool.bindFailure(e)));
              }
            } else {
              values[i] = call.context();
            }
          }
          return convert(kind, m.invoke(values), mapper);
        };
    return new AnnotatedTool(tool, handler, m.where, List.of(a.scopes()), a.taskStart());
  }

  /**
   * The tool's own {@link McpTool#inputSchema()}, checked: a valid JSON Schema object of type
   * object that names every parameter and requires none that Java may see absent; or null after
   * adding what is wrong to {@code problems}.
   */
  private static @Nullable ObjectNode explicitInput(
      AnnotatedMethod m, McpTool a, List<AnnotatedMethod.Arg> args, List<String> problems) {
    int before = problems.size();
    if (a.allowUnknownArguments()) {
      problems.add(
          m.where
              + ": allowUnknownArguments has no effect beside inputSchema (say additionalProperties in the schema)");
    }
    ObjectNode schema;
    try {
      schema = ParamKeywords.parseSchema(a.inputSchema(), "inputSchema");
      if (!"object".equals(schema.path("type").asString(""))) {
        throw new IllegalArgumentException("inputSchema must say \"type\": \"object\"");
      }
      ToolSchema.compile(schema, "inputSchema"); // resolves every $ref now
    } catch (IllegalArgumentException e) {
      problems.add(m.where + ": " + e.getMessage());
      return null;
    }
    JsonNode properties = schema.path("properties");
    Set<String> required = new HashSet<>();
    for (JsonNode r : schema.path("required")) {
      required.add(r.asString(""));
    }
    for (AnnotatedMethod.Arg arg : args) {
      McpParam param = arg.param();
      if (arg.description() != null || (param != null && ParamKeywords.any(param))) {
        problems.add(
            m.where
                + ": parameter "
                + arg.name()
                + ": say its schema in inputSchema (beside it @McpParam may give only name and required)");
      }
      if (!properties.has(arg.name())) {
        problems.add(m.where + ": parameter " + arg.name() + " is not a property of inputSchema");
      } else if (arg.required() && !required.contains(arg.name())) {
        problems.add(
            m.where
                + ": parameter "
                + arg.name()
                + " may be absent (inputSchema does not require it): make it Optional, @Nullable or @McpParam(required = false)");
      }
    }
    return problems.size() > before ? null : schema;
  }

  private static @Nullable ToolAnnotations hints(McpTool a) {
    Boolean readOnly = hint(a.readOnlyHint());
    Boolean destructive = hint(a.destructiveHint());
    Boolean idempotent = hint(a.idempotentHint());
    Boolean openWorld = hint(a.openWorldHint());
    if (readOnly == null && destructive == null && idempotent == null && openWorld == null) {
      return null;
    }
    return new ToolAnnotations(null, readOnly, destructive, idempotent, openWorld);
  }

  private static @Nullable Boolean hint(ToolHint h) {
    return switch (h) {
      case UNSET -> null;
      case TRUE -> Boolean.TRUE;
      case FALSE -> Boolean.FALSE;
    };
  }

  private static @Nullable Result resultOf(Type t) {
    if (t == void.class || t == Void.class) {
      return Result.VOID;
    }
    if (t == CallToolResult.class) {
      return Result.CALL_TOOL_RESULT;
    }
    if (t == String.class) {
      return Result.TEXT;
    }
    if (t instanceof Class<?> c && ContentBlock.class.isAssignableFrom(c)) {
      return Result.BLOCK;
    }
    if (t instanceof Class<?> c && c.isRecord()) {
      return Result.STRUCTURED;
    }
    if (t instanceof ParameterizedType p
        && p.getRawType() instanceof Class<?> raw
        && Collection.class.isAssignableFrom(raw)
        && elementIsBlock(p.getActualTypeArguments()[0])) {
      return Result.BLOCKS;
    }
    return null;
  }

  private static boolean elementIsBlock(Type t) {
    Type e = t instanceof WildcardType w ? w.getUpperBounds()[0] : t;
    return e instanceof Class<?> c && ContentBlock.class.isAssignableFrom(c);
  }

  private static CallToolResult convert(Result kind, @Nullable Object value, JsonMapper mapper) {
    if (value == null || kind == Result.VOID) {
      return CallToolResult.of(List.of()); // as a hand-built handler's null
    }
    return switch (kind) {
      case VOID -> CallToolResult.of(List.of());
      case CALL_TOOL_RESULT -> (CallToolResult) value;
      case TEXT -> CallToolResult.text((String) value);
      case BLOCK -> CallToolResult.of(List.of((ContentBlock) value));
      case BLOCKS -> {
        List<ContentBlock> blocks = new ArrayList<>();
        for (Object o : (Collection<?>) value) {
          blocks.add((ContentBlock) o);
        }
        yield CallToolResult.of(blocks);
      }
      case STRUCTURED -> {
        JsonNode tree = withoutNulls(mapper.valueToTree(value));
        yield new CallToolResult(List.of(ContentBlock.text(tree.toString())), tree, null, null);
      }
    };
  }

  /**
   * {@code node} without null-valued properties, at any depth: an empty {@code Optional} component
   * is written as null, and its property is optional in the output schema, not nullable.
   */
  private static JsonNode withoutNulls(JsonNode node) {
    if (node instanceof ObjectNode o) {
      List<String> nulls = new ArrayList<>();
      for (var field : o.properties()) {
        if (field.getValue().isNull()) {
          nulls.add(field.getKey());
        } else {
          withoutNulls(field.getValue());
        }
      }
      o.remove(nulls);
    } else if (node.isArray()) {
      for (JsonNode element : node.values()) {
        withoutNulls(element);
      }
    }
    return node;
  }
}
