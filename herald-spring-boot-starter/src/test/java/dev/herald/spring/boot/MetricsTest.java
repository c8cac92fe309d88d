package dev.herald.spring.boot;

import static dev.herald.testing.Eventually.eventually;
import static org.assertj.core.api.Assertions.assertThat;

import dev.herald.client.EraPreference;
import dev.herald.client.McpClient;
import dev.herald.spring.boot.metrics.MetricsApplication;
import dev.herald.transport.http.StreamableHttpClientTransport;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** With herald-micrometer on the class path, the application's registry gets Herald's meters. */
@Timeout(120)
class MetricsTest {
  @Test
  void aSessionOnTomcatMovesHeraldsMetersInTheApplicationsRegistry() throws Exception {
    try (RunningApp app = RunningApp.start(MetricsApplication.class)) {
      MeterRegistry registry = app.context().getBean(MeterRegistry.class);
      try (McpClient client =
          McpClient.builder()
              .eras(EraPreference.HANDSHAKE_ONLY)
              .connect(new StreamableHttpClientTransport(app.mcp()))) {
        client.callTool("countdown", null);

        eventually(
            () -> registry.get("herald.sessions.open").tag("role", "server").gauge().value() == 1.0,
            "the server's session is counted open");
        assertThat(
                registry.get("herald.sessions.opened").tag("role", "server").counters().stream()
                    .mapToDouble(Counter::count)
                    .sum())
            .isEqualTo(1.0);
      }
      eventually(
          () -> registry.get("herald.sessions.open").tag("role", "server").gauge().value() == 0.0,
          "the closed session left the gauge");
    }
  }
}
