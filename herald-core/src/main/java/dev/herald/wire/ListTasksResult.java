package dev.herald.wire;

import com.fasterxml.jackson.annotation.JsonProperty;
import java.util.List;
import org.jspecify.annotations.Nullable;
import tools.jackson.databind.node.ObjectNode;

/** Result of {@code tasks/list} (2025-11-25 core tasks): one page. */
public record ListTasksResult(
    List<Task> tasks,
    @Nullable String nextCursor,
    @JsonProperty("_meta") @Nullable ObjectNode meta) {
  public ListTasksResult {
    tasks = tasks == null ? List.of() : List.copyOf(tasks);
  }

  public static ListTasksResult of(List<Task> tasks, @Nullable String nextCursor) {
    return new ListTasksResult(tasks, nextCursor, null);
  }
}
