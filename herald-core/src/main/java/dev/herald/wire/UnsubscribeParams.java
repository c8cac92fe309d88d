package dev.herald.wire;

import com.fasterxml.jackson.annotation.JsonProperty;
import org.jspecify.annotations.Nullable;
import tools.jackson.databind.node.ObjectNode;

/** Params of {@code resources/unsubscribe} (legacy era). */
public record UnsubscribeParams(String uri, @JsonProperty("_meta") @Nullable ObjectNode meta) {
  public UnsubscribeParams {
    java.util.Objects.requireNonNull(uri, "uri");
  }

  public static UnsubscribeParams of(String uri) {
    return new UnsubscribeParams(uri, null);
  }
}
