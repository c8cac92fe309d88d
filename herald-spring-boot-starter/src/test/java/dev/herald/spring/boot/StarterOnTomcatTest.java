package dev.herald.spring.boot;

import static org.assertj.core.api.Assertions.assertThat;

import dev.herald.client.EraPreference;
import dev.herald.client.McpClient;
import dev.herald.server.McpServer;
import dev.herald.session.CallOptions;
import dev.herald.session.ProgressUpdate;
import dev.herald.spring.boot.app.TestApplication;
import dev.herald.transport.http.StreamableHttpClientTransport;
import dev.herald.wire.CallToolResult;
import dev.herald.wire.McpJson;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** The starter in a Spring Boot 4 application, served by the Tomcat that Spring Boot starts. */
@Timeout(120)
class StarterOnTomcatTest {
  static RunningApp app;

  @BeforeAll
  static void start() {
    app = RunningApp.start(TestApplication.class, "spring.application.name=starter-test");
  }

  @AfterAll
  static void stop() {
    app.close();
  }

  @Test
  void springBootServesTheEndpointFromTomcatNotJetty() throws Exception {
    assertThat(app.webServer()).contains("Tomcat");
    assertThat(app.context().getBean(McpServer.class).info().name()).isEqualTo("starter-test");
  }

  @Test
  void aToolBeanIsCalledWithItsProgressBeforeItsResult() throws Exception {
    try (McpClient client =
        McpClient.builder()
            .eras(EraPreference.HANDSHAKE_ONLY)
            .connect(new StreamableHttpClientTransport(app.mcp()))) {
      assertThat(client.tools()).extracting(t -> t.name()).contains("countdown");
      List<ProgressUpdate> updates = new CopyOnWriteArrayList<>();
      CallToolResult r =
          client.callTool(
              "countdown",
              McpJson.mapper().createObjectNode().put("steps", 3).put("delayMs", 1),
              CallOptions.builder().progress(updates::add).renderInterval(Duration.ZERO).build());
      assertThat(r.firstText()).isEqualTo("counted 3");
      // the runtime's default cadence may coalesce steps; the last value always precedes the result
      assertThat(updates).extracting(ProgressUpdate::progress).isSorted().endsWith(3.0);
    }
  }
}
