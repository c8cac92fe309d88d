package dev.herald.wire;

import com.fasterxml.jackson.annotation.JsonProperty;
import org.jspecify.annotations.Nullable;
import tools.jackson.databind.node.ObjectNode;

/**
 * Result of a task-augmented request in 2025-11-25 (MCP {@code CreateTaskResult}): the task just
 * created, instead of the request's own result. For the 2026-07-28 extension see
 * {@link TasksExtension.CreateTaskResult}.
 */
public record CreateTaskResult(Task task, @JsonProperty("_meta") @Nullable ObjectNode meta) {
  public CreateTaskResult {
    java.util.Objects.requireNonNull(task, "task");
  }

  public static CreateTaskResult of(Task task) {
    return new CreateTaskResult(task, null);
  }

  /** The optional {@code _meta["io.modelcontextprotocol/model-immediate-response"]} string, or {@code null}. */
  public @Nullable String modelImmediateResponse() {
    return MetaKeys.string(meta, MetaKeys.MODEL_IMMEDIATE_RESPONSE);
  }
}
