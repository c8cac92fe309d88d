package dev.herald.wire;

import static dev.herald.wire.WireJson.assertRoundTrip;
import static dev.herald.wire.WireJson.assertSameJson;
import static dev.herald.wire.WireJson.decode;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** Golden JSON from the 2025-11-25 server/prompts page and the 2026-07-28 schema examples. */
class PromptsWireTest {

  @Test
  void listPromptsResultRoundTripsWithArgumentsIconsAndCacheHints() {
    ListPromptsResult r =
        assertRoundTrip(
            """
            {"resultType":"complete",
             "prompts":[{"name":"code_review","title":"Request Code Review",
               "description":"Asks the LLM to analyze code quality and suggest improvements",
               "arguments":[{"name":"code","description":"The code to review","required":true}],
               "icons":[{"src":"https://example.com/review-icon.svg","mimeType":"image/svg+xml","sizes":["any"]}]}],
             "nextCursor":"next-page-cursor","ttlMs":600000,"cacheScope":"public"}
            """,
            ListPromptsResult.class,
            "resultType");
    Prompt p = r.prompts().get(0);
    assertThat(p.arguments())
        .singleElement()
        .satisfies(a -> assertThat(a.requiredOrFalse()).isTrue());
    assertThat(p.displayName()).isEqualTo("Request Code Review");
    assertThat(r.cacheScope()).isEqualTo(CacheScope.PUBLIC);
  }

  @Test
  void getPromptParamsKeepStringArgumentsAndMeta() {
    GetPromptParams p =
        assertRoundTrip(
            """
            {"name":"code_review","arguments":{"code":"def hello():\\n    print('world')"},"_meta":{"progressToken":"p1"}}
            """,
            GetPromptParams.class);
    assertThat(p.argumentsOrEmpty()).containsEntry("code", "def hello():\n    print('world')");
    assertThat(MetaKeys.progressToken(p.meta())).isEqualTo(ProgressToken.of("p1"));
    assertThat(GetPromptParams.of("x", null).argumentsOrEmpty()).isEmpty();
  }

  @Test
  void getPromptResultDispatchesEveryContentKind() {
    GetPromptResult r =
        assertRoundTrip(
            """
            {"description":"Code review prompt","messages":[
              {"role":"user","content":{"type":"text","text":"Please review this Python code:\\ndef hello():\\n    print('world')"}},
              {"role":"user","content":{"type":"image","data":"base64-encoded-image-data","mimeType":"image/png"}},
              {"role":"user","content":{"type":"audio","data":"base64-encoded-audio-data","mimeType":"audio/wav"}},
              {"role":"assistant","content":{"type":"resource_link","uri":"file:///project/src/main.rs","name":"main.rs",
                "description":"Primary application entry point","mimeType":"text/x-rust"}},
              {"role":"user","content":{"type":"resource","resource":{"uri":"resource://example","mimeType":"text/plain",
                "text":"Resource content"}}}]}
            """,
            GetPromptResult.class);
    assertThat(r.messages())
        .extracting(PromptMessage::content)
        .hasExactlyElementsOfTypes(
            ContentBlock.Text.class,
            ContentBlock.Image.class,
            ContentBlock.Audio.class,
            ContentBlock.ResourceLink.class,
            ContentBlock.EmbeddedResource.class);
    assertThat(r.messages())
        .extracting(PromptMessage::role)
        .containsExactly(Role.USER, Role.USER, Role.USER, Role.ASSISTANT, Role.USER);
  }

  @Test
  void rolesAreLowercaseOnTheWire() {
    assertSameJson(
        PromptMessage.assistant("hi"),
        "{\"role\":\"assistant\",\"content\":{\"type\":\"text\",\"text\":\"hi\"}}");
    assertThatThrownBy(() ->
            decode(
                "{\"role\":\"USER\",\"content\":{\"type\":\"text\",\"text\":\"x\"}}",
                PromptMessage.class))
        .isInstanceOf(McpException.class);
  }

  @Test
  void unknownContentTypeIsInvalidParams() {
    assertThatThrownBy(() ->
            decode(
                "{\"role\":\"user\",\"content\":{\"type\":\"video\",\"data\":\"x\"}}",
                PromptMessage.class))
        .isInstanceOfSatisfying(
            McpException.class, e -> assertThat(e.code()).isEqualTo(ErrorCodes.INVALID_PARAMS));
  }

  @Test
  void promptArgumentWithoutRequiredStaysWithoutIt() {
    PromptArgument a = assertRoundTrip("{\"name\":\"code\"}", PromptArgument.class);
    assertThat(a.requiredOrFalse()).isFalse();
  }

  @Test
  void promptFactoryOmitsAbsentMembers() {
    assertSameJson(
        Prompt.of("p", null, List.of(PromptArgument.of("a", null, false))),
        "{\"name\":\"p\",\"arguments\":[{\"name\":\"a\",\"required\":false}]}");
    assertSameJson(
        GetPromptParams.of("p", Map.of("a", "1")), "{\"name\":\"p\",\"arguments\":{\"a\":\"1\"}}");
  }
}
