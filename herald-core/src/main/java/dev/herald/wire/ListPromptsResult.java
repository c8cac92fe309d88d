package dev.herald.wire;

import com.fasterxml.jackson.annotation.JsonProperty;
import java.util.List;
import org.jspecify.annotations.Nullable;
import tools.jackson.databind.node.ObjectNode;

/** Result of {@code prompts/list}: one page, with 2026-07-28 caching hints when present. */
public record ListPromptsResult(
    List<Prompt> prompts,
    @Nullable String nextCursor,
    @Nullable Long ttlMs,
    @Nullable CacheScope cacheScope,
    @JsonProperty("_meta") @Nullable ObjectNode meta)
    implements CacheableResult {

  public ListPromptsResult {
    prompts = prompts == null ? List.of() : List.copyOf(prompts);
  }

  public static ListPromptsResult of(List<Prompt> prompts, @Nullable String nextCursor) {
    return new ListPromptsResult(prompts, nextCursor, null, null, null);
  }
}
