package dev.herald.wire;

import org.jspecify.annotations.Nullable;

/** {@code params.task} of a task-augmented request (2025-11-25 {@code TaskMetadata}): the requested {@code ttl} in ms. */
public record TaskMetadata(@Nullable Long ttl) {
  public static TaskMetadata of(@Nullable Long ttl) {
    return new TaskMetadata(ttl);
  }
}
