package dev.herald.wire;

import com.fasterxml.jackson.annotation.JsonProperty;
import org.jspecify.annotations.Nullable;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ObjectNode;

/** Params of {@code notifications/message}: a log entry. {@code data} is any JSON value. */
public record LoggingMessageParams(
    LoggingLevel level,
    @Nullable String logger,
    JsonNode data,
    @JsonProperty("_meta") @Nullable ObjectNode meta) {

  public LoggingMessageParams {
    java.util.Objects.requireNonNull(level, "level");
    java.util.Objects.requireNonNull(data, "data");
  }
}
