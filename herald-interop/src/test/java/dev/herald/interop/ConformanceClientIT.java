package dev.herald.interop;

import static org.assertj.core.api.Assertions.assertThat;

import dev.herald.testing.HeraldJar;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The official conformance suite's client mode with Herald's client as the program under test
 * ({@code herald conformance-client}): every check passes, with no warnings.
 */
@Timeout(300)
class ConformanceClientIT {

  @ParameterizedTest(name = "{0}")
  @ValueSource(
      strings = {"initialize", "tools_call", "elicitation-sep1034-client-defaults", "sse-retry"})
  void scenarioPassesWithNoWarnings(String scenario) throws Exception {
    String command = String.join(" ", HeraldJar.command("conformance-client"));
    ConformanceSuite.Totals t =
        ConformanceSuite.run(
            "client-" + scenario,
            List.of("client", "--command", command, "--scenario", scenario),
            Map.of());
    assertThat(t.failed()).as(t.output()).isZero();
    assertThat(t.warnings()).as(t.output()).isZero();
    assertThat(t.passed()).as(t.output()).isPositive();
    assertThat(t.exitCode()).as(t.output()).isZero();
  }
}
