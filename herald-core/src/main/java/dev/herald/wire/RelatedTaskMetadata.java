package dev.herald.wire;

/**
 * The value of {@code _meta["io.modelcontextprotocol/related-task"]} (2025-11-25
 * {@code RelatedTaskMetadata}): the task a message belongs to.
 */
public record RelatedTaskMetadata(String taskId) {
  public RelatedTaskMetadata {
    java.util.Objects.requireNonNull(taskId, "taskId");
  }

  public static RelatedTaskMetadata of(String taskId) {
    return new RelatedTaskMetadata(taskId);
  }
}
