package dev.herald.wire;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonProperty;
import org.jspecify.annotations.Nullable;
import tools.jackson.databind.node.ObjectNode;

/** Result of {@code tasks/cancel} (2025-11-25 core tasks): the {@link Task} fields, flat, plus {@code _meta}. */
public record CancelTaskResult(
    String taskId,
    TaskStatus status,
    @Nullable String statusMessage,
    String createdAt,
    String lastUpdatedAt,
    @JsonInclude(JsonInclude.Include.ALWAYS) @Nullable Long ttl,
    @Nullable Long pollInterval,
    @JsonProperty("_meta") @Nullable ObjectNode meta) {

  public CancelTaskResult {
    java.util.Objects.requireNonNull(taskId, "taskId");
    java.util.Objects.requireNonNull(status, "status");
    java.util.Objects.requireNonNull(createdAt, "createdAt");
    java.util.Objects.requireNonNull(lastUpdatedAt, "lastUpdatedAt");
  }

  public static CancelTaskResult of(Task task) {
    return new CancelTaskResult(
        task.taskId(),
        task.status(),
        task.statusMessage(),
        task.createdAt(),
        task.lastUpdatedAt(),
        task.ttl(),
        task.pollInterval(),
        null);
  }

  /** The task without {@code _meta}. */
  public Task task() {
    return new Task(taskId, status, statusMessage, createdAt, lastUpdatedAt, ttl, pollInterval);
  }
}
