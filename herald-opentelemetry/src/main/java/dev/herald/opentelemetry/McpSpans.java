package dev.herald.opentelemetry;

import dev.herald.session.CancelledException;
import dev.herald.wire.ErrorCodes;
import dev.herald.wire.McpException;
import dev.herald.wire.McpMethods;
import dev.herald.wire.RequestId;
import io.opentelemetry.api.common.AttributeKey;
import io.opentelemetry.api.trace.Span;
import io.opentelemetry.api.trace.SpanBuilder;
import io.opentelemetry.api.trace.StatusCode;
import org.jspecify.annotations.Nullable;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * Design note. Span names and attributes after the OpenTelemetry semantic conventions for MCP
 * (GenAI conventions, "Semantic conventions for Model Context Protocol", status development):
 * the name is {@code {mcp.method.name} {target}}, the target being the tool's name ({@code
 * tools/call}) or the prompt's ({@code prompts/get}), else {@code {mcp.method.name}} alone;
 * attributes {@code mcp.method.name}, {@code jsonrpc.request.id}, {@code mcp.session.id}, {@code
 * mcp.protocol.version}, {@code network.transport}, {@code gen_ai.tool.name} with {@code
 * gen_ai.operation.name = execute_tool}, {@code gen_ai.prompt.name}, {@code mcp.resource.uri};
 * on failure {@code error.type} (the JSON-RPC error code, {@code tool_error} for a tool result
 * with {@code isError}, {@code cancelled}, or the exception's class) and {@code
 * rpc.response.status_code}, with the span's status set to error. Tool arguments and results are
 * never recorded.
 */
final class McpSpans {
  private McpSpans() {}

  static final AttributeKey<String> METHOD = AttributeKey.stringKey("mcp.method.name");
  static final AttributeKey<String> REQUEST_ID = AttributeKey.stringKey("jsonrpc.request.id");
  static final AttributeKey<String> SESSION_ID = AttributeKey.stringKey("mcp.session.id");
  static final AttributeKey<String> PROTOCOL_VERSION =
      AttributeKey.stringKey("mcp.protocol.version");
  static final AttributeKey<String> NETWORK_TRANSPORT = AttributeKey.stringKey("network.transport");
  static final AttributeKey<String> TOOL_NAME = AttributeKey.stringKey("gen_ai.tool.name");
  static final AttributeKey<String> OPERATION_NAME =
      AttributeKey.stringKey("gen_ai.operation.name");
  static final AttributeKey<String> PROMPT_NAME = AttributeKey.stringKey("gen_ai.prompt.name");
  static final AttributeKey<String> RESOURCE_URI = AttributeKey.stringKey("mcp.resource.uri");
  static final AttributeKey<String> ERROR_TYPE = AttributeKey.stringKey("error.type");
  static final AttributeKey<String> STATUS_CODE =
      AttributeKey.stringKey("rpc.response.status_code");

  /** The low-cardinality target of a request: the tool's or the prompt's name, or null. */
  static @Nullable String target(String method, @Nullable ObjectNode params) {
    if (params == null) {
      return null;
    }
    if (McpMethods.TOOLS_CALL.equals(method) || McpMethods.PROMPTS_GET.equals(method)) {
      JsonNode name = params.get("name");
      return name != null && name.isString() ? name.stringValue() : null;
    }
    return null;
  }

  static String name(String method, @Nullable String target) {
    return target == null ? method : method + " " + target;
  }

  /** Sets the attributes a request's params and id tell. */
  static void describe(SpanBuilder span, String method, RequestId id, @Nullable ObjectNode params) {
    span.setAttribute(METHOD, method);
    span.setAttribute(REQUEST_ID, id.toString());
    String target = target(method, params);
    if (McpMethods.TOOLS_CALL.equals(method)) {
      span.setAttribute(OPERATION_NAME, "execute_tool");
      if (target != null) {
        span.setAttribute(TOOL_NAME, target);
      }
    } else if (McpMethods.PROMPTS_GET.equals(method) && target != null) {
      span.setAttribute(PROMPT_NAME, target);
    } else if (params != null
        && (McpMethods.RESOURCES_READ.equals(method)
            || McpMethods.RESOURCES_SUBSCRIBE.equals(method)
            || McpMethods.RESOURCES_UNSUBSCRIBE.equals(method))) {
      JsonNode uri = params.get("uri");
      if (uri != null && uri.isString()) {
        span.setAttribute(RESOURCE_URI, uri.stringValue());
      }
    }
  }

  /** A result arrived: a tool result with {@code isError} is an error of type {@code tool_error}. */
  static void result(Span span, String method, @Nullable JsonNode result) {
    if (McpMethods.TOOLS_CALL.equals(method)
        && result != null
        && result.path("isError").asBoolean(false)) {
      span.setAttribute(ERROR_TYPE, "tool_error");
      span.setStatus(StatusCode.ERROR);
    }
  }

  /**
   * The request failed. On the receiving side, a request for a method or tool the receiver does
   * not know loses its target in the span's name, so names stay few whatever a peer sends.
   */
  static void failure(Span span, String method, Throwable failure, boolean receiving) {
    Throwable f =
        failure instanceof java.util.concurrent.CompletionException && failure.getCause() != null
            ? failure.getCause()
            : failure;
    if (f instanceof McpException e) {
      String code = Integer.toString(e.code());
      span.setAttribute(ERROR_TYPE, code);
      span.setAttribute(STATUS_CODE, code);
      span.setStatus(StatusCode.ERROR, e.getMessage() == null ? "" : e.getMessage());
      if (receiving && e.code() == ErrorCodes.METHOD_NOT_FOUND) {
        span.updateName("unknown");
      } else if (receiving && e.code() == ErrorCodes.INVALID_PARAMS) {
        span.updateName(method);
      }
    } else if (f instanceof dev.herald.session.TimeoutException) {
      span.setAttribute(ERROR_TYPE, "timeout");
      span.setStatus(StatusCode.ERROR, "timeout");
    } else if (f instanceof CancelledException || f instanceof InterruptedException) {
      span.setAttribute(ERROR_TYPE, "cancelled");
      span.setStatus(StatusCode.ERROR, "cancelled");
    } else {
      span.setAttribute(ERROR_TYPE, f.getClass().getName());
      span.setStatus(StatusCode.ERROR);
    }
  }
}
