package dev.herald.client;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.herald.wire.CallToolResult;
import dev.herald.wire.McpException;
import dev.herald.wire.McpJson;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import tools.jackson.databind.JsonNode;

/**
 * A {@code tools/call} result read off the tree (the common text-only shape) is the record the
 * mapper reads, and every other shape is the mapper's, errors included.
 */
class CallToolResultsTest {

  @ParameterizedTest
  @ValueSource(
      strings = {
        "{\"content\":[{\"type\":\"text\",\"text\":\"hi\"}]}",
        "{\"content\":[{\"type\":\"text\",\"text\":\"a\"},{\"type\":\"text\",\"text\":\"b\"}]}",
        "{\"content\":[{\"text\":\"é ☃\",\"type\":\"text\"}],\"isError\":true}",
        "{\"content\":[],\"isError\":false}",
        "{\"content\":[{\"type\":\"text\",\"text\":\"x\"}],\"isError\":null}",
        "{\"isError\":true,\"content\":[{\"type\":\"text\",\"text\":\"\"}]}",
        "{\"content\":[{\"type\":\"text\",\"text\":\"x\",\"annotations\":{\"priority\":0.5}}]}",
        "{\"content\":[{\"type\":\"text\",\"text\":\"x\",\"_meta\":{\"k\":1}}]}",
        "{\"content\":[{\"type\":\"image\",\"data\":\"AA==\",\"mimeType\":\"image/png\"}]}",
        "{\"content\":[{\"type\":\"text\",\"text\":\"x\"}],\"structuredContent\":{\"n\":1}}",
        "{\"content\":[{\"type\":\"text\",\"text\":\"x\"}],\"_meta\":{\"k\":\"v\"}}",
        "{\"content\":[{\"type\":\"text\",\"text\":\"x\"}],\"extra\":1}",
        "{}"
      })
  void aResultReadsAsTheMapperReadsIt(String json) {
    JsonNode tree = McpJson.mapper().readTree(json);

    assertThat(CallToolResults.fromTree(tree))
        .isEqualTo(McpJson.resultFromTree(tree, CallToolResult.class));
  }

  @ParameterizedTest
  @ValueSource(
      strings = {
        "{\"content\":[{\"type\":\"text\",\"text\":5}]}",
        "{\"content\":[{\"type\":\"text\"}]}",
        "{\"content\":[{\"type\":\"nope\",\"text\":\"x\"}]}",
        "{\"content\":[{\"type\":\"text\",\"text\":\"x\"}],\"isError\":\"yes\"}",
        "{\"content\":\"text\"}"
      })
  void aMalformedResultFailsAsTheMapperFails(String json) {
    JsonNode tree = McpJson.mapper().readTree(json);
    String expected = mapperFailure(tree);

    assertThatThrownBy(() -> CallToolResults.fromTree(tree))
        .isInstanceOf(McpException.class)
        .hasMessage(expected);
  }

  private static String mapperFailure(JsonNode tree) {
    try {
      McpJson.resultFromTree(tree, CallToolResult.class);
    } catch (McpException e) {
      return e.getMessage();
    }
    throw new AssertionError("the mapper read " + tree);
  }
}
