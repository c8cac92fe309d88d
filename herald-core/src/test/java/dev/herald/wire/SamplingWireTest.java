package dev.herald.wire;

import static dev.herald.wire.WireJson.assertRoundTrip;
import static dev.herald.wire.WireJson.assertSameJson;
import static dev.herald.wire.WireJson.decode;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.List;
import org.junit.jupiter.api.Test;

/** Golden JSON from the 2025-11-25 client/sampling page and the 2026-07-28 schema examples. */
class SamplingWireTest {

  @Test
  void basicCreateMessageParamsRoundTrip() {
    CreateMessageParams p =
        assertRoundTrip(
            """
            {"messages":[{"role":"user","content":{"type":"text","text":"What is the capital of France?"}}],
             "modelPreferences":{"hints":[{"name":"claude-3-sonnet"}],"intelligencePriority":0.8,"speedPriority":0.5},
             "systemPrompt":"You are a helpful assistant.","maxTokens":100}
            """,
            CreateMessageParams.class);
    assertThat(p.maxTokens()).isEqualTo(100);
    assertThat(p.modelPreferences().hints()).containsExactly(ModelHint.of("claude-3-sonnet"));
    assertThat(p.messages().get(0).multiBlock()).isFalse();
    assertThat(p.messages().get(0).blocks()).singleElement().isInstanceOf(ContentBlock.Text.class);
  }

  @Test
  void everyOptionalCreateMessageMemberRoundTrips() {
    CreateMessageParams p =
        assertRoundTrip(
            """
            {"messages":[{"role":"user","content":{"type":"audio","data":"AAA=","mimeType":"audio/wav"},"_meta":{"m":1}}],
             "modelPreferences":{"hints":[{"name":"claude"},{}],"costPriority":0.3,"speedPriority":0.8,"intelligencePriority":0.5},
             "systemPrompt":"s","includeContext":"thisServer","temperature":0.7,"maxTokens":1000,
             "stopSequences":["\\n\\nHuman:"],"metadata":{"provider":{"x":true}},
             "tools":[{"name":"get_weather","description":"Get current weather for a city",
                       "inputSchema":{"type":"object","properties":{"city":{"type":"string","description":"City name"}},"required":["city"]}}],
             "toolChoice":{"mode":"auto"},"task":{"ttl":60000},"_meta":{"progressToken":"t"}}
            """,
            CreateMessageParams.class);
    assertThat(p.includeContext()).isEqualTo(CreateMessageParams.IncludeContext.THIS_SERVER);
    assertThat(p.toolChoice().effectiveMode()).isEqualTo(ToolChoice.Mode.AUTO);
    assertThat(p.task().ttl()).isEqualTo(60_000L);
    assertThat(p.tools()).extracting(Tool::name).containsExactly("get_weather");
  }

  @Test
  void createMessageWithoutMaxTokensIsInvalidParams() {
    assertThatThrownBy(() -> decode("{\"messages\":[]}", CreateMessageParams.class))
        .isInstanceOfSatisfying(
            McpException.class, e -> assertThat(e.code()).isEqualTo(ErrorCodes.INVALID_PARAMS));
  }

  @Test
  void toolUseAndToolResultBlocksDispatchInArrayContent() {
    CreateMessageParams p =
        assertRoundTrip(
            """
            {"messages":[
              {"role":"user","content":{"type":"text","text":"What's the weather like in Paris and London?"}},
              {"role":"assistant","content":[
                {"type":"tool_use","id":"call_abc123","name":"get_weather","input":{"city":"Paris"}},
                {"type":"tool_use","id":"call_def456","name":"get_weather","input":{"city":"London"}}]},
              {"role":"user","content":[
                {"type":"tool_result","toolUseId":"call_abc123","content":[{"type":"text","text":"Weather in Paris: 18°C, partly cloudy"}]},
                {"type":"tool_result","toolUseId":"call_def456","content":[{"type":"text","text":"Weather in London: 15°C, rainy"}],
                 "structuredContent":{"temp":15},"isError":false}]}],
             "tools":[{"name":"get_weather","description":"Get current weather for a city",
                       "inputSchema":{"type":"object","properties":{"city":{"type":"string"}},"required":["city"]}}],
             "maxTokens":1000}
            """,
            CreateMessageParams.class);
    SamplingMessage assistant = p.messages().get(1);
    assertThat(assistant.multiBlock()).isTrue();
    assertThat(assistant.blocks())
        .allSatisfy(b -> assertThat(b).isInstanceOf(SamplingContent.ToolUse.class));
    SamplingContent.ToolResult second =
        (SamplingContent.ToolResult) p.messages().get(2).blocks().get(1);
    assertThat(second.toolUseId()).isEqualTo("call_def456");
    assertThat(second.structuredContent().get("temp").intValue()).isEqualTo(15);
  }

