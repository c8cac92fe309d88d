package dev.herald.wire;

import com.fasterxml.jackson.annotation.JsonSubTypes;
import com.fasterxml.jackson.annotation.JsonTypeInfo;
import org.jspecify.annotations.Nullable;

/**
 * One entry of {@link InputRequests} (2026-07-28 {@code InputRequest}): a request the client must
 * fulfil before retrying, by {@code method}. These are embedded shapes, not JSON-RPC requests: they
 * have no {@code jsonrpc} or {@code id}.
 */
@JsonTypeInfo(use = JsonTypeInfo.Id.NAME, property = "method", visible = false)
@JsonSubTypes({
  @JsonSubTypes.Type(value = InputRequest.Elicit.class, name = McpMethods.ELICITATION_CREATE),
  @JsonSubTypes.Type(
      value = InputRequest.CreateMessage.class,
      name = McpMethods.SAMPLING_CREATE_MESSAGE),
  @JsonSubTypes.Type(value = InputRequest.ListRoots.class, name = McpMethods.ROOTS_LIST)
})
public sealed interface InputRequest {

  /** The MCP method this input request stands for. */
  String method();

  /** {@code elicitation/create}: answered with an {@link ElicitResult}. */
  record Elicit(ElicitParams params) implements InputRequest {
    public Elicit {
      java.util.Objects.requireNonNull(params, "params");
    }

    @Override
    public String method() {
      return McpMethods.ELICITATION_CREATE;
    }
  }

  /** {@code sampling/createMessage}: answered with a {@link CreateMessageResult}. */
  record CreateMessage(CreateMessageParams params) implements InputRequest {
    public CreateMessage {
      java.util.Objects.requireNonNull(params, "params");
    }

    @Override
    public String method() {
      return McpMethods.SAMPLING_CREATE_MESSAGE;
    }
  }

  /** {@code roots/list}: answered with a {@link ListRootsResult}. */
  record ListRoots(@Nullable EmptyParams params) implements InputRequest {
    @Override
    public String method() {
      return McpMethods.ROOTS_LIST;
    }
  }

  static InputRequest elicit(ElicitParams params) {
    return new Elicit(params);
  }

  static InputRequest createMessage(CreateMessageParams params) {
    return new CreateMessage(params);
  }

  static InputRequest listRoots() {
    return new ListRoots(null);
  }
}
