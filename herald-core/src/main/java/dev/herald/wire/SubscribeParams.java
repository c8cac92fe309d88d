package dev.herald.wire;

import com.fasterxml.jackson.annotation.JsonProperty;
import org.jspecify.annotations.Nullable;
import tools.jackson.databind.node.ObjectNode;

/** Params of {@code resources/subscribe} (legacy era; 2026-07-28 uses {@code subscriptions/listen}). */
public record SubscribeParams(String uri, @JsonProperty("_meta") @Nullable ObjectNode meta) {
  public SubscribeParams {
    java.util.Objects.requireNonNull(uri, "uri");
  }

  public static SubscribeParams of(String uri) {
    return new SubscribeParams(uri, null);
  }
}
