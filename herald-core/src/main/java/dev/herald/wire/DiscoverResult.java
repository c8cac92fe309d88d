package dev.herald.wire;

import com.fasterxml.jackson.annotation.JsonProperty;
import java.util.List;
import org.jspecify.annotations.Nullable;
import tools.jackson.databind.node.ObjectNode;

/**
 * Result of {@code server/discover} (2026-07-28 {@code DiscoverResult}): supported versions,
 * capabilities, instructions and caching hints; {@code _meta} should carry the server's
 * {@link MetaKeys#SERVER_INFO}.
 */
public record DiscoverResult(
    List<String> supportedVersions,
    ServerCapabilities capabilities,
    @Nullable String instructions,
    @Nullable Long ttlMs,
    @Nullable CacheScope cacheScope,
    @JsonProperty("_meta") @Nullable ObjectNode meta)
    implements CacheableResult {

  public DiscoverResult {
    supportedVersions =
        List.copyOf(java.util.Objects.requireNonNull(supportedVersions, "supportedVersions"));
    capabilities = capabilities == null ? ServerCapabilities.none() : capabilities;
  }

  /** {@code _meta["io.modelcontextprotocol/serverInfo"]}, or {@code null}. */
  public @Nullable Implementation serverInfo() {
    return MetaKeys.serverInfo(meta);
  }
}
