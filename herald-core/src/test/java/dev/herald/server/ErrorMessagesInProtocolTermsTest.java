package dev.herald.server;

import static org.assertj.core.api.Assertions.assertThat;

import dev.herald.internal.session.MethodRow;
import dev.herald.wire.CallToolResult;
import dev.herald.wire.McpJson;
import dev.herald.wire.Tool;
import java.lang.reflect.ParameterizedType;
import java.lang.reflect.RecordComponent;
import java.lang.reflect.Type;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * Every server method, sent params of the wrong shape at every field it reads (and one level
 * below), answers in the protocol's terms: no Java class, package or exception name reaches the
 * peer.
 */
class ErrorMessagesInProtocolTermsTest {
  /** What must never appear in an answer: Java names and the parser's own vocabulary. */
  private static final Pattern INTERNALS =
      Pattern.compile(
          "java\\.|javax\\.|dev\\.herald|tools\\.jackson|com\\.fasterxml|com\\.networknt|Exception|<|`");

  private static final List<String> WRONG =
      List.of(
          "5",
          "-1",
          "1.5",
          "1e999999999",
          "123456789012345678901234567890",
          "\"text\"",
          "true",
          "[]",
          "[1,\"x\",{}]",
          "{}",
          "{\"a\":{\"b\":[1]}}",
          "null");

  public record Args(int steps, String name, List<Long> sizes, Place place) {}

  public record Place(String city, double lat) {}

  static McpServer server() {
    ObjectNode schema =
        McpJson.mapper()
            .readValue(
                "{\"type\":\"object\",\"properties\":{\"steps\":{\"type\":\"integer\"}}}",
                ObjectNode.class);
    return PromptsAndCompletionsTest.builder()
        .tool(
            Tool.builder("raw").description("raw").inputSchema(schema).build(),
            call -> CallToolResult.text("ok"))
        .tool("typed", "typed", Args.class, (args, ctx) -> CallToolResult.text("ok"))
        .build();
  }

  @Test
  void noAnswerToMalformedParamsOfAnyServerMethodNamesAJavaType() throws Exception {
    List<String> leaks = new ArrayList<>();
    int answers = 0;
    try (RawStdio raw = RawStdio.initialized(server())) {
      int id = 1;
      for (MethodRow<ServerSession, ?, ?> row : ServerMethods.ROWS) {
        if (row.kind() != MethodRow.Kind.REQUEST) {
          continue;
        }
        for (String params : variants(row.paramsType())) {
          JsonNode answer = raw.call(id++, row.method(), params);
          answers++;
          String text = answer.toString();
          if (INTERNALS.matcher(text).find()) {
            leaks.add(row.method() + " " + params + " -> " + text);
          }
        }
      }
      for (String args : variants(Args.class)) {
        for (String tool : List.of("typed", "raw")) {
          JsonNode answer =
              raw.call(
                  id++, "tools/call", "{\"name\":\"" + tool + "\",\"arguments\":" + args + "}");
          answers++;
          if (INTERNALS.matcher(answer.toString()).find()) {
            leaks.add("tools/call " + tool + " " + args + " -> " + answer);
          }
        }
      }
    }
    assertThat(answers).isGreaterThan(500);
    assertThat(leaks).as("answers naming Java internals").isEmpty();
  }

  @Test
  void aWrongTypeIsNamedByItsFieldPathAndItsJsonTypes() throws Exception {
    try (RawStdio raw = RawStdio.initialized(server())) {
      assertThat(
              message(
                  raw.call(
                      1,
                      "initialize",
                      "{\"protocolVersion\":\"2025-11-25\",\"capabilities\":{\"roots\":5},"
                          + "\"clientInfo\":{\"name\":\"x\",\"version\":\"1\"}}")))
          .isEqualTo("Invalid params: capabilities.roots: expected object, got integer");
      assertThat(
              message(
                  raw.call(
                      2,
                      "initialize",
                      "{\"protocolVersion\":\"2025-11-25\",\"capabilities\":{},\"clientInfo\":{\"version\":\"1\"}}")))
          .isEqualTo("Invalid params: clientInfo.name is required");
      assertThat(
              message(
                  raw.call(
                      3,
                      "completion/complete",
                      "{\"ref\":{\"name\":\"x\"},\"argument\":{\"name\":\"a\",\"value\":\"\"}}")))
          .isEqualTo("Invalid params: ref.type is missing or names no known kind");
      assertThat(
              message(
                  raw.call(
                      4,
                      "prompts/get",
                      "{\"name\":\"test_prompt_with_arguments\",\"arguments\":[1]}")))
          .isEqualTo("Invalid params: arguments: expected object, got array");
      assertThat(message(raw.call(5, "resources/read", "{\"uri\":5}")))
          .as("a number is not coerced to a string")
          .isEqualTo("Invalid params: uri: expected string, got integer");
      assertThat(message(raw.call(6, "logging/setLevel", "{\"level\":true}")))
          .isEqualTo("Invalid params: level: expected string, got boolean");
    }
  }

  private static String message(JsonNode answer) {
    assertThat(answer.get("error")).as("an error: %s", answer).isNotNull();
    assertThat(answer.get("error").get("code").intValue()).isEqualTo(-32602);
    return answer.get("error").get("message").stringValue();
  }

  /** Params objects with one field (or one field one level down) of each wrong shape. */
  private static Set<String> variants(Class<?> type) {
    Set<String> out = new LinkedHashSet<>();
    for (String w : WRONG) {
      if (!w.equals("null")) {
        out.add(w.startsWith("{") ? w : "{\"_meta\":" + w + "}");
      }
    }
    if (!type.isRecord()) {
      return out;
    }
    for (RecordComponent c : type.getRecordComponents()) {
      for (String w : WRONG) {
        out.add("{\"" + c.getName() + "\":" + w + "}");
        out.add("{\"" + c.getName() + "\":[" + w + "]}");
      }
      Class<?> inner = element(c.getGenericType());
      if (inner != null && inner.isRecord()) {
        for (RecordComponent ic : inner.getRecordComponents()) {
          for (String w : WRONG) {
            String one = "{\"" + ic.getName() + "\":" + w + "}";
            out.add("{\"" + c.getName() + "\":" + one + "}");
            out.add("{\"" + c.getName() + "\":[" + one + "]}");
            out.add("{\"" + c.getName() + "\":{\"k\":" + one + "}}");
          }
        }
      }
    }
    return out;
  }

  private static Class<?> element(Type t) {
    if (t instanceof Class<?> c) {
      return c;
    }
    if (t instanceof ParameterizedType p) {
      Type[] args = p.getActualTypeArguments();
      return element(args[args.length - 1]);
    }
    return null;
  }
}
