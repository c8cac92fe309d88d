package dev.herald.wire;

import com.fasterxml.jackson.annotation.JsonProperty;
import org.jspecify.annotations.Nullable;
import tools.jackson.databind.node.ObjectNode;

/**
 * Params of {@code notifications/subscriptions/acknowledged} (2026-07-28): the subset of the
 * requested filter the server will honour; {@code _meta} carries the {@code subscriptionId}.
 */
public record SubscriptionsAcknowledgedParams(
    SubscriptionFilter notifications, @JsonProperty("_meta") @Nullable ObjectNode meta) {

  public SubscriptionsAcknowledgedParams {
    java.util.Objects.requireNonNull(notifications, "notifications");
  }

  public static SubscriptionsAcknowledgedParams of(
      SubscriptionFilter honoured, RequestId subscriptionId) {
    ObjectNode meta = McpJson.object();
    meta.set(MetaKeys.SUBSCRIPTION_ID, McpJson.toTree(subscriptionId));
    return new SubscriptionsAcknowledgedParams(honoured, meta);
  }

  public @Nullable RequestId subscriptionId() {
    return MetaKeys.subscriptionId(meta);
  }
}
