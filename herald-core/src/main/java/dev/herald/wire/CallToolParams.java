package dev.herald.wire;

import com.fasterxml.jackson.annotation.JsonProperty;
import org.jspecify.annotations.Nullable;
import tools.jackson.databind.node.ObjectNode;

/**
 * Params of {@code tools/call}. {@code task} is the legacy task augmentation (2025-11-25);
 * {@code inputResponses} and {@code requestState} are the 2026-07-28 multi round-trip retry fields.
 */
public record CallToolParams(
    String name,
    @Nullable ObjectNode arguments,
    @Nullable ObjectNode task,
    @Nullable InputResponses inputResponses,
    @Nullable String requestState,
    @JsonProperty("_meta") @Nullable ObjectNode meta) {

  public CallToolParams {
    java.util.Objects.requireNonNull(name, "name");
  }

  /** Params without retry fields. */
  public CallToolParams(
      String name,
      @Nullable ObjectNode arguments,
      @Nullable ObjectNode task,
      @Nullable ObjectNode meta) {
    this(name, arguments, task, null, null, meta);
  }

  public static CallToolParams of(String name, @Nullable ObjectNode arguments) {
    return new CallToolParams(name, arguments, null, null, null, null);
  }

  /** A retry after an {@link InputRequiredResult}: same call, with the answers and the echoed state. */
  public CallToolParams retry(@Nullable InputResponses responses, @Nullable String state) {
    return new CallToolParams(name, arguments, task, responses, state, meta);
  }

  /**
   * {@code task} as a typed {@link TaskMetadata}, or {@code null} when absent.
   *
   * @throws McpException with {@link ErrorCodes#INVALID_PARAMS} when it is malformed
   */
  public @Nullable TaskMetadata taskMetadata() {
    return task == null ? null : McpJson.fromTree(task, TaskMetadata.class);
  }
}
