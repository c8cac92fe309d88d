package dev.herald.cli;

import com.sun.net.httpserver.HttpServer;
import dev.herald.client.auth.Authorization;
import dev.herald.client.auth.AuthorizationCodeHandler;
import dev.herald.client.auth.Challenge;
import dev.herald.client.auth.OAuthClient;
import dev.herald.client.auth.TokenStore;
import java.io.IOException;
import java.io.InputStream;
import java.io.PrintStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.jspecify.annotations.Nullable;

/**
 * The command line's authorization with a protected HTTP server (MCP 2025-11-25
 * basic/authorization): tokens kept in {@code tokens.json} under the user's configuration folder
 * ({@code $HERALD_TOKEN_FILE}, else {@code $XDG_CONFIG_HOME/herald}, else {@code
 * ~/.config/herald}), reused and refreshed on later runs; when a flow is needed the authorization
 * URL is printed on stderr (and opened in the desktop's browser when there is one, unless {@code
 * HERALD_NO_BROWSER} is set), and the code
 * comes back to a one-shot listener on a loopback redirect URI ({@code
 * http://127.0.0.1:<port>/callback}), waited for at most five minutes. The client registers
 * itself dynamically (RFC 7591) unless {@code HERALD_CLIENT_ID} names a pre-registered client
 * (whose loopback redirect URI must be allowed on any port, RFC 8252 §7.3; {@code
 * HERALD_CLIENT_SECRET} is its secret when the authorization server gave it one).
 *
 * <p>Design note. A login waits for a person, the client's negotiation does not: its {@code
 * server/discover} probe gives up after 10 s and {@code initialize} after 30 s, so a login started
 * by their refusal and finished later failed the command. With no token kept for the server, {@link
 * #authorizeFirst} therefore asks the server once before connecting and, refused with {@code 401},
 * runs the flow then, outside any request's timeout. A kept token is refreshed on a {@code 401}
 * during the connection, which takes no person.
 */
final class Login {
  static final Duration WAIT = Duration.ofMinutes(5);

  private Login() {}

  /** The token file. */
  static Path tokenFile() {
    String file = System.getenv("HERALD_TOKEN_FILE");
    if (file != null && !file.isBlank()) {
      return Path.of(file);
    }
    String xdg = System.getenv("XDG_CONFIG_HOME");
    Path dir =
        xdg != null && !xdg.isBlank()
            ? Path.of(xdg)
            : Path.of(System.getProperty("user.home"), ".config");
    return dir.resolve("herald").resolve("tokens.json");
  }

  /** The client's authorization, its flow on a fresh loopback port. */
  static OAuthClient oauth(PrintStream err) {
    int port = freePort();
    URI redirect = URI.create("http://127.0.0.1:" + port + "/callback");
    OAuthClient.Builder builder = OAuthClient.builder().clientName("herald");
    String clientId = System.getenv("HERALD_CLIENT_ID");
    if (clientId != null && !clientId.isBlank()) {
      builder.clientId(clientId);
      String secret = System.getenv("HERALD_CLIENT_SECRET");
      if (secret != null && !secret.isBlank()) {
        builder.clientSecret(secret);
      }
    }
    return builder
        .redirectUri(redirect)
        .authorizationCodeHandler(browser(port, err))
        .tokenStore(TokenStore.file(tokenFile()))
        .build();
  }

  /**
   * Authorizes with the server at {@code url} before the client connects, when no token is kept
   * for it: one {@code GET} of the endpoint, and if that is refused with {@code 401}, the flow (the
   * browser step included) with that challenge. Anything else (a server that needs no token, one
   * that cannot be reached, a failed flow) is left to the connection, which reports it.
   */
  static void authorizeFirst(URI url, Authorization auth) {
    if (auth.authorizationHeader(url).isPresent()) {
      return;
    }
    Challenge challenge = probe(url);
    if (challenge == null) {
      return;
    }
    try {
      auth.retryAfter(challenge);
    } catch (RuntimeException e) {
      // the connection meets the same refusal and reports it with its challenge
    }
  }

