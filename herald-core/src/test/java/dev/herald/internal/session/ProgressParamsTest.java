package dev.herald.internal.session;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.herald.wire.McpException;
import dev.herald.wire.McpJson;
import dev.herald.wire.ProgressNotificationParams;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import tools.jackson.databind.node.ObjectNode;

/**
 * The params of {@code notifications/progress} read off the tree (the usual shape) are the record
 * the mapper reads, and every other shape is the mapper's, errors included.
 */
class ProgressParamsTest {

  @ParameterizedTest
  @ValueSource(
      strings = {
        "{\"progressToken\":\"t\",\"progress\":1}",
        "{\"progressToken\":7,\"progress\":1.50,\"total\":10}",
        "{\"progressToken\":\"t\",\"progress\":0.1,\"total\":1e3,\"message\":\"half ☃\"}",
        "{\"progress\":2,\"progressToken\":\"t\",\"total\":null,\"message\":null}",
        "{\"progressToken\":\"t\",\"progress\":12345678901234567890}",
        "{\"progressToken\":\"t\",\"progress\":3,\"other\":[1,2]}",
        "{\"progressToken\":\"t\",\"progress\":3,\"_meta\":{\"k\":1}}"
      })
  void paramsReadAsTheMapperReadsThem(String json) {
    ObjectNode params = (ObjectNode) McpJson.mapper().readTree(json);

    assertThat(ProgressParams.read(params))
        .isEqualTo(McpJson.fromTree(params, ProgressNotificationParams.class));
  }

  @ParameterizedTest
  @ValueSource(
      strings = {
        "{\"progressToken\":\"t\"}",
        "{\"progress\":1}",
        "{\"progressToken\":1.5,\"progress\":1}",
        "{\"progressToken\":\"t\",\"progress\":\"1\"}",
        "{\"progressToken\":\"t\",\"progress\":1,\"total\":\"2\"}",
        "{\"progressToken\":\"t\",\"progress\":1,\"message\":3}"
      })
  void malformedParamsFailAsTheMapperFails(String json) {
    ObjectNode params = (ObjectNode) McpJson.mapper().readTree(json);
    String expected = mapperFailure(params);

    assertThatThrownBy(() -> ProgressParams.read(params))
        .isInstanceOf(McpException.class)
        .hasMessage(expected);
  }

  private static String mapperFailure(ObjectNode params) {
    try {
      McpJson.fromTree(params, ProgressNotificationParams.class);
    } catch (McpException e) {
      return e.getMessage();
    }
    throw new AssertionError("the mapper read " + params);
  }
}
