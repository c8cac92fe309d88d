package dev.herald.server;

import static org.assertj.core.api.Assertions.assertThat;

import dev.herald.wire.JsonGen;
import dev.herald.wire.McpJson;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * The schema shortcut only ever says "conforms" where the validator finds nothing, and is not
 * asked about schemas it cannot read; the validator still words every failure.
 */
class SchemaShortcutTest {
  private static final List<String> SCHEMAS =
      List.of(
          "{\"type\":\"object\"}",
          "{}",
          "{\"type\":\"object\",\"properties\":{\"text\":{\"type\":\"string\"}},\"required\":[\"text\"]}",
          "{\"type\":\"object\",\"properties\":{\"a\":{\"type\":\"integer\",\"minimum\":0,\"maximum\":10}},"
              + "\"additionalProperties\":false}",
          "{\"type\":\"object\",\"properties\":{\"a\":{\"type\":[\"string\",\"null\"],\"minLength\":1,"
              + "\"maxLength\":3}},\"additionalProperties\":{\"type\":\"boolean\"}}",
          "{\"type\":\"object\",\"properties\":{\"name\":{\"enum\":[\"a\",\"b\",null,true]},"
              + "\"id\":{\"type\":\"number\",\"exclusiveMinimum\":-1.5,\"exclusiveMaximum\":3}}}",
          "{\"type\":\"object\",\"properties\":{\"arguments\":{\"type\":\"array\",\"items\":"
              + "{\"type\":\"object\",\"properties\":{\"value\":{\"type\":\"integer\"}}}}}}",
          "{\"$schema\":\"https://json-schema.org/draft/2020-12/schema\",\"type\":\"object\","
              + "\"title\":\"t\",\"description\":\"d\",\"x-mcp-header\":\"h\",\"properties\":{\"_meta\":"
              + "{\"type\":\"object\",\"default\":{},\"deprecated\":false}},\"required\":[\"_meta\"]}",
          "{\"type\":\"object\",\"properties\":{\"uri\":{\"type\":\"string\",\"format\":\"uri\"}}}",
          "{\"type\":\"object\",\"patternProperties\":{\"^a\":{\"type\":\"string\"}}}",
          "{\"type\":\"object\",\"properties\":{\"level\":{\"const\":\"x\"}}}",
          "{\"type\":\"object\",\"properties\":{\"total\":{\"type\":\"integer\"},"
              + "\"progress\":{\"type\":\"number\",\"minimum\":0}},\"required\":[\"progress\"]}");

  @Test
  void theShortcutAcceptsOnlyWhatTheValidatorAccepts() {
    Random random = new Random(3);
    int accepted = 0;
    int checked = 0;
    for (String text : SCHEMAS) {
      ObjectNode schema = (ObjectNode) McpJson.mapper().readTree(text);
      ToolSchema tool = ToolSchema.compile(schema, "test schema");
      if (!SchemaShortcut.applies(schema)) {
        continue;
      }
      for (int i = 0; i < 3_000; i++) {
        JsonNode instance =
            i % 3 == 0
                ? JsonGen.object(random, 3)
                : McpJson.mapper().readTree(JsonGen.object(random, 3).toString());
        if (SchemaShortcut.accepts(schema, instance)) {
          accepted++;
          assertThat(tool.validatorCheck(instance)).as("%s against %s", instance, text).isEmpty();
        }
        checked++;
        assertThat(tool.check(instance).isEmpty())
            .as("%s against %s", instance, text)
            .isEqualTo(
                tool.validatorCheck(instance).isEmpty() && NumberRange.allFit(schema, instance));
      }
    }
    assertThat(checked).isGreaterThan(10_000);
    assertThat(accepted).as("instances the shortcut accepted").isGreaterThan(3_000);
  }

  @Test
  void theUsualCallIsAcceptedAndAFailureIsStillWordedByTheValidator() {
    ObjectNode schema =
        (ObjectNode)
            McpJson.mapper()
                .readTree(
                    "{\"type\":\"object\",\"properties\":{\"text\":{\"type\":\"string\"}},"
                        + "\"required\":[\"text\"]}");
    ToolSchema tool = ToolSchema.compile(schema, "test schema");
    assertThat(SchemaShortcut.accepts(schema, McpJson.object().put("text", "hi"))).isTrue();
    assertThat(SchemaShortcut.accepts(schema, McpJson.object())).isFalse();
    assertThat(tool.check(McpJson.object()))
        .hasValueSatisfying(m -> assertThat(m).contains("text"));
    assertThat(tool.check(McpJson.object().put("text", 5)))
        .hasValueSatisfying(m -> assertThat(m).contains("$.text"));
  }

  @Test
  void anIntegerWrittenAsADecimalIsLeftToTheValidator() {
    ObjectNode schema =
        (ObjectNode)
            McpJson.mapper()
                .readTree("{\"type\":\"object\",\"properties\":{\"n\":{\"type\":\"integer\"}}}");
    JsonNode args = McpJson.mapper().readTree("{\"n\":1.0}");
    assertThat(SchemaShortcut.accepts(schema, args)).isFalse();
    assertThat(ToolSchema.compile(schema, "test schema").check(args))
        .isEqualTo(ToolSchema.compile(schema, "test schema").validatorCheck(args));
  }

  @Test
  void aFailureAtAMemberNamedEmptyIsReportedNotThrown() {
    ObjectNode schema =
        (ObjectNode)
            McpJson.mapper()
                .readTree("{\"type\":\"object\",\"additionalProperties\":{\"type\":\"string\"}}");
    assertThat(ToolSchema.compile(schema, "test schema").check(McpJson.object().put("", 1)))
        .isPresent();
  }

  @Test
  void otherDialectsAreNotAsked() {
    ObjectNode draft7 =
        McpJson.object()
            .put("$schema", "http://json-schema.org/draft-07/schema#")
            .put("type", "object");
    assertThat(SchemaShortcut.applies(draft7)).isFalse();
  }
}
