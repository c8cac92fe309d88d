package dev.herald.tasks;

import dev.herald.wire.JsonRpcMessage;
import java.util.Objects;
import tools.jackson.databind.node.ObjectNode;

/**
 * How a terminal task ended: the result the original request would have returned, or the JSON-RPC
 * error it would have returned (MCP 2025-11-25 basic/utilities/tasks: {@code tasks/result} returns
 * exactly one of them). A tool result with {@code isError: true} is a {@link Result}.
 */
public sealed interface TaskOutcome {

  /** The original result, as the JSON object the request would have been answered with. */
  record Result(ObjectNode result) implements TaskOutcome {
    public Result {
      Objects.requireNonNull(result, "result");
    }
  }

  /** The original JSON-RPC error. */
  record Error(JsonRpcMessage.ErrorObject error) implements TaskOutcome {
    public Error {
      Objects.requireNonNull(error, "error");
    }
  }
}
