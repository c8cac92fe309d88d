package dev.herald.wire;

import static dev.herald.wire.WireJson.assertRoundTrip;
import static dev.herald.wire.WireJson.assertSameJson;
import static dev.herald.wire.WireJson.decode;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

/** Golden JSON from the 2025-11-25 client/elicitation page and the 2026-07-28 schema examples. */
class ElicitationWireTest {

  @Test
  void formModeParamsRoundTripWithSchemaKeptWhole() {
    ElicitParams p =
        assertRoundTrip(
            """
            {"mode":"form","message":"Please provide your contact information",
             "requestedSchema":{"type":"object","properties":{
               "name":{"type":"string","description":"Your full name"},
               "email":{"type":"string","format":"email","description":"Your email address"},
               "age":{"type":"number","minimum":18,"description":"Your age"},
               "color":{"type":"string","oneOf":[{"const":"#FF0000","title":"Red"}],"default":"#FF0000"}},
              "required":["name","email"]}}
            """,
            ElicitParams.class);
    assertThat(p.effectiveMode()).isEqualTo(ElicitParams.Mode.FORM);
    assertThat(p.requestedSchema().get("properties").get("color").get("oneOf").size()).isEqualTo(1);
  }

  @Test
  void absentModeMeansFormAndStaysAbsent() {
    ElicitParams p =
        assertRoundTrip(
            """
            {"message":"Please provide your GitHub username",
             "requestedSchema":{"type":"object","properties":{"name":{"type":"string"}},"required":["name"]}}
            """,
            ElicitParams.class);
    assertThat(p.mode()).isNull();
    assertThat(p.effectiveMode()).isEqualTo(ElicitParams.Mode.FORM);
  }

  @Test
  void urlModeParamsRoundTripWithAndWithoutElicitationId() {
    ElicitParams legacy =
        assertRoundTrip(
            """
            {"mode":"url","elicitationId":"550e8400-e29b-41d4-a716-446655440000",
             "url":"https://mcp.example.com/ui/set_api_key","message":"Please provide your API key to continue."}
            """,
            ElicitParams.class);
    assertThat(legacy.elicitationId()).isEqualTo("550e8400-e29b-41d4-a716-446655440000");
    ElicitParams modern =
        assertRoundTrip(
            """
            {"mode":"url","url":"https://mcp.example.com/ui/set_api_key","message":"Please provide your API key to continue."}
            """,
            ElicitParams.class);
    assertThat(modern.elicitationId()).isNull();
  }

  @Test
  void formWithoutSchemaAndUrlWithoutUrlAreRefused() {
    assertThatThrownBy(() -> decode("{\"message\":\"m\"}", ElicitParams.class))
        .isInstanceOf(McpException.class);
    assertThatThrownBy(() -> decode("{\"mode\":\"url\",\"message\":\"m\"}", ElicitParams.class))
        .isInstanceOf(McpException.class);
    assertThatThrownBy(() ->
            decode(
                "{\"mode\":\"popup\",\"message\":\"m\",\"requestedSchema\":{}}",
                ElicitParams.class))
        .isInstanceOf(McpException.class);
  }

  @Test
  void elicitResultsRoundTripForEveryAction() {
    ElicitResult accept =
        assertRoundTrip(
            """
            {"action":"accept","content":{"name":"Monalisa Octocat","email":"octocat@github.com","age":30,"tags":["a","b"],"ok":true}}
            """,
            ElicitResult.class);
    assertThat(accept.accepted()).isTrue();
    assertThat(accept.content().get("age").intValue()).isEqualTo(30);
    assertThat(assertRoundTrip("{\"action\":\"decline\"}", ElicitResult.class).action())
        .isEqualTo(ElicitResult.Action.DECLINE);
    assertThat(assertRoundTrip("{\"action\":\"cancel\",\"_meta\":{}}", ElicitResult.class).action())
        .isEqualTo(ElicitResult.Action.CANCEL);
    assertSameJson(ElicitResult.accept(null), "{\"action\":\"accept\"}");
  }

  @Test
  void elicitationCompleteParamsRoundTrip() {
    ElicitationCompleteParams p =
        assertRoundTrip(
            "{\"elicitationId\":\"550e8400-e29b-41d4-a716-446655440000\"}",
            ElicitationCompleteParams.class);
    assertThat(p.elicitationId()).startsWith("550e8400");
  }
}
