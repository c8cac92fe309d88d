package dev.herald.spring.boot;

import static org.assertj.core.api.Assertions.assertThat;

import dev.herald.client.EraPreference;
import dev.herald.client.McpClient;
import dev.herald.spring.boot.jsonmapper.JsonMapperApplication;
import dev.herald.transport.http.StreamableHttpClientTransport;
import dev.herald.wire.CallToolResult;
import dev.herald.wire.McpJson;
import dev.herald.wire.Tool;
import java.net.URI;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import tools.jackson.databind.node.ObjectNode;

/** The application's Jackson 3 {@code JsonMapper} bean binds and writes its annotated tools. */
@Timeout(180)
class JsonMapperTest {
  private static McpClient connect(URI uri) throws Exception {
    return McpClient.builder()
        .eras(EraPreference.HANDSHAKE_ONLY)
        .connect(new StreamableHttpClientTransport(uri));
  }

  @Test
  void anApplicationsJsonMapperBeanNamesBindsAndWritesTheAnnotatedTools() throws Exception {
    try (RunningApp app = RunningApp.start(JsonMapperApplication.class);
        McpClient client = connect(app.mcp())) {
      Tool ship = client.tools().getFirst();
      assertThat(
              ship.inputSchema()
                  .path("properties")
                  .path("parcel")
                  .path("properties")
                  .propertyNames())
          .containsExactly("recipient_name", "weight_grams");
      assertThat(ship.outputSchema().path("properties").propertyNames())
          .containsExactly("tracking_code", "recipient_name");

      ObjectNode parcel = McpJson.object().put("recipient_name", "Ada").put("weight_grams", 250);
      ObjectNode args = McpJson.object();
      args.set("parcel", parcel);
      CallToolResult r = client.callTool("ship", args);

      assertThat(r.failed()).as(r.firstText()).isFalse();
      assertThat(String.valueOf(r.structuredContent()))
          .isEqualTo("{\"tracking_code\":\"HX250\",\"recipient_name\":\"Ada\"}");
    }
  }

  @Test
  void heraldApplicationJsonMapperFalseKeepsHeraldsOwnMapper() throws Exception {
    try (RunningApp app =
            RunningApp.start(JsonMapperApplication.class, "herald.application-json-mapper=false");
        McpClient client = connect(app.mcp())) {
      assertThat(client.tools().getFirst().outputSchema().path("properties").propertyNames())
          .containsExactly("trackingCode", "recipientName");
    }
  }
}
