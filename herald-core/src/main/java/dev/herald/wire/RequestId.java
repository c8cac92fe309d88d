package dev.herald.wire;

import com.fasterxml.jackson.annotation.JsonCreator;
import com.fasterxml.jackson.annotation.JsonValue;
import tools.jackson.databind.JsonNode;

/**
 * A JSON-RPC request id that keeps its JSON type: {@code 1} and {@code "1"} are different ids.
 *
 * <p>Ids are strings or integers (JSON-RPC 2.0; MCP forbids {@code null}). Integers outside the
 * range of {@code long} and fractional numbers are refused by {@link #fromJson(JsonNode)}.
 */
public sealed interface RequestId permits RequestId.Text, RequestId.Number {

  /** A string id. */
  record Text(String value) implements RequestId {
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

    // equals and hashCode by hand, as the record's own would be: the record's are linked on their
    // first call by spinning method-handle classes, tens of milliseconds before a cold process's
    // first answer (docs/benchmarks.md, "Cold start")
    @Override
    public boolean equals(Object o) {
      return o instanceof Text t && value.equals(t.value);
    }

    @Override
    public int hashCode() {
      return value.hashCode();
    }
  }

  /** An integer id. */
  record Number(long value) implements RequestId {
    @JsonValue
    @Override
    public long value() {
      return value;
    }

    @Override
    public String toString() {
      return Long.toString(value);
    }

    // by hand, as Text's
    @Override
    public boolean equals(Object o) {
      return o instanceof Number n && value == n.value;
    }

    @Override
    public int hashCode() {
      return Long.hashCode(value);
    }
  }

  static RequestId of(String value) {
    return new Text(value);
  }

  static RequestId of(long value) {
    return new Number(value);
  }

  /**
   * Reads an id from JSON.
   *
   * @throws IllegalArgumentException if the node is not a string or an integer that fits a long
   */
  @JsonCreator(mode = JsonCreator.Mode.DELEGATING)
  static RequestId fromJson(JsonNode node) {
    if (node != null && node.isString()) {
      return new Text(node.stringValue());
    }
    if (node != null && node.isIntegralNumber() && node.canConvertToLong()) {
      return new Number(node.longValue());
    }
    throw new IllegalArgumentException("id must be a string or an integer");
  }
}
