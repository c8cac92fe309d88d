package dev.herald.wire;

import com.fasterxml.jackson.annotation.JsonProperty;
import java.util.List;
import org.jspecify.annotations.Nullable;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * Result of {@code sampling/createMessage}: the model's message. {@code content} is one block or
 * (since 2025-11-25) an array, kept as sent; {@link #blocks()} gives the typed view.
 * {@code stopReason} is open-ended; the known values are in {@link StopReason}.
 */
public record CreateMessageResult(
    Role role,
    JsonNode content,
    String model,
    @Nullable String stopReason,
    @JsonProperty("_meta") @Nullable ObjectNode meta) {

  public CreateMessageResult {
    java.util.Objects.requireNonNull(role, "role");
    java.util.Objects.requireNonNull(content, "content");
    java.util.Objects.requireNonNull(model, "model");
    if (!content.isObject() && !content.isArray()) {
      throw new IllegalArgumentException("content must be a content block or an array of them");
    }
  }

  /** Known {@code stopReason} values; others may appear. */
  public static final class StopReason {
    private StopReason() {}

    public static final String END_TURN = "endTurn";
    public static final String STOP_SEQUENCE = "stopSequence";
    public static final String MAX_TOKENS = "maxTokens";
    public static final String TOOL_USE = "toolUse";
  }

  public static CreateMessageResult of(
      Role role, SamplingContent block, String model, @Nullable String stopReason) {
    return new CreateMessageResult(role, SamplingMessage.content(block), model, stopReason, null);
  }

  public static CreateMessageResult of(
      Role role,
      List<? extends SamplingContent> blocks,
      String model,
      @Nullable String stopReason) {
    return new CreateMessageResult(role, SamplingMessage.content(blocks), model, stopReason, null);
  }

  /**
   * The content blocks, in order.
   *
   * @throws McpException with {@link ErrorCodes#INVALID_PARAMS} when a block is malformed
   */
  public List<SamplingContent> blocks() {
    return SamplingMessage.blocks(content);
  }

  /** This result as a message, to append to the conversation. */
  public SamplingMessage toMessage() {
    return new SamplingMessage(role, content, null);
  }
}
