package dev.herald.wire;

import com.fasterxml.jackson.annotation.JsonProperty;
import org.jspecify.annotations.Nullable;
import tools.jackson.databind.node.ObjectNode;

/** Result of {@code initialize} (legacy era). */
public record InitializeResult(
    String protocolVersion,
    ServerCapabilities capabilities,
    Implementation serverInfo,
    @Nullable String instructions,
    @JsonProperty("_meta") @Nullable ObjectNode meta) {

  public InitializeResult {
    java.util.Objects.requireNonNull(protocolVersion, "protocolVersion");
    capabilities = capabilities == null ? ServerCapabilities.none() : capabilities;
    java.util.Objects.requireNonNull(serverInfo, "serverInfo");
  }
}
