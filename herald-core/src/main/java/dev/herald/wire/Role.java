package dev.herald.wire;

import com.fasterxml.jackson.annotation.JsonCreator;
import com.fasterxml.jackson.annotation.JsonValue;
import java.util.Locale;
import java.util.Optional;

/** The MCP {@code Role} of a prompt or sampling message: {@code user} or {@code assistant}. */
public enum Role {
  USER,
  ASSISTANT;

  @JsonValue
  public String wire() {
    return name().toLowerCase(Locale.ROOT);
  }

  public static Optional<Role> parse(String wire) {
    for (Role r : values()) {
      if (r.wire().equals(wire)) {
        return Optional.of(r);
      }
    }
    return Optional.empty();
  }

  @JsonCreator
  static Role fromJson(String wire) {
    return parse(wire).orElseThrow(() -> new IllegalArgumentException("unknown role: " + wire));
  }
}
