package dev.herald.wire;

import com.fasterxml.jackson.annotation.JsonProperty;
import java.util.List;
import org.jspecify.annotations.Nullable;
import tools.jackson.databind.node.ObjectNode;

/** Result of {@code prompts/get}: the rendered messages. */
public record GetPromptResult(
    @Nullable String description,
    List<PromptMessage> messages,
    @JsonProperty("_meta") @Nullable ObjectNode meta) {

  public GetPromptResult {
    messages = messages == null ? List.of() : List.copyOf(messages);
  }

  public static GetPromptResult of(@Nullable String description, List<PromptMessage> messages) {
    return new GetPromptResult(description, messages, null);
  }
}
