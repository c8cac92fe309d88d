package dev.herald.interop;

import static dev.herald.testing.Eventually.eventually;
import static org.assertj.core.api.Assertions.assertThat;

import dev.herald.client.auth.StoredGrant;
import dev.herald.client.auth.TokenStore;
import dev.herald.interop.CliLoginAgainstAuthorizationServerIT.Cli;
import dev.herald.testing.oauth.AuthorizationServerProcess;
import java.net.URI;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * The command line's kept tokens over time, against a real authorization server (Spring
 * Authorization Server, whose access tokens here live ten seconds) and Herald's own protected
 * server: a user who takes longer in the browser than the client's negotiation waits (10 s for
 * {@code server/discover}, 30 s for {@code initialize}) still gets the call made, and a later run
 * whose access token has expired refreshes it with the refresh token, with no browser step.
 */
@Timeout(300)
class CliTokenRefreshAgainstAuthorizationServerIT {
  private static final Duration BOUND = Duration.ofSeconds(90);
  private static final Duration TOKEN_TTL = Duration.ofSeconds(10);

  /** Longer than the client's server/discover and initialize timeouts together. */
  private static final Duration SLOW_USER = Duration.ofSeconds(45);

  private static AuthorizationServerProcess as;
  private static ProtectedDeployServer server;
  private static URI endpoint;
  private static AtomicInteger deployed;

  @TempDir static Path home;

  @BeforeAll
  static void start() throws Exception {
    server =
        ProtectedDeployServer.start(
            AuthorizationServerProcess.builder().autoLogin(true).tokenTtl(TOKEN_TTL));
    as = server.as;
    endpoint = server.endpoint;
    deployed = server.deployed;
  }

  @AfterAll
  static void stop() {
    if (server != null) {
      server.close();
    }
  }

  /** The pre-registered confidential client: Spring gives public clients no refresh token. */
  private static final Map<String, String> CONFIDENTIAL =
      Map.of(
          "HERALD_CLIENT_ID", AuthorizationServerProcess.CONFIDENTIAL_CLIENT_ID,
          "HERALD_CLIENT_SECRET", AuthorizationServerProcess.CONFIDENTIAL_CLIENT_SECRET);

  @Test
  void aSlowLoginStillCallsAndAnExpiredTokenIsRefreshedWithoutTheBrowser() throws Exception {
    Path tokens = home.resolve("tokens.json");
    String url = endpoint.toString();

    Cli first = Cli.start(tokens, CONFIDENTIAL, "call", url, "deploy");
    URI authorizationUrl = first.awaitAuthorizationUrl(as.authorizationEndpoint());
    // the user reads the page, types a password: not a synchronisation, the delay under test
    Thread.sleep(SLOW_USER.toMillis());
    CliLoginAgainstAuthorizationServerIT.followAsABrowser(authorizationUrl);
    assertThat(first.awaitExit()).as("stderr: %s", first.err()).isZero();
    assertThat(first.stdout().trim()).isEqualTo("deployed by " + AuthorizationServerProcess.USER);
    assertThat(deployed).hasValue(1);

    StoredGrant kept = TokenStore.file(tokens).load(url).orElseThrow();
    assertThat(kept.refreshToken()).as("a refresh token was kept").isNotNull();
    Instant expiry = kept.expiresAt();
    assertThat(expiry).isNotNull();
    eventually(BOUND, () -> Instant.now().isAfter(expiry.plusSeconds(1)), "the token expired");

    Cli second = Cli.start(tokens, CONFIDENTIAL, "call", url, "deploy");
    assertThat(second.awaitExit()).as("stderr: %s", second.err()).isZero();
    assertThat(second.stdout().trim()).isEqualTo("deployed by " + AuthorizationServerProcess.USER);
    assertThat(second.err())
        .noneMatch(l -> l.contains(as.authorizationEndpoint().toString()))
        .noneMatch(l -> l.contains("open this URL"));
    assertThat(deployed).hasValue(2);
    StoredGrant refreshed = TokenStore.file(tokens).load(url).orElseThrow();
    assertThat(refreshed.accessToken()).isNotEqualTo(kept.accessToken());
    assertThat(refreshed.expiresAt()).isAfter(expiry);
  }
}
