package dev.herald.wire;

import com.fasterxml.jackson.annotation.JsonProperty;
import org.jspecify.annotations.Nullable;
import tools.jackson.databind.node.ObjectNode;

/**
 * Params of {@code resources/read}. {@code inputResponses} and {@code requestState} are the
 * 2026-07-28 multi round-trip retry fields; they are absent on a first attempt and in legacy eras.
 */
public record ReadResourceParams(
    String uri,
    @Nullable InputResponses inputResponses,
    @Nullable String requestState,
    @JsonProperty("_meta") @Nullable ObjectNode meta) {

  public ReadResourceParams {
    java.util.Objects.requireNonNull(uri, "uri");
  }

  public static ReadResourceParams of(String uri) {
    return new ReadResourceParams(uri, null, null, null);
  }
}
