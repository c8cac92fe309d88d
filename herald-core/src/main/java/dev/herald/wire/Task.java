package dev.herald.wire;

import com.fasterxml.jackson.annotation.JsonInclude;
import org.jspecify.annotations.Nullable;

/**
 * A task of the 2025-11-25 core tasks utility (MCP {@code Task}). Times are ISO 8601 strings;
 * {@code ttl} is the retention in ms from creation and is always written, {@code null} meaning
 * unlimited; {@code pollInterval} is a suggested poll period in ms.
 */
public record Task(
    String taskId,
    TaskStatus status,
    @Nullable String statusMessage,
    String createdAt,
    String lastUpdatedAt,
    @JsonInclude(JsonInclude.Include.ALWAYS) @Nullable Long ttl,
    @Nullable Long pollInterval) {

  public Task {
    java.util.Objects.requireNonNull(taskId, "taskId");
    java.util.Objects.requireNonNull(status, "status");
    java.util.Objects.requireNonNull(createdAt, "createdAt");
    java.util.Objects.requireNonNull(lastUpdatedAt, "lastUpdatedAt");
  }

  /** Whether the status is terminal (named without "is" so Jackson does not write it). */
  public boolean terminal() {
    return status.isTerminal();
  }
}