  /** The challenge of a {@code 401} to a {@code GET} of {@code url}, or null for any other answer. */
  private static @Nullable Challenge probe(URI url) {
    HttpClient http =
        HttpClient.newBuilder()
            .version(HttpClient.Version.HTTP_1_1)
            .connectTimeout(PROBE_TIMEOUT)
            .followRedirects(HttpClient.Redirect.NEVER)
            .build();
    try {
      HttpResponse<InputStream> r =
          http.send(
              HttpRequest.newBuilder(url)
                  .timeout(PROBE_TIMEOUT)
                  .header("Accept", "text/event-stream")
                  .GET()
                  .build(),
              HttpResponse.BodyHandlers.ofInputStream());
      r.body().close(); // a stream (an HTTP+SSE server's) is not read
      if (r.statusCode() != 401) {
        return null;
      }
      String header = String.join(", ", r.headers().allValues("WWW-Authenticate"));
      return Challenge.of(url, 401, header.isEmpty() ? null : header, null);
    } catch (IOException e) {
      return null;
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return null;
    } finally {
      http.shutdownNow();
    }
  }

  private static final Duration PROBE_TIMEOUT = Duration.ofSeconds(10);

  /** Prints (and opens) the URL, then waits for the redirect on 127.0.0.1:{@code port}. */
  static AuthorizationCodeHandler browser(int port, PrintStream err) {
    return (authorizationUrl, redirectUri) -> {
      CompletableFuture<URI> redirected = new CompletableFuture<>();
      HttpServer server =
          HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), port), 0);
      server.createContext(
          redirectUri.getRawPath(),
          ex -> {
            URI u =
                URI.create(
                    redirectUri
                        + (ex.getRequestURI().getRawQuery() == null
                            ? ""
                            : "?" + ex.getRequestURI().getRawQuery()));
            byte[] page =
                "<!doctype html><title>herald</title><p>Done: you can close this window and go back to the terminal."
                    .getBytes(StandardCharsets.UTF_8);
            ex.getResponseHeaders().add("Content-Type", "text/html; charset=utf-8");
            ex.sendResponseHeaders(200, page.length);
            ex.getResponseBody().write(page);
            ex.close();
            redirected.complete(u);
          });
      server.start();
      try {
        err.println("herald: the server asks for authorization; open this URL to log in:");
        err.println("  " + authorizationUrl);
        openBrowser(authorizationUrl);
        return redirected.get(WAIT.toSeconds(), TimeUnit.SECONDS);
      } catch (ExecutionException e) {
        throw new IOException("the authorization redirect failed", e.getCause());
      } catch (TimeoutException e) {
        throw new IOException("no authorization within " + WAIT.toMinutes() + " minutes");
      } finally {
        server.stop(0);
      }
    };
  }

  /**
   * Opens the URL in the desktop's browser, unless {@code HERALD_NO_BROWSER} is set (to anything
   * but empty or {@code 0}) or the JVM is headless.
   */
  private static void openBrowser(URI url) {
    String noBrowser = System.getenv("HERALD_NO_BROWSER");
    if (noBrowser != null && !noBrowser.isBlank() && !noBrowser.equals("0")) {
      return;
    }
    try {
      if (!java.awt.GraphicsEnvironment.isHeadless()
          && java.awt.Desktop.isDesktopSupported()
          && java.awt.Desktop.getDesktop().isSupported(java.awt.Desktop.Action.BROWSE)) {
        java.awt.Desktop.getDesktop().browse(url);
      }
    } catch (IOException | RuntimeException | LinkageError e) {
      // no browser: the printed URL is the way
    }
  }

  private static int freePort() {
    try (ServerSocket s = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
      return s.getLocalPort();
    } catch (IOException e) {
      throw new java.io.UncheckedIOException("no free loopback port for the redirect", e);
    }
  }
}
