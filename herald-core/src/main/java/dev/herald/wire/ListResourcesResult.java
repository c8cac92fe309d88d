package dev.herald.wire;

import com.fasterxml.jackson.annotation.JsonProperty;
import java.util.List;
import org.jspecify.annotations.Nullable;
import tools.jackson.databind.node.ObjectNode;

/** Result of {@code resources/list}: one page, with 2026-07-28 caching hints when present. */
public record ListResourcesResult(
    List<Resource> resources,
    @Nullable String nextCursor,
    @Nullable Long ttlMs,
    @Nullable CacheScope cacheScope,
    @JsonProperty("_meta") @Nullable ObjectNode meta)
    implements CacheableResult {

  public ListResourcesResult {
    resources = resources == null ? List.of() : List.copyOf(resources);
  }

  public static ListResourcesResult of(List<Resource> resources, @Nullable String nextCursor) {
    return new ListResourcesResult(resources, nextCursor, null, null, null);
  }
}
