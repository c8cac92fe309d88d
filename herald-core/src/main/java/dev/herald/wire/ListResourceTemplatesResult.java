package dev.herald.wire;

import com.fasterxml.jackson.annotation.JsonProperty;
import java.util.List;
import org.jspecify.annotations.Nullable;
import tools.jackson.databind.node.ObjectNode;

/** Result of {@code resources/templates/list}: one page, with 2026-07-28 caching hints when present. */
public record ListResourceTemplatesResult(
    List<ResourceTemplate> resourceTemplates,
    @Nullable String nextCursor,
    @Nullable Long ttlMs,
    @Nullable CacheScope cacheScope,
    @JsonProperty("_meta") @Nullable ObjectNode meta)
    implements CacheableResult {

  public ListResourceTemplatesResult {
    resourceTemplates = resourceTemplates == null ? List.of() : List.copyOf(resourceTemplates);
  }

  public static ListResourceTemplatesResult of(
      List<ResourceTemplate> templates, @Nullable String nextCursor) {
    return new ListResourceTemplatesResult(templates, nextCursor, null, null, null);
  }
}
