package dev.herald.wire;

import com.fasterxml.jackson.annotation.JsonProperty;
import java.util.List;
import org.jspecify.annotations.Nullable;
import tools.jackson.databind.node.ObjectNode;

/** Result of {@code resources/read}: text or blob contents, with 2026-07-28 caching hints when present. */
public record ReadResourceResult(
    List<ResourceContents> contents,
    @Nullable Long ttlMs,
    @Nullable CacheScope cacheScope,
    @JsonProperty("_meta") @Nullable ObjectNode meta)
    implements CacheableResult {

  public ReadResourceResult {
    contents = contents == null ? List.of() : List.copyOf(contents);
  }

  public static ReadResourceResult of(List<ResourceContents> contents) {
    return new ReadResourceResult(contents, null, null, null);
  }

  public static ReadResourceResult of(ResourceContents contents) {
    return of(List.of(contents));
  }
}
