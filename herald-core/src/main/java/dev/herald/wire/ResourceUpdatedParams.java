package dev.herald.wire;

import com.fasterxml.jackson.annotation.JsonProperty;
import org.jspecify.annotations.Nullable;
import tools.jackson.databind.node.ObjectNode;

/**
 * Params of {@code notifications/resources/updated}. In 2026-07-28 the {@code _meta} carries the
 * {@code subscriptionId} of the {@code subscriptions/listen} stream it is sent on.
 */
public record ResourceUpdatedParams(String uri, @JsonProperty("_meta") @Nullable ObjectNode meta) {
  public ResourceUpdatedParams {
    java.util.Objects.requireNonNull(uri, "uri");
  }

  public static ResourceUpdatedParams of(String uri) {
    return new ResourceUpdatedParams(uri, null);
  }

  /** {@code _meta["io.modelcontextprotocol/subscriptionId"]}, or {@code null}. */
  public @Nullable RequestId subscriptionId() {
    return MetaKeys.subscriptionId(meta);
  }
}
