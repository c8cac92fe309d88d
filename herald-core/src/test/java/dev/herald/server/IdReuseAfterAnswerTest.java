package dev.herald.server;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;

/**
 * An id is free again as soon as its answer can be seen: a peer that sends its next request
 * with the same id right after reading the answer is never refused as "already in use".
 */
class IdReuseAfterAnswerTest {

  @Test
  void threeHundredBackToBackPingsWithOneIdOverStdioAreAllAnswered() throws Exception {
    try (RawStdio raw = RawStdio.initialized(McpServer.builder().build())) {
      List<String> refused = new ArrayList<>();
      for (int i = 0; i < 300; i++) {
        JsonNode answer = raw.call(7, "ping", "{}");
        if (answer.get("result") == null) {
          refused.add(i + ": " + answer);
        }
      }
      assertThat(refused).isEmpty();
    }
  }

  @Test
  void threeHundredBackToBackToolCallsWithOneIdOverStdioAreAllAnswered() throws Exception {
    McpServer server =
        McpServer.builder()
            .tool(
                dev.herald.wire.Tool.builder("quick").description("answers at once").build(),
                call -> dev.herald.wire.CallToolResult.text("ok"))
            .build();
    try (RawStdio raw = RawStdio.initialized(server)) {
      List<String> refused = new ArrayList<>();
      for (int i = 0; i < 300; i++) {
        JsonNode answer = raw.call("same", "tools/call", "{\"name\":\"quick\",\"arguments\":{}}");
        if (answer.get("result") == null) {
          refused.add(i + ": " + answer);
        }
      }
      assertThat(refused).isEmpty();
    }
  }
}
