package dev.herald.wire;

import com.fasterxml.jackson.annotation.JsonProperty;
import java.util.List;
import org.jspecify.annotations.Nullable;
import tools.jackson.databind.node.ObjectNode;

/** Result of {@code tools/list}: one page. */
public record ListToolsResult(List<Tool> tools, @Nullable String nextCursor, @JsonProperty("_meta") @Nullable ObjectNode meta) {
  public ListToolsResult {
    tools = tools == null ? List.of() : List.copyOf(tools);
  }
}
