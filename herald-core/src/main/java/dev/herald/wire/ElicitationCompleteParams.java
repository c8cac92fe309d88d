package dev.herald.wire;

import com.fasterxml.jackson.annotation.JsonProperty;
import org.jspecify.annotations.Nullable;
import tools.jackson.databind.node.ObjectNode;

/** Params of {@code notifications/elicitation/complete} (2025-11-25 only): a URL-mode elicitation finished. */
public record ElicitationCompleteParams(
    String elicitationId, @JsonProperty("_meta") @Nullable ObjectNode meta) {
  public ElicitationCompleteParams {
    java.util.Objects.requireNonNull(elicitationId, "elicitationId");
  }

  public static ElicitationCompleteParams of(String elicitationId) {
    return new ElicitationCompleteParams(elicitationId, null);
  }
}
