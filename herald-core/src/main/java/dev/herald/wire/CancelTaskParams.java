package dev.herald.wire;

import com.fasterxml.jackson.annotation.JsonProperty;
import org.jspecify.annotations.Nullable;
import tools.jackson.databind.node.ObjectNode;

/** Params of {@code tasks/cancel} (2025-11-25 core tasks): the task by id. Also the params of {@code tasks/cancel} in the 2026-07-28 tasks extension. */
public record CancelTaskParams(String taskId, @JsonProperty("_meta") @Nullable ObjectNode meta) {
  public CancelTaskParams {
    java.util.Objects.requireNonNull(taskId, "taskId");
  }

  public static CancelTaskParams of(String taskId) {
    return new CancelTaskParams(taskId, null);
  }
}
