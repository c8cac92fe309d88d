package dev.herald.interop;

import static dev.herald.testing.Eventually.eventually;
import static org.assertj.core.api.Assertions.assertThat;

import dev.herald.testing.HeraldJar;
import dev.herald.testing.oauth.AuthorizationServerProcess;
import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * The command line's login against a real authorization server (Spring Authorization Server, by
 * {@link AuthorizationServerProcess}) and Herald's own protected server (herald-http with
 * herald-oauth's JWT verifier): {@code herald call} runs as a real subprocess with no browser,
 * prints the authorization URL, and the test plays the browser: it follows the URL to the
 * authorization server (which logs the user in by itself) and its redirect to the command's
 * loopback listener. The tokens are kept in an owner-only file, reused by the next run, and
 * forgotten by {@code herald logout}.
 */
@Timeout(300)
class CliLoginAgainstAuthorizationServerIT {
  private static final Duration BOUND = Duration.ofSeconds(90);

  private static AuthorizationServerProcess as;
  private static ProtectedDeployServer server;
  private static URI endpoint;
  private static AtomicInteger deployed;

  @TempDir static Path home;

  @BeforeAll
  static void start() throws Exception {
    server = ProtectedDeployServer.start(AuthorizationServerProcess.builder().autoLogin(true));
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

  /** A {@code herald} subprocess whose stderr lines are collected as they come. */
  record Cli(Process process, List<String> err, CompletableFuture<String> out) {
    static Cli start(Path tokens, String... args) throws Exception {
      return start(
          tokens,
          // Spring Authorization Server's open registration grants no scopes: the pre-registered
          // public client instead
          Map.of("HERALD_CLIENT_ID", AuthorizationServerProcess.PUBLIC_CLIENT_ID),
          args);
    }

    static Cli start(Path tokens, Map<String, String> extraEnv, String... args) throws Exception {
      ProcessBuilder pb =
          new ProcessBuilder(HeraldJar.command(List.of("-Djava.awt.headless=true"), args));
      Map<String, String> env = pb.environment();
      env.remove("DISPLAY");
      env.remove("WAYLAND_DISPLAY");
      env.remove("BROWSER");
      env.put("HERALD_NO_BROWSER", "1");
      env.put("HERALD_TOKEN_FILE", tokens.toString());
      env.remove("HERALD_CLIENT_SECRET");
      env.putAll(extraEnv);
      Process p = pb.start();
      p.getOutputStream().close();
      List<String> err = new CopyOnWriteArrayList<>();
      Thread.ofVirtual()
          .start(() -> {
            try (BufferedReader r =
                new BufferedReader(
                    new InputStreamReader(p.getErrorStream(), StandardCharsets.UTF_8))) {
              r.lines().forEach(err::add);
            } catch (Exception ignored) {
              // the process is gone
            }
          });
      // Read on a thread of its own, never in the common pool: the JDK's HTTP client completes
      // every sendAsync through it, and a pipe read there (its only worker on two cores) would
      // stall the server's HTTP calls until the command exits.
      CompletableFuture<String> out = new CompletableFuture<>();
      Thread.ofVirtual()
          .start(() -> {
            try {
              out.complete(new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8));
            } catch (Exception e) {
              out.complete("");
            }
          });
      return new Cli(p, err, out);
    }

    Optional<URI> authorizationUrl(URI authorizationEndpoint) {
      return err.stream()
          .map(String::trim)
          .filter(l -> l.startsWith(authorizationEndpoint.toString()))
          .findFirst()
          .map(URI::create);
    }

    URI awaitAuthorizationUrl() {
      return awaitAuthorizationUrl(as.authorizationEndpoint());
    }

    URI awaitAuthorizationUrl(URI authorizationEndpoint) {
      eventually(
          BOUND,
          () -> authorizationUrl(authorizationEndpoint).isPresent() || !process.isAlive(),
          "the authorization URL printed");
      return authorizationUrl(authorizationEndpoint)
          .orElseThrow(() -> new AssertionError("no authorization URL; stderr: " + err));
    }

    int awaitExit() throws Exception {
      assertThat(process.waitFor(BOUND.toSeconds(), TimeUnit.SECONDS)).as("exited").isTrue();
      return process.exitValue();
    }

    String stdout() throws Exception {
      return out.get(BOUND.toSeconds(), TimeUnit.SECONDS);
    }

    void kill() throws Exception {
      process.destroyForcibly();
      process.waitFor(BOUND.toSeconds(), TimeUnit.SECONDS);
    }
  }

  /** Plays the browser: the authorization server's redirect, then the loopback callback. */
  static void followAsABrowser(URI authorizationUrl) throws Exception {
    try (HttpClient browser =
        HttpClient.newBuilder()
            .followRedirects(HttpClient.Redirect.NEVER)
            .connectTimeout(Duration.ofSeconds(30))
            .build()) {
      HttpResponse<String> approved =
          browser.send(
              HttpRequest.newBuilder(authorizationUrl).timeout(BOUND).GET().build(),
              HttpResponse.BodyHandlers.ofString());
      assertThat(approved.statusCode()).as(approved.body()).isEqualTo(302);
      URI callback = URI.create(approved.headers().firstValue("Location").orElseThrow());
      assertThat(callback.getHost()).isEqualTo("127.0.0.1");
      assertThat(callback.getPath()).isEqualTo("/callback");
      assertThat(callback.getRawQuery()).contains("code=").contains("state=");
      HttpResponse<String> done =
          browser.send(
              HttpRequest.newBuilder(callback).timeout(BOUND).GET().build(),
              HttpResponse.BodyHandlers.ofString());
      assertThat(done.statusCode()).isEqualTo(200);
      assertThat(done.body()).contains("you can close this window");
    }
  }

  @Test
  void theCommandLineLogsInThroughThePrintedUrlKeepsTheTokenAndForgetsItOnLogout()
      throws Exception {
    Path tokens = home.resolve("config").resolve("tokens.json");
    String url = endpoint.toString();

    Cli first = Cli.start(tokens, "call", url, "deploy");
    followAsABrowser(first.awaitAuthorizationUrl());
    assertThat(first.awaitExit()).as("stderr: %s", first.err()).isZero();
    assertThat(first.stdout().trim()).isEqualTo("deployed by " + AuthorizationServerProcess.USER);
    assertThat(deployed).hasValue(1);
    assertThat(tokens).isRegularFile();
    assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(tokens)))
        .isEqualTo("rw-------");
    assertThat(Files.readString(tokens)).contains(url);

    Cli second = Cli.start(tokens, "call", url, "deploy");
    assertThat(second.awaitExit()).as("stderr: %s", second.err()).isZero();
    assertThat(second.stdout().trim()).isEqualTo("deployed by " + AuthorizationServerProcess.USER);
    assertThat(second.err()).noneMatch(l -> l.contains(as.authorizationEndpoint().toString()));
    assertThat(deployed).hasValue(2);

    Cli logout = Cli.start(tokens, "logout", url);
    assertThat(logout.awaitExit()).as("stderr: %s", logout.err()).isZero();
    eventually(
        BOUND, () -> logout.err().stream().anyMatch(l -> l.contains("logged out")), "logged out");
    assertThat(Files.readString(tokens)).doesNotContain("\"" + url + "\"");

    Cli third = Cli.start(tokens, "call", url, "deploy");
    try {
      assertThat(third.awaitAuthorizationUrl().getQuery()).contains("code_challenge_method=S256");
    } finally {
      third.kill();
    }
    assertThat(deployed).hasValue(2);
  }
}
