package dev.herald.wire;

import com.fasterxml.jackson.annotation.JsonProperty;
import org.jspecify.annotations.Nullable;
import tools.jackson.databind.node.ObjectNode;

/** Params of {@code tasks/result} (2025-11-25 core tasks): the task by id. */
public record GetTaskPayloadParams(
    String taskId, @JsonProperty("_meta") @Nullable ObjectNode meta) {
  public GetTaskPayloadParams {
    java.util.Objects.requireNonNull(taskId, "taskId");
  }

  public static GetTaskPayloadParams of(String taskId) {
    return new GetTaskPayloadParams(taskId, null);
  }
}
