package dev.herald.server;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;

/** {@code initialize} reads its params strictly: a wrong type is -32602 and opens no session. */
class InitializeStrictnessTest {

  @Test
  void aNumericProtocolVersionIsInvalidParamsAndTheSessionStaysUninitialized() throws Exception {
    try (RawStdio raw = RawStdio.connect(McpServer.builder().build())) {
      JsonNode answer =
          raw.call(
              1,
              "initialize",
              "{\"protocolVersion\":5,\"capabilities\":{},\"clientInfo\":{\"name\":\"x\",\"version\":\"1\"}}");
      assertThat(answer.get("result")).isNull();
      assertThat(answer.get("error").get("code").intValue()).isEqualTo(-32602);
      assertThat(answer.get("error").get("message").stringValue())
          .isEqualTo("Invalid params: protocolVersion: expected string, got integer");
      assertThat(raw.session.state()).isEqualTo(ServerSession.State.NEW);
      // a correct initialize afterwards still works
      JsonNode ok =
          raw.call(
              2,
              "initialize",
              "{\"protocolVersion\":\"2025-11-25\",\"capabilities\":{},\"clientInfo\":{\"name\":\"x\",\"version\":\"1\"}}");
      assertThat(ok.get("result").get("protocolVersion").stringValue()).isEqualTo("2025-11-25");
    }
  }

  @Test
  void aBooleanOrFractionalFieldIsNeverCoerced() throws Exception {
    try (RawStdio raw = RawStdio.initialized(McpServer.builder().build())) {
      JsonNode answer = raw.call(1, "tools/list", "{\"cursor\":true}");
      assertThat(answer.get("error").get("code").intValue()).isEqualTo(-32602);
      assertThat(answer.get("error").get("message").stringValue())
          .isEqualTo("Invalid params: cursor: expected string, got boolean");
    }
  }
}
