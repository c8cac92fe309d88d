package dev.herald.wire;

import com.fasterxml.jackson.annotation.JsonProperty;
import org.jspecify.annotations.Nullable;
import tools.jackson.databind.node.ObjectNode;

/** Params of {@code initialize} (legacy era). */
public record InitializeParams(
    String protocolVersion,
    ClientCapabilities capabilities,
    Implementation clientInfo,
    @JsonProperty("_meta") @Nullable ObjectNode meta) {

  public InitializeParams {
    java.util.Objects.requireNonNull(protocolVersion, "protocolVersion");
    capabilities = capabilities == null ? ClientCapabilities.none() : capabilities;
    java.util.Objects.requireNonNull(clientInfo, "clientInfo");
  }
}
