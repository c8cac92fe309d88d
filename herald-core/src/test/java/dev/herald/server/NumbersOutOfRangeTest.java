package dev.herald.server;

import static org.assertj.core.api.Assertions.assertThat;

import dev.herald.wire.CallToolResult;
import dev.herald.wire.McpJson;
import dev.herald.wire.Tool;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * A tool argument that conforms to JSON Schema's unbounded {@code integer} or {@code number} but
 * that no handler can hold is an invalid-arguments result, never a default or an infinity.
 */
class NumbersOutOfRangeTest {
  public record Typed(double ratio, long count) {}

  static McpServer server() {
    ObjectNode schema =
        McpJson.mapper()
            .readValue(
                "{\"type\":\"object\",\"properties\":{\"steps\":{\"type\":\"integer\"},\"weight\":{\"type\":\"number\"},"
                    + "\"list\":{\"type\":\"array\",\"items\":{\"type\":\"integer\"}}}}",
                ObjectNode.class);
    return McpServer.builder()
        .tool(
            Tool.builder("steps").description("echoes its arguments").inputSchema(schema).build(),
            call -> CallToolResult.text("ran with " + call.arguments()))
        .tool("typed", "typed", Typed.class, (args, ctx) -> CallToolResult.text("ran with " + args))
        .build();
  }

  private static JsonNode call(RawStdio raw, int id, String tool, String args) throws Exception {
    JsonNode answer =
        raw.call(id, "tools/call", "{\"name\":\"" + tool + "\",\"arguments\":" + args + "}");
    assertThat(answer.get("result")).as("%s", answer).isNotNull();
    return answer.get("result");
  }

  private static void refused(JsonNode result, String expected) {
    assertThat(result.get("isError").booleanValue()).as("%s", result).isTrue();
    assertThat(result.get("content").get(0).get("text").stringValue())
        .contains(expected)
        .doesNotContain("ran with");
  }

  @Test
  void anIntegerBeyondALongOrANumberBeyondADoubleIsInvalidArguments() throws Exception {
    try (RawStdio raw = RawStdio.initialized(server())) {
      refused(call(raw, 1, "steps", "{\"steps\":1e999999999}"), "$.steps: number out of range");
      refused(
          call(raw, 2, "steps", "{\"steps\":123456789012345678901234567890}"),
          "$.steps: integer out of range");
      refused(
          call(raw, 3, "steps", "{\"steps\":9223372036854775808}"),
          "$.steps: integer out of range");
      refused(call(raw, 4, "steps", "{\"weight\":1e400}"), "$.weight: number out of range");
      refused(call(raw, 5, "steps", "{\"weight\":-1.5e309}"), "$.weight: number out of range");
      refused(call(raw, 6, "steps", "{\"list\":[1,2,1e20]}"), "$.list[2]: integer out of range");
      refused(
          call(raw, 7, "steps", "{\"other\":{\"deep\":[1E+999999999]}}"),
          "$.other.deep[0]: number out of range");
      refused(
          call(raw, 8, "typed", "{\"ratio\":1e999,\"count\":1}"), "$.ratio: number out of range");
      refused(
          call(raw, 9, "typed", "{\"ratio\":1,\"count\":1e19}"), "$.count: integer out of range");
    }
  }

  @Test
  void numbersAtTheEdgesOfTheirRangeStillRun() throws Exception {
    try (RawStdio raw = RawStdio.initialized(server())) {
      JsonNode ok =
          call(
              raw,
              1,
              "steps",
              "{\"steps\":9223372036854775807,\"weight\":1.7e308,\"list\":[-9223372036854775808, 1.0e3]}");
      assertThat(ok.get("isError")).as("%s", ok).isNull();
      assertThat(ok.get("content").get(0).get("text").stringValue()).startsWith("ran with");
      JsonNode tiny = call(raw, 2, "steps", "{\"weight\":1e-999999999,\"steps\":0}");
      assertThat(tiny.get("isError")).as("%s", tiny).isNull();
    }
  }
}
