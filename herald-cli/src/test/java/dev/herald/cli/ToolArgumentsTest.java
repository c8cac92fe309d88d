package dev.herald.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.herald.wire.McpJson;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.node.ObjectNode;

class ToolArgumentsTest {
  private static final ObjectNode SCHEMA =
      (ObjectNode)
          McpJson.mapper()
              .readTree(
                  """
                  {"type":"object","properties":{
                    "text":{"type":"string"},"steps":{"type":"integer"},"ratio":{"type":"number"},
                    "flag":{"type":"boolean"},"tags":{"type":"array"},"either":{"type":["integer","string"]}}}\
                  """);

  private static String build(String... pairs) throws Exception {
    return ToolArguments.build(ToolArguments.parse(List.of(pairs)), McpJson.object(), SCHEMA)
        .toString();
  }

  @Test
  void valuesWithoutASchemaAreJsonWhenValidJsonElsePlainStrings() throws Exception {
    ObjectNode args =
        ToolArguments.build(
            ToolArguments.parse(
                List.of(
                    "n=5", "b=true", "o={\"a\":1}", "a=[1,2]", "q=\"5\"", "s=hello world", "e=")),
            McpJson.object(),
            null);
    assertThat(args.toString())
        .isEqualTo(
            "{\"n\":5,\"b\":true,\"o\":{\"a\":1},\"a\":[1,2],\"q\":\"5\",\"s\":\"hello world\",\"e\":\"\"}");
  }

  @Test
  void theSchemaTypesEachValue() throws Exception {
    assertThat(build("text=5", "steps=5", "ratio=0.5", "flag=false", "tags=[\"x\"]", "either=7"))
        .isEqualTo(
            "{\"text\":\"5\",\"steps\":5,\"ratio\":0.5,\"flag\":false,\"tags\":[\"x\"],\"either\":7}");
    assertThat(build("text=\"quoted\"", "either=seven"))
        .isEqualTo("{\"text\":\"quoted\",\"either\":\"seven\"}");
  }

  @Test
  void aValueThatDoesNotFitItsPropertyIsRefused() {
    assertThatThrownBy(() -> build("steps=5.5"))
        .hasMessage("argument 'steps' must be an integer, not '5.5'");
    assertThatThrownBy(() -> build("flag=yes"))
        .hasMessage("argument 'flag' must be a boolean, not 'yes'");
  }

  @Test
  void malformedPairsAreRefusedBeforeAnySchemaIsKnown() {
    assertThatThrownBy(() -> ToolArguments.parse(List.of("novalue")))
        .hasMessage("bad argument 'novalue': expected key=value");
    assertThatThrownBy(() -> ToolArguments.parse(List.of("=x")))
        .hasMessage("bad argument '=x': the key before '=' is empty");
    assertThatThrownBy(() -> ToolArguments.parse(List.of("a=1", "a=2")))
        .hasMessage("argument 'a' is given twice");
  }

  @Test
  void pairsAreSetOverTheJsonObject() throws Exception {
    ObjectNode base = ToolArguments.parseJson("{\"steps\": 3, \"delayMs\": 10}");
    assertThat(ToolArguments.build(Map.of("steps", "4"), base, SCHEMA).toString())
        .isEqualTo("{\"steps\":4,\"delayMs\":10}");
    assertThatThrownBy(() -> ToolArguments.parseJson("[1]"))
        .hasMessageStartingWith("--json must be a JSON object");
    assertThatThrownBy(() -> ToolArguments.parseJson("{nope"))
        .hasMessageStartingWith("--json is not valid JSON");
  }
}
