package dev.herald.wire;

import org.jspecify.annotations.Nullable;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * One JSON-RPC 2.0 message: a request, a notification, a result or an error.
 *
 * <p>Params and results stay as JSON trees so that unknown fields, {@code _meta} and the exact
 * value of every number survive a round trip; typed views are made by {@link McpJson}.
 */
public sealed interface JsonRpcMessage {

  /** A request: has an id and expects exactly one response. */
  record Request(RequestId id, String method, @Nullable ObjectNode params)
      implements JsonRpcMessage {
    public Request {
      java.util.Objects.requireNonNull(id, "id");
      java.util.Objects.requireNonNull(method, "method");
    }
  }

  /** A notification: no id, never answered. */
  record Notification(String method, @Nullable ObjectNode params) implements JsonRpcMessage {
    public Notification {
      java.util.Objects.requireNonNull(method, "method");
    }
  }

  /** A response: a result or an error. */
  sealed interface Response extends JsonRpcMessage {
    /** The id of the request answered; {@code null} only for an error whose request id could not be read. */
    @Nullable RequestId id();
  }

  /** A successful response. */
  record Result(RequestId id, JsonNode result) implements Response {
    public Result {
      java.util.Objects.requireNonNull(id, "id");
      java.util.Objects.requireNonNull(result, "result");
    }
  }

  /** An error response. */
  record Error(@Nullable RequestId id, ErrorObject error) implements Response {
    public Error {
      java.util.Objects.requireNonNull(error, "error");
    }
  }

  /** The {@code error} member of an error response. */
  record ErrorObject(int code, String message, @Nullable JsonNode data) {
    public ErrorObject {
      java.util.Objects.requireNonNull(message, "message");
    }
  }
}
