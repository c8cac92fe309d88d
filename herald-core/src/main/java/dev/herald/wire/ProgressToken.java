package dev.herald.wire;

import com.fasterxml.jackson.annotation.JsonCreator;
import com.fasterxml.jackson.annotation.JsonValue;
import tools.jackson.databind.JsonNode;

/**
 * A progress token that keeps its JSON type: {@code 7} and {@code "7"} are different tokens.
 *
 * <p>Tokens are strings or integers ({@code _meta.progressToken}). Tokens that Herald generates
 * are 128-bit random strings (SA-MCP-PRG-001), see {@code ProgressTokens}.
 */
public sealed interface ProgressToken permits ProgressToken.Text, ProgressToken.Number {

  /** A string token. */
  record Text(String value) implements ProgressToken {
    public Text {
      java.util.Objects.requireNonNull(value, "value");
    }

    @JsonValue
    @Override
    public String value() {
      return value;
    }

    @Override
    public String toString() {
      return '"' + value + '"';
    }
  }

  /** An integer token. */
  record Number(long value) implements ProgressToken {
    @JsonValue
    @Override
    public long value() {
      return value;
    }

    @Override
    public String toString() {
      return Long.toString(value);
    }
  }

  static ProgressToken of(String value) {
    return new Text(value);
  }

  static ProgressToken of(long value) {
    return new Number(value);
  }

  /**
   * Reads a token from JSON.
   *
   * @throws IllegalArgumentException if the node is not a string or an integer that fits a long
   */
  @JsonCreator(mode = JsonCreator.Mode.DELEGATING)
  static ProgressToken fromJson(JsonNode node) {
    if (node != null && node.isString()) {
      return new Text(node.stringValue());
    }
    if (node != null && node.isIntegralNumber() && node.canConvertToLong()) {
      return new Number(node.longValue());
    }
    throw new IllegalArgumentException("progressToken must be a string or an integer");
  }
}
