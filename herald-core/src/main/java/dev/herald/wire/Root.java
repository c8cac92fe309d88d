package dev.herald.wire;

import com.fasterxml.jackson.annotation.JsonProperty;
import org.jspecify.annotations.Nullable;
import tools.jackson.databind.node.ObjectNode;

/** A root directory or file the client exposes, as returned by {@code roots/list} (MCP {@code Root}). */
public record Root(
    String uri, @Nullable String name, @JsonProperty("_meta") @Nullable ObjectNode meta) {
  public Root {
    java.util.Objects.requireNonNull(uri, "uri");
  }

  public static Root of(String uri, @Nullable String name) {
    return new Root(uri, name, null);
  }
}
