package dev.herald.examples.springboot;

import static dev.herald.testing.Eventually.eventually;
import static org.assertj.core.api.Assertions.assertThat;

import dev.herald.client.McpClient;
import dev.herald.client.ResourceSubscription;
import dev.herald.session.CallOptions;
import dev.herald.session.ProgressUpdate;
import dev.herald.transport.http.StreamableHttpClientTransport;
import dev.herald.wire.CallToolResult;
import dev.herald.wire.McpJson;
import dev.herald.wire.ResourceContents;
import dev.herald.wire.ResourceUpdatedParams;
import java.net.URI;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.context.ConfigurableApplicationContext;

/**
 * Starts the example on a free port of 127.0.0.1, as {@code main} would with its
 * application.properties, and drives it with Herald's own client: the tool's progress arrives
 * before its result, and a subscriber to the report resource hears that it changed.
 */
@Timeout(120)
class DemoApplicationTest {

  @Test
  void theToolReportsProgressAndItsSubscriberHearsTheReportChange() throws Exception {
    try (ConfigurableApplicationContext app =
            new SpringApplicationBuilder(DemoApplication.class).run("--server.port=0");
        McpClient client =
            McpClient.builder()
                .connect(
                    new StreamableHttpClientTransport(
                        URI.create(
                            "http://127.0.0.1:"
                                + app.getEnvironment().getRequiredProperty("local.server.port")
                                + "/mcp")))) {
      assertThat(client.serverInfo().name()).isEqualTo("spring-boot-demo");
      List<ResourceUpdatedParams> updates = new CopyOnWriteArrayList<>();
      List<ProgressUpdate> progress = new CopyOnWriteArrayList<>();

      try (ResourceSubscription s = client.subscribe(ReportTools.LATEST, updates::add)) {
        CallToolResult r =
            client.callTool(
                "generate_report",
                McpJson.mapper().createObjectNode().put("title", "Q3").put("sections", 4),
                CallOptions.builder()
                    .progress(progress::add)
                    .renderInterval(Duration.ZERO)
                    .build());

        assertThat(r.isError()).isNotEqualTo(Boolean.TRUE);
        assertThat(r.firstText()).contains("4 sections");
        assertThat(progress).extracting(ProgressUpdate::progress).isSorted().endsWith(4.0);
        eventually(() -> !updates.isEmpty(), "the subscriber heard of the new report");
        assertThat(updates).extracting(ResourceUpdatedParams::uri).contains(ReportTools.LATEST);
        ResourceContents latest = client.readResource(ReportTools.LATEST).contents().getFirst();
        assertThat(((ResourceContents.Text) latest).text())
            .startsWith("Q3\n")
            .contains("section 4");
      }
    }
  }
}
