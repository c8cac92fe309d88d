package dev.herald.wire;

import com.fasterxml.jackson.annotation.JsonProperty;
import java.util.List;
import org.jspecify.annotations.Nullable;
import tools.jackson.databind.node.ObjectNode;

/** Result of {@code tools/list}: one page, with 2026-07-28 caching hints when present. */
public record ListToolsResult(
    List<Tool> tools,
    @Nullable String nextCursor,
    @Nullable Long ttlMs,
    @Nullable CacheScope cacheScope,
    @JsonProperty("_meta") @Nullable ObjectNode meta)
    implements CacheableResult {

  public ListToolsResult {
    tools = tools == null ? List.of() : List.copyOf(tools);
  }

  /** A page without caching hints (legacy era). */
  public ListToolsResult(List<Tool> tools, @Nullable String nextCursor, @Nullable ObjectNode meta) {
    this(tools, nextCursor, null, null, meta);
  }

  public static ListToolsResult of(List<Tool> tools, @Nullable String nextCursor) {
    return new ListToolsResult(tools, nextCursor, null, null, null);
  }
}
