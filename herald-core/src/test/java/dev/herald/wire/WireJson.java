package dev.herald.wire;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Comparator;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * Golden-JSON helpers for wire tests. Trees are compared structurally; numbers compare by value
 * ({@code 10} read as an int equals {@code 10} written from a {@code Long}), everything else exactly,
 * so {@code 1} and {@code "1"} stay different.
 */
final class WireJson {
  private WireJson() {}

  private static final Comparator<JsonNode> SAME_VALUE =
      (a, b) ->
          a.isNumber() && b.isNumber()
              ? a.decimalValue().compareTo(b.decimalValue())
              : a.equals(b) ? 0 : 1;

  static JsonNode tree(String json) {
    return McpJson.mapper().readTree(json);
  }

  static <T> T decode(String json, Class<T> type) {
    return McpJson.fromTree(tree(json), type);
  }

  /**
   * Decodes {@code json} as {@code type}, re-encodes it and asserts the result equals the input,
   * minus the top-level members named in {@code notModelled} (which must then be absent from the
   * output). Returns the decoded record.
   */
  static <T> T assertRoundTrip(String json, Class<T> type, String... notModelled) {
    JsonNode original = tree(json);
    T value = McpJson.fromTree(original, type);
    assertThat(value).isInstanceOf(type);
    JsonNode encoded = McpJson.toTree(value);
    JsonNode expected = original;
    if (notModelled.length > 0) {
      ObjectNode copy = (ObjectNode) original.deepCopy();
      for (String name : notModelled) {
        copy.remove(name);
        assertThat(encoded.has(name)).as("%s is not modelled, so not written", name).isFalse();
      }
      expected = copy;
    }
    assertSameJson(encoded, expected);
    return value;
  }

  static void assertSameJson(JsonNode actual, JsonNode expected) {
    assertThat(actual.equals(SAME_VALUE, expected))
        .as("JSON differs:%n  actual:   %s%n  expected: %s", actual, expected)
        .isTrue();
  }

  static void assertSameJson(Object value, String expectedJson) {
    assertSameJson(McpJson.toTree(value), tree(expectedJson));
  }
}
