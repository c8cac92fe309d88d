package dev.herald.interop;

import static org.assertj.core.api.Assertions.assertThat;

import dev.herald.interop.ConformanceSuite.Release;
import dev.herald.testing.HeraldJar;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The official conformance suite's pre-release 0.2.0-alpha.12 in client mode, with Herald's
 * client as the program under test ({@code herald conformance-client}): every 2026-07-28 client
 * scenario passes with no warnings, and so do its authorization scenarios (the RFC 9207 {@code
 * iss} checks, the metadata issuer check, and a protected server moving to another authorization
 * server).
 */
@Timeout(300)
class ConformancePreReleaseClientIT {

  @ParameterizedTest(name = "{0}")
  @ValueSource(
      strings = {
        "request-metadata",
        "http-standard-headers",
        "http-custom-headers",
        "http-invalid-tool-headers",
        "json-schema-ref-no-deref",
        "json-schema-2020-12-preservation",
        "sep-2322-client-request-state"
      })
  void scenarioPassesWithNoWarnings(String scenario) throws Exception {
    String command = String.join(" ", HeraldJar.command("conformance-client"));
    ConformanceSuite.Totals t =
        ConformanceSuite.run(
            Release.V0_2_0_ALPHA_12,
            "client-2026-" + scenario,
            List.of(
                "client",
                "--command",
                command,
                "--scenario",
                scenario,
                "--spec-version",
                "2026-07-28"),
            Map.of());
    assertThat(ConformanceSuite.scenarios("client-2026-" + scenario).values())
        .as(t.output())
        .isNotEmpty()
        .allMatch(ConformanceSuite.Scenario::clean);
    assertThat(t.failed()).as(t.output()).isZero();
    assertThat(t.warnings()).as(t.output()).isZero();
    assertThat(t.passed()).as(t.output()).isPositive();
    assertThat(t.exitCode()).as(t.output()).isZero();
  }

  @ParameterizedTest(name = "{0}")
  @ValueSource(
      strings = {
        "auth/iss-supported",
        "auth/iss-not-advertised",
        "auth/iss-supported-missing",
        "auth/iss-wrong-issuer",
        "auth/iss-unexpected",
        "auth/iss-normalized",
        "auth/metadata-issuer-mismatch",
        "auth/authorization-server-migration"
      })
  void authorizationScenarioPassesWithNoWarnings(String scenario) throws Exception {
    String name = "client-2026-" + scenario.replace('/', '-');
    String command = String.join(" ", HeraldJar.command("conformance-client"));
    ConformanceSuite.Totals t =
        ConformanceSuite.run(
            Release.V0_2_0_ALPHA_12,
            name,
            List.of(
                "client",
                "--command",
                command,
                "--scenario",
                scenario,
                "--spec-version",
                "2026-07-28"),
            Map.of());
    assertThat(ConformanceSuite.scenarios(name).values())
        .as(t.output())
        .isNotEmpty()
        .allMatch(ConformanceSuite.Scenario::clean);
    assertThat(t.failed()).as(t.output()).isZero();
    assertThat(t.warnings()).as(t.output()).isZero();
    assertThat(t.passed()).as(t.output()).isPositive();
    assertThat(t.exitCode()).as(t.output()).isZero();
  }
}
