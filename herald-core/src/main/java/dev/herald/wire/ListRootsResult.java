package dev.herald.wire;

import com.fasterxml.jackson.annotation.JsonProperty;
import java.util.List;
import org.jspecify.annotations.Nullable;
import tools.jackson.databind.node.ObjectNode;

/**
 * Result of {@code roots/list}: a client's response in the legacy era, an {@code inputResponses}
 * value in 2026-07-28 (where it has no {@code _meta}).
 */
public record ListRootsResult(List<Root> roots, @JsonProperty("_meta") @Nullable ObjectNode meta) {
  public ListRootsResult {
    roots = roots == null ? List.of() : List.copyOf(roots);
  }

  public static ListRootsResult of(List<Root> roots) {
    return new ListRootsResult(roots, null);
  }
}
