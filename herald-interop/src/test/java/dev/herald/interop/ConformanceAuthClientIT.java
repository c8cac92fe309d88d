package dev.herald.interop;

import static org.assertj.core.api.Assertions.assertThat;

import dev.herald.testing.HeraldJar;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The official conformance suite 0.1.16's client authorization scenarios with Herald's client as
 * the program under test ({@code herald conformance-client} with an {@code OAuthClient}): the
 * fourteen of {@code --suite auth}, then the back-compatibility, draft and client-credentials ({@code client_secret_basic} and
 * {@code private_key_jwt}) ones,
 * each run on its own ({@code --scenario}: a client suite runs its scenarios in parallel, which a
 * busy two-core machine turns into timeouts). Every check passes, with no warnings, and the
 * suite exits 0.
 */
@Timeout(300)
class ConformanceAuthClientIT {

  @ParameterizedTest(name = "{0}")
  @ValueSource(
      strings = {
        // --suite auth (tier 1)
        "auth/metadata-default",
        "auth/metadata-var1",
        "auth/metadata-var2",
        "auth/metadata-var3",
        "auth/basic-cimd",
        "auth/scope-from-www-authenticate",
        "auth/scope-from-scopes-supported",
        "auth/scope-omitted-when-undefined",
        "auth/scope-step-up",
        "auth/scope-retry-limit",
        "auth/token-endpoint-auth-basic",
        "auth/token-endpoint-auth-post",
        "auth/token-endpoint-auth-none",
        "auth/pre-registration",
        // --suite backcompat, draft, and the client_secret_basic machine client
        "auth/2025-03-26-oauth-metadata-backcompat",
        "auth/2025-03-26-oauth-endpoint-fallback",
        "auth/resource-mismatch",
        "auth/offline-access-scope",
        "auth/offline-access-not-supported",
        "auth/client-credentials-basic",
        "auth/client-credentials-jwt"
      })
  void scenarioPassesWithNoWarnings(String scenario) throws Exception {
    String name = "client-" + scenario.replace('/', '-');
    String command = String.join(" ", HeraldJar.command("conformance-client"));
    ConformanceSuite.Totals t =
        ConformanceSuite.run(
            name, List.of("client", "--command", command, "--scenario", scenario), Map.of());
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
