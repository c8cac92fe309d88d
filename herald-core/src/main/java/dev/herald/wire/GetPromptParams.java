package dev.herald.wire;

import com.fasterxml.jackson.annotation.JsonProperty;
import java.util.Map;
import org.jspecify.annotations.Nullable;
import tools.jackson.databind.node.ObjectNode;

/**
 * Params of {@code prompts/get}: template arguments are strings. {@code inputResponses} and
 * {@code requestState} are the 2026-07-28 multi round-trip retry fields.
 */
public record GetPromptParams(
    String name,
    @Nullable Map<String, String> arguments,
    @Nullable InputResponses inputResponses,
    @Nullable String requestState,
    @JsonProperty("_meta") @Nullable ObjectNode meta) {

  public GetPromptParams {
    java.util.Objects.requireNonNull(name, "name");
    arguments = arguments == null ? null : Map.copyOf(arguments);
  }

  public static GetPromptParams of(String name, @Nullable Map<String, String> arguments) {
    return new GetPromptParams(name, arguments, null, null, null);
  }

  /** The arguments, empty when none were sent. */
  public Map<String, String> argumentsOrEmpty() {
    return arguments == null ? Map.of() : arguments;
  }
}
