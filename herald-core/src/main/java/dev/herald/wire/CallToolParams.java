package dev.herald.wire;

import com.fasterxml.jackson.annotation.JsonProperty;
import org.jspecify.annotations.Nullable;
import tools.jackson.databind.node.ObjectNode;

/** Params of {@code tools/call}. {@code task} is the legacy task augmentation (2025-11-25). */
public record CallToolParams(
    String name,
    @Nullable ObjectNode arguments,
    @Nullable ObjectNode task,
    @JsonProperty("_meta") @Nullable ObjectNode meta) {

  public CallToolParams {
    java.util.Objects.requireNonNull(name, "name");
  }

  public static CallToolParams of(String name, @Nullable ObjectNode arguments) {
    return new CallToolParams(name, arguments, null, null);
  }
}