  @Test
  void singleBlockResultStaysAnObjectAndArrayResultStaysAnArray() {
    CreateMessageResult single =
        assertRoundTrip(
            """
            {"role":"assistant","content":{"type":"text","text":"The capital of France is Paris."},
             "model":"claude-3-sonnet-20240307","stopReason":"endTurn"}
            """,
            CreateMessageResult.class);
    assertThat(single.content().isObject()).isTrue();
    assertThat(single.stopReason()).isEqualTo(CreateMessageResult.StopReason.END_TURN);

    CreateMessageResult multi =
        assertRoundTrip(
            """
            {"role":"assistant","content":[
              {"type":"tool_use","id":"call_abc123","name":"get_weather","input":{"city":"Paris"}},
              {"type":"tool_use","id":"call_def456","name":"get_weather","input":{"city":"London"}}],
             "model":"claude-3-sonnet-20240307","stopReason":"toolUse","_meta":{"usage":{"tokens":12}}}
            """,
            CreateMessageResult.class);
    assertThat(multi.content().isArray()).isTrue();
    assertThat(multi.blocks()).hasSize(2);
    assertThat(multi.toMessage().blocks()).isEqualTo(multi.blocks());
  }

  @Test
  void unknownStopReasonIsKept() {
    CreateMessageResult r =
        assertRoundTrip(
            """
            {"role":"assistant","content":{"type":"text","text":"x"},"model":"m","stopReason":"contentFilter"}
            """,
            CreateMessageResult.class);
    assertThat(r.stopReason()).isEqualTo("contentFilter");
  }

  @Test
  void resourceBlocksAreNotSamplingContent() {
    SamplingMessage m =
        decode(
            """
            {"role":"user","content":{"type":"resource_link","uri":"file:///a","name":"a"}}
            """,
            SamplingMessage.class);
    assertThatThrownBy(m::blocks).isInstanceOf(McpException.class);
  }

  @Test
  void scalarContentIsRefused() {
    assertThatThrownBy(
            () -> decode("{\"role\":\"user\",\"content\":\"hi\"}", SamplingMessage.class))
        .isInstanceOf(McpException.class);
  }

  @Test
  void factoriesWriteOneBlockAsObjectAndSeveralAsArray() {
    assertSameJson(
        SamplingMessage.user("hi"),
        "{\"role\":\"user\",\"content\":{\"type\":\"text\",\"text\":\"hi\"}}");
    assertSameJson(
        CreateMessageResult.of(
            Role.ASSISTANT,
            List.of(SamplingContent.toolUse("c1", "t", McpJson.object().put("a", 1))),
            "m",
            CreateMessageResult.StopReason.TOOL_USE),
        """
        {"role":"assistant","content":[{"type":"tool_use","id":"c1","name":"t","input":{"a":1}}],
         "model":"m","stopReason":"toolUse"}
        """);
    assertSameJson(
        SamplingMessage.of(
            Role.USER, SamplingContent.toolResult("c1", List.of(ContentBlock.text("ok")))),
        "{\"role\":\"user\",\"content\":{\"type\":\"tool_result\",\"toolUseId\":\"c1\",\"content\":[{\"type\":\"text\",\"text\":\"ok\"}]}}");
    assertSameJson(
        CreateMessageParams.of(List.of(SamplingMessage.user("q")), 10),
        "{\"messages\":[{\"role\":\"user\",\"content\":{\"type\":\"text\",\"text\":\"q\"}}],\"maxTokens\":10}");
  }
}
