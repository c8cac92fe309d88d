package dev.herald.wire;

import static dev.herald.wire.WireJson.assertRoundTrip;
import static dev.herald.wire.WireJson.assertSameJson;
import static dev.herald.wire.WireJson.decode;
import static dev.herald.wire.WireJson.tree;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.math.BigDecimal;
import org.junit.jupiter.api.Test;

/** Golden JSON from the 2025-11-25 server/tools and basic/utilities pages, for the records that came first. */
class ToolsWireTest {

  @Test
  void goldenComparisonTellsIntegerOneFromStringOne() {
    assertThatThrownBy(() -> WireJson.assertSameJson(tree("{\"id\":1}"), tree("{\"id\":\"1\"}")))
        .isInstanceOf(AssertionError.class);
    WireJson.assertSameJson(tree("{\"n\":10}"), tree("{\"n\":10.0}"));
  }

  @Test
  void callToolResultKeepsStructuredContentAndMeta() {
    CallToolResult r =
        assertRoundTrip(
            """
            {"content":[{"type":"text","text":"{\\"temperature\\": 22.5, \\"conditions\\": \\"Partly cloudy\\", \\"humidity\\": 65}"}],
             "structuredContent":{"temperature":22.5,"conditions":"Partly cloudy","humidity":65},
             "isError":false,"_meta":{"com.example/trace":{"spans":[{"id":"a","t":0.1}]}}}
            """,
            CallToolResult.class);
    assertThat(r.structuredContent().get("temperature").decimalValue())
        .isEqualByComparingTo("22.5");
    assertThat(r.meta().get("com.example/trace").get("spans").get(0).get("t").decimalValue())
        .isEqualTo(new BigDecimal("0.1"));
  }

  @Test
  void modernStructuredContentMayBeAnyJsonValue() {
    CallToolResult r =
        assertRoundTrip(
            "{\"content\":[],\"structuredContent\":[1,\"two\",null]}", CallToolResult.class);
    assertThat(r.structuredContent().isArray()).isTrue();
  }

  @Test
  void contentKindsDispatchToTheRightRecord() {
    CallToolResult r =
        assertRoundTrip(
            """
            {"content":[
              {"type":"text","text":"Tool result text","annotations":{"audience":["user","assistant"],"priority":0.9}},
              {"type":"image","data":"base64-encoded-data","mimeType":"image/png"},
              {"type":"audio","data":"base64-encoded-audio-data","mimeType":"audio/wav"},
              {"type":"resource_link","uri":"file:///project/src/main.rs","name":"main.rs","size":512,
               "icons":[{"src":"https://example.com/i.png","theme":"dark"}]},
              {"type":"resource","resource":{"uri":"file:///project/src/main.rs","mimeType":"text/x-rust","text":"fn main() {}"},
               "annotations":{"lastModified":"2025-05-03T14:30:00Z"},"_meta":{"k":"v"}},
              {"type":"resource","resource":{"uri":"file:///logo.png","blob":"iVBORw0KGgo="}}]}
            """,
            CallToolResult.class);
    assertThat(r.content())
        .hasExactlyElementsOfTypes(
            ContentBlock.Text.class,
            ContentBlock.Image.class,
            ContentBlock.Audio.class,
            ContentBlock.ResourceLink.class,
            ContentBlock.EmbeddedResource.class,
            ContentBlock.EmbeddedResource.class);
    assertThat(((ContentBlock.EmbeddedResource) r.content().get(4)).resource())
        .isInstanceOf(ResourceContents.Text.class);
    assertThat(((ContentBlock.EmbeddedResource) r.content().get(5)).resource())
        .isInstanceOf(ResourceContents.Blob.class);
  }

  @Test
  void listToolsResultRoundTripsWithAnnotationsAndExecution() {
    ListToolsResult r =
        assertRoundTrip(
            """
            {"tools":[{"name":"get_weather","title":"Weather Information Provider",
              "description":"Get current weather information for a location",
              "inputSchema":{"type":"object","properties":{"location":{"type":"string","description":"City name or zip code"}},"required":["location"]},
              "outputSchema":{"type":"object","properties":{"temperature":{"type":"number"}},"required":["temperature"]},
              "annotations":{"title":"Weather","readOnlyHint":true,"openWorldHint":true},
              "execution":{"taskSupport":"optional"},
              "icons":[{"src":"https://example.com/weather-icon.png","mimeType":"image/png","sizes":["48x48"]}]}],
             "nextCursor":"next-page-cursor"}
            """,
            ListToolsResult.class);
    assertThat(r.tools().get(0).displayName()).isEqualTo("Weather Information Provider");
  }

  @Test
  void requestIdsAndProgressTokensKeepTheirJsonType() {
    CancelledNotificationParams numeric =
        assertRoundTrip(
            "{\"requestId\":1,\"reason\":\"User requested cancellation\"}",
            CancelledNotificationParams.class);
    CancelledNotificationParams text =
        assertRoundTrip("{\"requestId\":\"1\"}", CancelledNotificationParams.class);
    assertThat(numeric.requestId()).isEqualTo(RequestId.of(1)).isNotEqualTo(text.requestId());

    ProgressNotificationParams n =
        assertRoundTrip(
            "{\"progressToken\":1,\"progress\":50,\"total\":100}",
            ProgressNotificationParams.class);
    ProgressNotificationParams s =
        assertRoundTrip(
            "{\"progressToken\":\"1\",\"progress\":50}", ProgressNotificationParams.class);
    assertThat(n.progressToken()).isEqualTo(ProgressToken.of(1)).isNotEqualTo(s.progressToken());
    assertThat(McpJson.toTree(s).has("total")).isFalse();
  }

  @Test
  void progressValuesKeepTheirExactValue() {
    ProgressNotificationParams p =
        assertRoundTrip(
            """
            {"progressToken":"abc123","progress":0.1,"total":12345678901234567890,"message":"Reticulating splines..."}
            """,
            ProgressNotificationParams.class);
    assertThat(p.progress()).isEqualTo(new BigDecimal("0.1"));
    assertThat(p.total()).isEqualTo(new BigDecimal("12345678901234567890"));
    assertThat(McpJson.toTree(p).get("total").toString()).isEqualTo("12345678901234567890");
  }

  @Test
  void loggingAndCancellationParamsRoundTrip() {
    LoggingMessageParams log =
        assertRoundTrip(
            """
            {"level":"error","logger":"database","data":{"error":"Connection failed","details":{"host":"localhost","port":5432}}}
            """,
            LoggingMessageParams.class);
    assertThat(log.level()).isEqualTo(LoggingLevel.ERROR);
    assertRoundTrip("{\"level\":\"info\"}", SetLevelParams.class);
    assertThat(decode("{}", CancelledNotificationParams.class).requestId()).isNull();
  }

  @Test
  void factoriesOmitAbsentMembers() {
    assertSameJson(
        CallToolResult.error("nope"),
        "{\"content\":[{\"type\":\"text\",\"text\":\"nope\"}],\"isError\":true}");
    assertSameJson(CallToolParams.of("echo", null), "{\"name\":\"echo\"}");
  }
}
