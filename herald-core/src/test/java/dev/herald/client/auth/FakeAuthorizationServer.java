package dev.herald.client.auth;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.function.UnaryOperator;

/**
 * A protected resource's metadata and an authorization server on one 127.0.0.1 port, answering
 * as a test configures it, and recording every request ("GET /path?query" or "POST /path body").
 * The authorization endpoint redirects straight back with a code, as the conformance suite's does.
 */
final class FakeAuthorizationServer implements AutoCloseable {
  final HttpServer server;
  final ExecutorService executor = Executors.newVirtualThreadPerTaskExecutor();
  final List<String> requests = new CopyOnWriteArrayList<>();
  final URI base;

  /** The resource the metadata names (default: the MCP endpoint itself). */
  volatile String resource;

  /** Edits the authorization server metadata before it is sent (default: unchanged). */
  volatile UnaryOperator<String> metadata = UnaryOperator.identity();

  /** Extra query parameters of the redirect back (e.g. {@code &iss=...}). */
  volatile String redirectExtra = "";

  volatile String scopeGranted = "";
  volatile boolean issueRefreshTokens = true;
  private final java.util.concurrent.atomic.AtomicInteger tokens =
      new java.util.concurrent.atomic.AtomicInteger();

  FakeAuthorizationServer() throws IOException {
    server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
    server.setExecutor(executor);
    base = URI.create("http://127.0.0.1:" + server.getAddress().getPort());
    resource = base + "/mcp";
    server.createContext("/", this::handle);
    server.start();
  }

  URI mcp() {
    return URI.create(base + "/mcp");
  }

  private void handle(HttpExchange ex) throws IOException {
    String path = ex.getRequestURI().getRawPath();
    String query = ex.getRequestURI().getRawQuery();
    String body = new String(ex.getRequestBody().readAllBytes(), StandardCharsets.UTF_8);
    String auth = ex.getRequestHeaders().getFirst("Authorization");
    requests.add(
        ex.getRequestMethod()
            + " "
            + path
            + (query == null ? "" : "?" + query)
            + (body.isEmpty() ? "" : " " + body)
            + (auth == null ? "" : " [" + auth + "]"));
    switch (path) {
      case "/.well-known/oauth-protected-resource/mcp" ->
          json(
              ex,
              200,
              "{\"resource\":\""
                  + resource
                  + "\",\"authorization_servers\":[\""
                  + base
                  + "\"],\"scopes_supported\":[\"read\"]}");
      case "/.well-known/oauth-authorization-server" ->
          json(
              ex,
              200,
              metadata.apply(
                  "{\"issuer\":\""
                      + base
                      + "\",\"authorization_endpoint\":\""
                      + base
                      + "/authorize\","
                      + "\"token_endpoint\":\""
                      + base
                      + "/token\",\"registration_endpoint\":\""
                      + base
                      + "/register\","
                      + "\"code_challenge_methods_supported\":[\"S256\"],\"scopes_supported\":[\"read\",\"offline_access\"]}"));
      case "/register" -> json(ex, 201, "{\"client_id\":\"registered-1\"}");
      case "/authorize" -> {
        Map<String, String> q = OAuthClient.queryOf(ex.getRequestURI());
        ex.getResponseHeaders()
            .add(
                "Location",
                q.get("redirect_uri")
                    + "?code=code-1&state="
                    + OAuthHttp.encode(q.get("state"))
                    + redirectExtra);
        ex.sendResponseHeaders(302, -1);
        ex.close();
      }
      case "/token" -> {
        int n = tokens.incrementAndGet();
        json(
            ex,
            200,
            "{\"access_token\":\"access-"
                + n
                + "\",\"token_type\":\"Bearer\",\"expires_in\":3600"
                + (issueRefreshTokens ? ",\"refresh_token\":\"refresh-" + n + "\"" : "")
                + (scopeGranted.isEmpty() ? "" : ",\"scope\":\"" + scopeGranted + "\"")
                + "}");
      }
      default -> json(ex, 404, "{\"error\":\"not_found\"}");
    }
  }

  private static void json(HttpExchange ex, int status, String body) throws IOException {
    byte[] b = body.getBytes(StandardCharsets.UTF_8);
    ex.getResponseHeaders().add("Content-Type", "application/json");
    ex.sendResponseHeaders(status, b.length);
    ex.getResponseBody().write(b);
    ex.close();
  }

  /** The recorded requests whose line starts with {@code prefix}. */
  List<String> requests(String prefix) {
    return requests.stream().filter(r -> r.startsWith(prefix)).toList();
  }

  @Override
  public void close() {
    server.stop(0);
    executor.shutdownNow();
  }
}
