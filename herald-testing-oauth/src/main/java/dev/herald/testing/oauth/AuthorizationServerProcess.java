package dev.herald.testing.oauth;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.URI;
import java.net.URISyntaxException;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A real OAuth 2.1 authorization server for tests: Spring Authorization Server ({@link
 * AuthorizationServerMain}) in a child JVM on 127.0.0.1 and a free port, so that Spring stays off
 * the test's own class path. Depend on herald-testing-oauth in test scope with every transitive
 * dependency excluded; the child's class path is the one this module's build wrote into {@code
 * dev/herald/testing/oauth/classpath.txt} (Maven's local repository), plus this module's classes.
 *
 * <p>The server publishes RFC 8414 and OpenID metadata, a JWKS, the token, introspection,
 * revocation and (open) dynamic client registration endpoints. Its clients:
 *
 * <ul>
 *   <li>{@link #MACHINE_CLIENT_ID}: confidential, {@code client_credentials}, JWT access tokens;
 *   <li>{@link #SHORT_LIVED_CLIENT_ID}: the same with tokens that live one second (expiry tests);
 *   <li>{@link #OPAQUE_CLIENT_ID}: the same with opaque (reference) tokens, for introspection;
 *   <li>{@link #RESOURCE_CLIENT_ID}: a resource server's credentials for the introspection
 *       endpoint;
 *   <li>{@link #PUBLIC_CLIENT_ID}: public, {@code authorization_code} with PKCE and refresh
 *       tokens, redirect {@link #REDIRECT_URI} (any port: RFC 8252 loopback), user {@link #USER}.
 * </ul>
 *
 * <p>Scopes {@code tools:read}, {@code tools:call}, {@code admin} and {@code openid}. The access
 * token's {@code aud} is the request's {@code resource} (RFC 8707).
 *
 * {@snippet :
 * try (AuthorizationServerProcess as = AuthorizationServerProcess.start()) {
 *   String token = as.clientCredentialsToken(AuthorizationServerProcess.MACHINE_CLIENT_ID,
 *       AuthorizationServerProcess.MACHINE_CLIENT_SECRET, "http://127.0.0.1:8080/mcp", "tools:call");
 * }
 * }
 */
public final class AuthorizationServerProcess implements AutoCloseable {
  public static final String MACHINE_CLIENT_ID = "herald-machine";
  public static final String MACHINE_CLIENT_SECRET = "machine-secret";
  public static final String SHORT_LIVED_CLIENT_ID = "herald-short";
  public static final String SHORT_LIVED_CLIENT_SECRET = "short-secret";
  public static final String OPAQUE_CLIENT_ID = "herald-opaque";
  public static final String OPAQUE_CLIENT_SECRET = "opaque-secret";
  public static final String RESOURCE_CLIENT_ID = "herald-resource";
  public static final String RESOURCE_CLIENT_SECRET = "resource-secret";
  public static final String PUBLIC_CLIENT_ID = "herald-public";
  public static final String REDIRECT_URI = "http://127.0.0.1/callback";
  public static final String USER = "alice";
  public static final String PASSWORD = "password";

  private static final Duration START_TIMEOUT = Duration.ofMinutes(2);
  private static final Pattern ACCESS_TOKEN =
      Pattern.compile("\"access_token\"\\s*:\\s*\"([^\"]+)\"");

  private static final Pattern KID = Pattern.compile("\"kid\"\\s*:\\s*\"([^\"]+)\"");

  private final int port;
  private final Path log;
  private final Process process;
  private final HttpClient http =
      HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();

  private AuthorizationServerProcess(int port, Path log, Process process) {
    this.port = port;
    this.log = log;
    this.process = process;
  }

  /** Starts a server with 5-minute tokens and the login form, and waits for its metadata. */
  public static AuthorizationServerProcess start() {
    return builder().start();
  }

  public static Builder builder() {
    return new Builder();
  }

  /** Options of the child server. */
  public static final class Builder {
    private Duration tokenTtl = Duration.ofMinutes(5);
    private boolean autoLogin;
    private final List<String> redirectUris = new ArrayList<>();

    private Builder() {}

    /** The access tokens' lifetime (the short-lived client's is always one second). */
    public Builder tokenTtl(Duration ttl) {
      this.tokenTtl = ttl;
      return this;
    }

    /**
     * The authorization endpoint treats every request as {@link #USER}'s, logged in: a test
     * follows the authorization URL with a plain HTTP GET and gets the redirect with the code.
     */
    public Builder autoLogin(boolean autoLogin) {
      this.autoLogin = autoLogin;
      return this;
    }

    /** Another redirect URI for the public client (loopback URIs match on any port anyway). */
    public Builder redirectUri(String uri) {
      redirectUris.add(uri);
      return this;
    }

    /**
     * Starts the child JVM and waits until its metadata answers.
     *
     * @throws IllegalStateException if it exits or does not answer within two minutes
     */
    public AuthorizationServerProcess start() {
      int port = freePort();
      String issuer = "http://127.0.0.1:" + port;
      List<String> cmd = new ArrayList<>();
      cmd.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
      cmd.addAll(
          List.of(
              "-XX:+UseSerialGC",
              "-XX:TieredStopAtLevel=1",
              "-Xss512k",
              "-Xmx256m",
              "-cp",
              classPath(),
              AuthorizationServerMain.class.getName(),
              "--server.address=127.0.0.1",
              "--server.port=" + port,
              "--herald.issuer=" + issuer,
              "--herald.token-ttl=" + tokenTtl,
              "--herald.auto-login=" + (autoLogin ? USER : ""),
              "--herald.redirect-uris=" + String.join(",", redirectUris),
              "--spring.main.banner-mode=off",
              "--logging.level.root=WARN"));
      Path log;
      Process process;
      try {
        log = Files.createTempFile("herald-authorization-server", ".log");
        process =
            new ProcessBuilder(cmd).redirectErrorStream(true).redirectOutput(log.toFile()).start();
      } catch (IOException e) {
        throw new IllegalStateException("cannot start the authorization server's JVM", e);
      }
      AuthorizationServerProcess as = new AuthorizationServerProcess(port, log, process);
      as.awaitMetadata();
      return as;
    }
  }

  private void awaitMetadata() {
    long deadline = System.nanoTime() + START_TIMEOUT.toNanos();
    while (true) {
      try {
        HttpResponse<String> r =
            http.send(
                HttpRequest.newBuilder(
                        URI.create(issuer() + "/.well-known/oauth-authorization-server"))
                    .timeout(Duration.ofSeconds(5))
                    .build(),
                HttpResponse.BodyHandlers.ofString());
        if (r.statusCode() == 200) {
          return;
        }
      } catch (IOException e) {
        // not listening yet
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        stop();
        throw new IllegalStateException("interrupted while starting the authorization server", e);
      }
      if (!process.isAlive()) {
        throw new IllegalStateException(
            "the authorization server exited with " + process.exitValue() + "; see " + log);
      }
      if (System.nanoTime() - deadline > 0) {
        stop();
        throw new IllegalStateException(
            "the authorization server did not answer within " + START_TIMEOUT + "; see " + log);
      }
      try {
        Thread.sleep(100); // polling a condition: the child answering its metadata
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        stop();
        throw new IllegalStateException("interrupted while starting the authorization server", e);
      }
    }
  }

  /** {@code java -cp} for the child: this module's classes, then its runtime dependencies. */
  static String classPath() {
    String own;
    try {
      own =
          Path.of(
                  AuthorizationServerProcess.class
                      .getProtectionDomain()
                      .getCodeSource()
                      .getLocation()
                      .toURI())
              .toString();
    } catch (URISyntaxException e) {
      throw new IllegalStateException(e);
    }
    try (InputStream in = AuthorizationServerProcess.class.getResourceAsStream("classpath.txt")) {
      if (in == null) {
        throw new IllegalStateException(
            "classpath.txt is missing: build herald-testing-oauth with Maven (mvn package)");
      }
      return own
          + java.io.File.pathSeparator
          + new String(in.readAllBytes(), StandardCharsets.UTF_8).strip();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /** The issuer identifier, {@code http://127.0.0.1:<port>} (no trailing slash). */
  public String issuer() {
    return "http://127.0.0.1:" + port;
  }

  public int port() {
    return port;
  }

  public URI jwksUri() {
    return URI.create(issuer() + "/oauth2/jwks");
  }

  public URI tokenEndpoint() {
    return URI.create(issuer() + "/oauth2/token");
  }

  public URI authorizationEndpoint() {
    return URI.create(issuer() + "/oauth2/authorize");
  }

  public URI introspectionEndpoint() {
    return URI.create(issuer() + "/oauth2/introspect");
  }

  public URI revocationEndpoint() {
    return URI.create(issuer() + "/oauth2/revoke");
  }

  /** RFC 7591 dynamic client registration, open (no initial access token). */
  public URI registrationEndpoint() {
    return URI.create(issuer() + "/oauth2/register");
  }

  /** Where the child writes its output. */
  public Path log() {
    return log;
  }

  /**
   * An access token from the {@code client_credentials} grant, for {@code resource} (RFC 8707;
   * none when null) with {@code scopes}.
   *
   * @throws IllegalStateException when the server refuses
   */
  public String clientCredentialsToken(
      String clientId, String clientSecret, String resource, String... scopes) {
    StringBuilder form = new StringBuilder("grant_type=client_credentials");
    if (scopes.length > 0) {
      form.append("&scope=").append(encode(String.join(" ", scopes)));
    }
    if (resource != null) {
      form.append("&resource=").append(encode(resource));
    }
    String body = post(tokenEndpoint(), form.toString(), clientId, clientSecret);
    Matcher m = ACCESS_TOKEN.matcher(body);
    if (!m.find()) {
      throw new IllegalStateException("no access token in the token response: " + body);
    }
    return m.group(1);
  }

  /** Revokes {@code token} (RFC 7009), authenticated as the client it was issued to. */
  public void revoke(String token, String clientId, String clientSecret) {
    post(
        revocationEndpoint(),
        "token=" + encode(token) + "&token_type_hint=access_token",
        clientId,
        clientSecret);
  }

  /** Replaces the signing key by a new one with a new key id; returns that key id. */
  public String rotateKeys() {
    String body = post(URI.create(issuer() + "/testing/rotate-keys"), "", null, null);
    Matcher m = KID.matcher(body);
    if (!m.find()) {
      throw new IllegalStateException("no key id in the rotation's answer: " + body);
    }
    return m.group(1);
  }

  private String post(URI uri, String form, String clientId, String clientSecret) {
    HttpRequest.Builder request =
        HttpRequest.newBuilder(uri)
            .timeout(Duration.ofSeconds(30))
            .header("Content-Type", "application/x-www-form-urlencoded")
            .POST(HttpRequest.BodyPublishers.ofString(form));
    if (clientId != null) {
      request.header(
          "Authorization",
          "Basic "
              + Base64.getEncoder()
                  .encodeToString(
                      (encode(clientId) + ":" + encode(clientSecret))
                          .getBytes(StandardCharsets.UTF_8)));
    }
    try {
      HttpResponse<String> r = http.send(request.build(), HttpResponse.BodyHandlers.ofString());
      if (r.statusCode() != 200) {
        throw new IllegalStateException(uri + " answered " + r.statusCode() + ": " + r.body());
      }
      return r.body();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException("interrupted", e);
    }
  }

  private static String encode(String s) {
    return URLEncoder.encode(s, StandardCharsets.UTF_8);
  }

  /** Kills the child JVM at once and waits for its end. */
  public void stop() {
    process.destroyForcibly();
    try {
      process.waitFor(30, TimeUnit.SECONDS);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }

  /** Stops the child and removes its log. */
  @Override
  public void close() {
    stop();
    http.close();
    try {
      Files.deleteIfExists(log);
    } catch (IOException e) {
      // best effort: a temporary file
    }
  }

  /** A port that was free a moment ago, on 127.0.0.1. */
  static int freePort() {
    try (ServerSocket s = new ServerSocket()) {
      s.setReuseAddress(true);
      s.bind(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0));
      return s.getLocalPort();
    } catch (IOException e) {
      throw new IllegalStateException("no free port", e);
    }
  }
}
