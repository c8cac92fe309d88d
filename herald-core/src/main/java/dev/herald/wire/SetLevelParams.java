package dev.herald.wire;

import com.fasterxml.jackson.annotation.JsonProperty;
import org.jspecify.annotations.Nullable;
import tools.jackson.databind.node.ObjectNode;

/** Params of {@code logging/setLevel}. The level stays a string so an unknown one can be answered with -32602. */
public record SetLevelParams(String level, @JsonProperty("_meta") @Nullable ObjectNode meta) {}
