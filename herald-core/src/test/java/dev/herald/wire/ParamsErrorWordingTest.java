package dev.herald.wire;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;
import tools.jackson.databind.node.ObjectNode;

/** Decoding failures are told in the protocol's terms: a field path and JSON types. */
class ParamsErrorWordingTest {

  private static String failure(String json, Class<?> type) {
    ObjectNode tree = McpJson.mapper().readValue(json, ObjectNode.class);
    try {
      McpJson.fromTree(tree, type);
    } catch (McpException e) {
      assertThat(e.code()).isEqualTo(ErrorCodes.INVALID_PARAMS);
      return e.getMessage();
    }
    throw new AssertionError("decoded: " + json);
  }

  @Test
  void nestedArrayElementsAreNamedByIndex() {
    assertThat(
            failure(
                "{\"messages\":[{\"role\":\"user\",\"content\":{\"type\":\"text\",\"text\":\"a\"}},{\"role\":5}],\"maxTokens\":1}",
                CreateMessageParams.class))
        .startsWith("Invalid params: messages[1].role")
        .doesNotContain("java.", "dev.herald", "Exception", "`", "<");
  }

  @Test
  void aStringIsNeverReadAsANumberNorANumberAsAString() {
    assertThat(failure("{\"maxTokens\":\"10\",\"messages\":[]}", CreateMessageParams.class))
        .isEqualTo("Invalid params: maxTokens: expected integer, got string");
    assertThat(failure("{\"uri\":1.5}", ReadResourceParams.class))
        .isEqualTo("Invalid params: uri: expected string, got number");
  }

  @Test
  void aMissingRequiredFieldIsNamed() {
    assertThat(failure("{}", ReadResourceParams.class))
        .isEqualTo("Invalid params: uri is required");
  }

  @Test
  void nonIdentifierKeysAreQuotedAndCapped() {
    assertThatThrownBy(() ->
            McpJson.fromTree(
                McpJson.mapper()
                    .readValue("{\"capabilities\":{\"experimental\":5}}", ObjectNode.class),
                InitializeParams.class))
        .isInstanceOf(McpException.class)
        .hasMessageNotContaining("java.");
  }
}
