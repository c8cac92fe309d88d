package dev.herald.wire;

import org.jspecify.annotations.Nullable;
import tools.jackson.databind.JsonNode;

/**
 * A protocol error: carries a JSON-RPC error code, a message and optional data. Thrown by the
 * client when the peer answers with an error, and by server code to answer with one.
 */
public class McpException extends RuntimeException {
  private static final long serialVersionUID = 1L;

  private final int code;
  private final transient @Nullable JsonNode data;

  public McpException(int code, String message) {
    this(code, message, null);
  }

  public McpException(int code, String message, @Nullable JsonNode data) {
    super(message);
    this.code = code;
    this.data = data;
  }

  public int code() {
    return code;
  }

  public @Nullable JsonNode data() {
    return data;
  }

  public JsonRpcMessage.ErrorObject toErrorObject() {
    return new JsonRpcMessage.ErrorObject(code, getMessage() == null ? "" : getMessage(), data);
  }

  public static McpException invalidParams(String message) {
    return new McpException(ErrorCodes.INVALID_PARAMS, message);
  }

  public static McpException methodNotFound(String method) {
    return new McpException(ErrorCodes.METHOD_NOT_FOUND, "Method not found: " + method);
  }

  public static McpException invalidRequest(String message) {
    return new McpException(ErrorCodes.INVALID_REQUEST, message);
  }

  public static McpException internal(String message) {
    return new McpException(ErrorCodes.INTERNAL_ERROR, message);
  }

  public static McpException fromError(JsonRpcMessage.ErrorObject error) {
    return new McpException(error.code(), error.message(), error.data());
  }
}
