package dev.herald.wire;

import com.fasterxml.jackson.annotation.JsonProperty;
import org.jspecify.annotations.Nullable;
import tools.jackson.databind.node.ObjectNode;

/** Params of {@code tasks/get} (2025-11-25 core tasks): the task by id. Also the params of {@code tasks/get} in the 2026-07-28 tasks extension. */
public record GetTaskParams(String taskId, @JsonProperty("_meta") @Nullable ObjectNode meta) {
  public GetTaskParams {
    java.util.Objects.requireNonNull(taskId, "taskId");
  }

  public static GetTaskParams of(String taskId) {
    return new GetTaskParams(taskId, null);
  }
}
