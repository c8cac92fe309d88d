package dev.herald.wire;

import static dev.herald.wire.WireJson.assertRoundTrip;
import static dev.herald.wire.WireJson.assertSameJson;
import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Shapes from 2024-11-05, 2025-03-26 and 2025-06-18 that differ from 2025-11-25 still decode into
 * the same records, and the typed error payloads of 2025-11-25 and 2026-07-28.
 */
class OlderVersionsWireTest {

  @Test
  void resourceReferenceOf2024DecodesAsResourceTemplateReference() {
    CompleteParams p =
        assertRoundTrip(
            """
            {"ref":{"type":"ref/resource","uri":"file:///{path}"},"argument":{"name":"path","value":"ma"}}
            """,
            CompleteParams.class);
    assertThat(p.ref()).isEqualTo(ResourceTemplateReference.of("file:///{path}"));
  }

  @Test
  void annotatedResourceOf2024WithoutTitleOrIconsRoundTrips() {
    Resource r =
        assertRoundTrip(
            """
            {"uri":"file:///a.txt","name":"a.txt","annotations":{"audience":["assistant"],"priority":0.2}}
            """,
            Resource.class);
    assertThat(r.title()).isNull();
    assertThat(r.icons()).isNull();
  }

  @Test
  void singleBlockSamplingOf2024RoundTrips() {
    CreateMessageResult r =
        assertRoundTrip(
            """
            {"role":"assistant","content":{"type":"image","data":"iVBORw0KGgo=","mimeType":"image/png"},"model":"m"}
            """,
            CreateMessageResult.class);
    assertThat(r.blocks()).singleElement().isInstanceOf(ContentBlock.Image.class);
    assertThat(r.stopReason()).isNull();
  }

  @Test
  void elicitationOf2025_06_18HasNoModeAndFlatContent() {
    ElicitParams p =
        assertRoundTrip(
            """
            {"message":"Please provide your GitHub username",
             "requestedSchema":{"type":"object","properties":{"name":{"type":"string"},
               "size":{"type":"string","enum":["s","m"],"enumNames":["Small","Medium"]}},"required":["name"]}}
            """,
            ElicitParams.class);
    assertThat(p.mode()).isNull();
    assertRoundTrip(
        "{\"action\":\"accept\",\"content\":{\"name\":\"octocat\",\"size\":\"s\"}}",
        ElicitResult.class);
  }

  @Test
  void progressMessageOf2025_03_26RoundTrips() {
    ProgressNotificationParams p =
        assertRoundTrip(
            "{\"progressToken\":\"abc123\",\"progress\":50,\"total\":100,\"message\":\"Reticulating splines...\"}",
            ProgressNotificationParams.class);
    assertThat(p.message()).isEqualTo("Reticulating splines...");
  }

  @Test
  void unsupportedProtocolVersionDataRoundTrips() {
    ErrorData.UnsupportedProtocolVersion d =
        assertRoundTrip(
            "{\"supported\":[\"2025-11-25\",\"2026-07-28\"],\"requested\":\"1.0.0\"}",
            ErrorData.UnsupportedProtocolVersion.class);
    McpException e = d.toException();
    assertThat(e.code()).isEqualTo(ErrorCodes.UNSUPPORTED_PROTOCOL_VERSION);
    assertSameJson(
        e.data(), "{\"supported\":[\"2025-11-25\",\"2026-07-28\"],\"requested\":\"1.0.0\"}");
  }

  @Test
  void missingCapabilityDataNamesTheExtension() {
    ErrorData.MissingRequiredClientCapability d =
        assertRoundTrip(
            """
            {"requiredCapabilities":{"extensions":{"io.modelcontextprotocol/tasks":{}}}}
            """,
            ErrorData.MissingRequiredClientCapability.class);
    assertThat(d.requiredCapabilities().supportsExtension(TasksExtension.ID)).isTrue();
    assertThat(d.toException().code()).isEqualTo(ErrorCodes.MISSING_REQUIRED_CLIENT_CAPABILITY);
  }

  @Test
  void urlElicitationRequiredDataListsUrlElicitations() {
    ErrorData.UrlElicitationRequired d =
        assertRoundTrip(
            """
            {"elicitations":[{"mode":"url","elicitationId":"550e8400-e29b-41d4-a716-446655440000",
              "url":"https://mcp.example.com/connect?elicitationId=550e8400-e29b-41d4-a716-446655440000",
              "message":"Authorization is required to access your Example Co files."}]}
            """,
            ErrorData.UrlElicitationRequired.class);
    assertThat(d.elicitations())
        .singleElement()
        .satisfies(e -> assertThat(e.effectiveMode()).isEqualTo(ElicitParams.Mode.URL));
    assertThat(new ErrorData.UrlElicitationRequired(List.of()).toException().code())
        .isEqualTo(ErrorCodes.URL_ELICITATION_REQUIRED);
  }
}
