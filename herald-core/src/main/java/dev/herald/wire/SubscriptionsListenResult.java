package dev.herald.wire;

import com.fasterxml.jackson.annotation.JsonProperty;
import tools.jackson.databind.node.ObjectNode;

/**
 * Result of {@code subscriptions/listen} (2026-07-28): sent when the server ends the stream
 * gracefully. Its {@code _meta} is required and names the {@code subscriptionId}.
 */
public record SubscriptionsListenResult(@JsonProperty("_meta") ObjectNode meta) {

  public SubscriptionsListenResult {
    java.util.Objects.requireNonNull(meta, "_meta");
    if (MetaKeys.subscriptionId(meta) == null) {
      throw new IllegalArgumentException("_meta must carry " + MetaKeys.SUBSCRIPTION_ID);
    }
  }

  public static SubscriptionsListenResult of(RequestId subscriptionId) {
    ObjectNode meta = McpJson.object();
    meta.set(MetaKeys.SUBSCRIPTION_ID, McpJson.toTree(subscriptionId));
    return new SubscriptionsListenResult(meta);
  }

  public RequestId subscriptionId() {
    return java.util.Objects.requireNonNull(MetaKeys.subscriptionId(meta));
  }
}
