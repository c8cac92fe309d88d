package dev.herald.wire;

import com.fasterxml.jackson.annotation.JsonProperty;
import org.jspecify.annotations.Nullable;
import tools.jackson.databind.node.ObjectNode;

/** Params of {@code subscriptions/listen} (2026-07-28): the notifications the client wants on this stream. */
public record SubscriptionsListenParams(
    SubscriptionFilter notifications, @JsonProperty("_meta") @Nullable ObjectNode meta) {

  public SubscriptionsListenParams {
    java.util.Objects.requireNonNull(notifications, "notifications");
  }

  public static SubscriptionsListenParams of(SubscriptionFilter notifications) {
    return new SubscriptionsListenParams(notifications, null);
  }
}
