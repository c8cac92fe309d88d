package dev.herald.server.annotation;

import dev.herald.server.TaskStart;
import dev.herald.wire.TaskSupport;
import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/**
 * Makes a public method an MCP tool (MCP 2025-11-25 server/tools) when its object is registered
 * with {@link dev.herald.server.McpServer.Builder#annotated(Object...)}.
 *
 * <p><b>Input schema.</b> Each parameter becomes a property of the tool's {@code inputSchema} (JSON
 * Schema 2020-12), in order, exactly as the components of a typed tool's arguments record do:
 * {@code String} and {@code char}; integral numbers ({@code int} carries its 32-bit bounds,
 * {@code long}, {@code short}, {@code byte}, their boxes and {@code BigInteger} do not) as {@code
 * integer}; {@code double}, {@code float} and {@code BigDecimal} as {@code number}; {@code
 * boolean}; enums (by constant name); {@code List}, {@code Set} and arrays; {@code Map<String,
 * T>}; records, nested, whose components may carry {@link McpParam} descriptions. Required flags
 * and descriptions come from {@link McpParam}. Unknown arguments are refused ({@code
 * additionalProperties: false}) unless {@link #allowUnknownArguments()}.
 *
 * <p><b>Context.</b> One parameter of type {@link dev.herald.server.RequestContext} receives the
 * call's context (progress, cancellation, logging, sampling, elicitation, its session); it is not
 * part of the schema.
 *
 * <p><b>Result.</b> By return type: {@code CallToolResult} as is; {@code String} as one text
 * content; a {@code ContentBlock} or a {@code List} of them as the content; a record as {@code
 * structuredContent} plus its JSON as one text content, and then the record's schema is the tool's
 * {@code outputSchema}; {@code void} (or a {@code null} return) as an empty result.
 *
 * <p><b>Errors.</b> Arguments are validated against the input schema and bound with the server's
 * Jackson mapper ({@link dev.herald.server.McpServer.Builder#jsonMapper}: Herald's own by
 * default, which also writes a record result) before the method runs; a failure is an {@code isError} result naming the
 * argument, and the method is not called. An exception the method throws becomes an {@code
 * isError} result carrying its message; {@link dev.herald.wire.McpException} answers with that
 * JSON-RPC error instead; exactly as for a hand-built tool.
 *
 * {@snippet :
 * public final class Weather {
 *   public record Forecast(String city, int days, double high) {}
 *
 *   @McpTool(description = "Forecast for a city", readOnlyHint = ToolHint.TRUE)
 *   public Forecast forecast(
 *       @McpParam(description = "City name") String city,
 *       int days,
 *       RequestContext context) {
 *     context.progress().report(1, 1, "looked it up");
 *     return new Forecast(city, days, 21.5);
 *   }
 * }
 *
 * McpServer server = McpServer.builder().annotated(new Weather()).build();
 * }
 */
@Documented
@Retention(RetentionPolicy.RUNTIME)
@Target(ElementType.METHOD)
public @interface McpTool {
  /** The tool's name (default: the method's name in snake_case, {@code emitLogs} → {@code emit_logs}). */
  String name() default "";

  /** The tool's {@code title} (default: none). */
  String title() default "";

  /** The tool's {@code description} (default: none). */
  String description() default "";

  /** {@code annotations.readOnlyHint}: the tool does not modify its environment. */
  ToolHint readOnlyHint() default ToolHint.UNSET;

  /** {@code annotations.destructiveHint}: the tool may perform destructive updates. */
  ToolHint destructiveHint() default ToolHint.UNSET;

  /** {@code annotations.idempotentHint}: repeating a call with the same arguments has no more effect. */
  ToolHint idempotentHint() default ToolHint.UNSET;

  /** {@code annotations.openWorldHint}: the tool interacts with an open world of external entities. */
  ToolHint openWorldHint() default ToolHint.UNSET;

  /**
   * Whether a call of this tool may, or must, run as a task ({@code execution.taskSupport}, MCP
   * 2025-11-25 basic/utilities/tasks and the 2026-07-28 tasks extension; default {@link
   * TaskSupport#FORBIDDEN}: never). A tool that may run as one becomes a task at once, as
   * {@link dev.herald.server.McpServer.Builder#tool(dev.herald.wire.Tool,
   * dev.herald.server.TaskStart, dev.herald.server.ToolHandler)} with {@code TaskStart.AT_ONCE}
   * does; the method is the same either way, and its progress and status messages ({@code
   * context.statusMessage}) follow the task.
   */
  TaskSupport taskSupport() default TaskSupport.FORBIDDEN;

  /**
   * When a call of a tool that may run as a task becomes one (default {@link TaskStart#AT_ONCE}):
   * {@link TaskStart#WHEN_HANDLER_STARTS_IT} lets the method ask for input first, as part of the
   * request, and make the call a task itself with {@code context.startTask()}. Only with a
   * {@link #taskSupport()} other than {@code FORBIDDEN}.
   */
  TaskStart taskStart() default TaskStart.AT_ONCE;

  /**
   * The tool's whole {@code inputSchema} as JSON text, used instead of the one derived from the
   * parameters: for what parameters cannot say ({@code $defs} and {@code $ref}, {@code allOf},
   * {@code if}/{@code then}/{@code else}...). It must be a JSON object of {@code "type":
   * "object"} that is a valid JSON Schema 2020-12 (checked at registration, with the validator's
   * reason), each parameter must be one of its {@code properties} (bound by name, as always), a
   * parameter the schema does not require must be optional ({@code Optional}, {@code @Nullable}
   * or {@code @McpParam(required = false)}), and the parameters carry no schema attributes of
   * their own ({@link McpParam#name()} and {@link McpParam#required()} only); {@link
   * #allowUnknownArguments()} is then the schema's own business and must stay false.
   */
  String inputSchema() default "";

  /**
   * Whether arguments the method does not take are ignored instead of refused (default false:
   * the input schema says {@code additionalProperties: false}; true leaves that keyword out).
   */
  boolean allowUnknownArguments() default false;

  /**
   * The OAuth scopes a caller's access token must grant to see and use this entry (default: none),
   * as {@code McpServer.Builder.toolScopes} sets them; checked only for requests that carry a principal
   * (an HTTP endpoint with authorization).
   */
  String[] scopes() default {};
}
