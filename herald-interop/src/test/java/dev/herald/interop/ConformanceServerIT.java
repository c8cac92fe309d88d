package dev.herald.interop;

import static org.assertj.core.api.Assertions.assertThat;

import dev.herald.cli.fixture.DemoFixture;
import dev.herald.http.McpHttpServer;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * The official conformance suite's server mode, {@code --suite all} (every active and pending
 * scenario), against Herald's Streamable HTTP server serving the demo fixture on 127.0.0.1: every
 * check passes, with no warnings.
 */
@Timeout(300)
class ConformanceServerIT {

  @Test
  void everyServerScenarioPassesWithNoWarnings() throws Exception {
    try (McpHttpServer http =
        McpHttpServer.builder().server(DemoFixture.server()).port(0).build().start()) {
      ConformanceSuite.Totals t =
          ConformanceSuite.run(
              "server-all",
              List.of("server", "--url", http.uri().toString(), "--suite", "all"),
              Map.of());
      assertThat(t.failed()).as(t.output()).isZero();
      assertThat(t.warnings()).as(t.output()).isZero();
      assertThat(t.passed()).as("checks passed").isGreaterThanOrEqualTo(46);
      assertThat(t.exitCode()).as(t.output()).isZero();
    }
  }

  @Test
  void ssePollingScenarioSeesPrimingRetryMidCallCloseAndResume() throws Exception {
    try (McpHttpServer http =
        McpHttpServer.builder().server(DemoFixture.server()).port(0).build().start()) {
      ConformanceSuite.Totals t =
          ConformanceSuite.run(
              "server-sse-polling",
              List.of("server", "--url", http.uri().toString(), "--scenario", "server-sse-polling"),
              Map.of());
      assertThat(t.passed())
          .as(t.output())
          .isEqualTo(3); // priming event, retry field, disconnect-resume
      assertThat(t.failed() + t.warnings()).as(t.output()).isZero();
    }
  }
}
