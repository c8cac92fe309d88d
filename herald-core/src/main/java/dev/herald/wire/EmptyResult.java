package dev.herald.wire;

import com.fasterxml.jackson.annotation.JsonProperty;
import org.jspecify.annotations.Nullable;
import tools.jackson.databind.node.ObjectNode;

/**
 * MCP {@code EmptyResult}: only {@code _meta}. The answer to {@code ping}, {@code logging/setLevel},
 * {@code resources/subscribe}/{@code unsubscribe} and the tasks extension's update and cancel.
 */
public record EmptyResult(@JsonProperty("_meta") @Nullable ObjectNode meta) {
  private static final EmptyResult EMPTY = new EmptyResult(null);

  public static EmptyResult empty() {
    return EMPTY;
  }
}
