package dev.herald.oauth;

import static dev.herald.testing.Eventually.eventually;
import static org.assertj.core.api.Assertions.assertThat;

import com.nimbusds.jose.util.Base64URL;
import dev.herald.auth.Principal;
import dev.herald.auth.ProtectedResource;
import dev.herald.auth.TokenVerifier;
import dev.herald.http.McpHttpServer;
import dev.herald.server.McpServer;
import dev.herald.testing.Eventually;
import dev.herald.testing.oauth.AuthorizationServerProcess;
import dev.herald.wire.CallToolResult;
import dev.herald.wire.McpJson;
import dev.herald.wire.Tool;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;

/**
 * A protected Herald server end to end: an {@link McpHttpServer} (real Jetty) whose tokens a
 * {@link JwtTokenVerifier} checks against a real authorization server (Spring Authorization Server
 * in a child JVM), called over raw HTTP with the tokens that server mints (MCP 2025-11-25 {@code
 * basic/authorization}).
 */
class ProtectedServerEndToEndTest {
  /** The protected server's canonical URI: the audience its tokens must name. */
  private static final String RESOURCE = "http://127.0.0.1/mcp";

  private static final String METADATA =
      "http://127.0.0.1/.well-known/oauth-protected-resource/mcp";

  private static AuthorizationServerProcess as;
  private static final List<AutoCloseable> closing = new ArrayList<>();
  private static final AtomicInteger adminRuns = new AtomicInteger();
  private static final List<String> whoRan = new CopyOnWriteArrayList<>();
  private static URI mcp;
  private static URI misconfiguredMcp;
  private static URI introspectingMcp;
  private static URI hungKeysMcp;
  private static HangingServer hungJwks;

  @BeforeAll
  static void start() {
    as = AuthorizationServerProcess.start();
    mcp = protectedServer(verifier().build());
    // The same keys, but expecting another issuer: every genuine token names the wrong one.
    misconfiguredMcp =
        protectedServer(
            JwtTokenVerifier.builder()
                .issuer("http://127.0.0.1:1/elsewhere")
                .audience(RESOURCE)
                .jwksUri(as.jwksUri())
                .build());
    introspectingMcp =
        protectedServer(
            IntrospectionTokenVerifier.builder()
                .introspectionEndpoint(as.introspectionEndpoint())
                .clientCredentials(
                    AuthorizationServerProcess.RESOURCE_CLIENT_ID,
                    AuthorizationServerProcess.RESOURCE_CLIENT_SECRET)
                .issuer(as.issuer())
                .audience(RESOURCE)
                .build());
    hungJwks = new HangingServer();
    closing.add(hungJwks);
    hungKeysMcp =
        protectedServer(
            JwtTokenVerifier.builder()
                .issuer(as.issuer())
                .audience(RESOURCE)
                .jwksUri(hungJwks.uri("/jwks"))
                .timeout(Duration.ofSeconds(1)) // long enough to connect on a busy machine
                .build());
  }

  /** The protected server's verifier: a short clock skew, so that expiry shows within a test. */
  private static JwtTokenVerifier.Builder verifier() {
    return JwtTokenVerifier.builder()
        .issuer(as.issuer())
        .audience(RESOURCE)
        .clockSkew(Duration.ofSeconds(1));
  }

  private static <V extends TokenVerifier & AutoCloseable> URI protectedServer(V verifier) {
    McpServer server =
        McpServer.builder()
            .tool(
                Tool.builder("whoami").build(),
                call -> {
                  String who = call.context().principal().map(Principal::subject).orElse("-");
                  whoRan.add(who);
                  return CallToolResult.text(who);
                })
            .tool(
                Tool.builder("admin_tool").build(),
                call -> {
                  adminRuns.incrementAndGet();
                  return CallToolResult.text("done");
                })
            .toolScopes("admin_tool", "admin")
            .build();
    McpHttpServer http =
        McpHttpServer.builder()
            .server(server)
            .port(0)
            .authorization(
                ProtectedResource.builder()
                    .resource(URI.create(RESOURCE))
                    .verifier(verifier)
                    .authorizationServers(URI.create(as.issuer()))
                    .scopesSupported("tools:call", "admin")
                    .challengeScopes("tools:call")
                    .build())
            .build()
            .start();
    closing.add(verifier);
    closing.add(http);
    closing.add(server::close);
    return URI.create("http://127.0.0.1:" + http.port() + "/mcp");
  }

  @AfterAll
  static void stop() throws Exception {
    for (AutoCloseable c : closing) {
      c.close();
    }
    if (as != null) {
      as.close();
    }
  }

  private static String token(String resource, String... scopes) {
    return as.clientCredentialsToken(
        AuthorizationServerProcess.MACHINE_CLIENT_ID,
        AuthorizationServerProcess.MACHINE_CLIENT_SECRET,
        resource,
        scopes);
  }

  @Test
  void aRequestWithoutATokenIs401WithTheChallenge() throws Exception {
    HttpResponse<String> r = new Caller(mcp, null).initializeResponse();
    assertThat(r.statusCode()).isEqualTo(401);
    assertThat(challenge(r))
        .isEqualTo("Bearer resource_metadata=\"" + METADATA + "\", scope=\"tools:call\"");
  }

  @Test
  void aTokenFromTheAuthorizationServerCallsATool() throws Exception {
    Caller caller = new Caller(mcp, token(RESOURCE, "tools:call"));
    caller.initialize();
    HttpResponse<String> r = caller.request("tools/call", "{\"name\":\"whoami\",\"arguments\":{}}");
    assertThat(r.statusCode()).isEqualTo(200);
    assertThat(message(r).at("/result/content/0/text").asString())
        .isEqualTo(AuthorizationServerProcess.MACHINE_CLIENT_ID);
  }

  @Test
  void expiredWrongAudienceWrongIssuerAndBadlySignedTokensAre401() throws Exception {
    String expired =
        as.clientCredentialsToken(
            AuthorizationServerProcess.SHORT_LIVED_CLIENT_ID,
            AuthorizationServerProcess.SHORT_LIVED_CLIENT_SECRET,
            RESOURCE,
            "tools:call");
    String good = token(RESOURCE, "tools:call");
    String[] parts = good.split("\\.", -1);
    byte[] sig = new Base64URL(parts[2]).decode();
    sig[7] ^= 1;
    String tampered = parts[0] + "." + parts[1] + "." + Base64URL.encode(sig);

    // The one-second token expires (past the one-second clock skew): wait for that, off the wire.
    try (JwtTokenVerifier same = verifier().build()) {
      Eventually.eventually(
          Duration.ofSeconds(30),
          () -> {
            try {
              same.verify(expired);
              return false;
            } catch (dev.herald.auth.InvalidTokenException e) {
              return true;
            }
          },
          "the one-second token has expired");
    }
    assertRefused(mcp, expired, "the token has expired");
    assertRefused(
        mcp,
        token("http://127.0.0.1:9/other", "tools:call"),
        "the token was not issued for " + RESOURCE);
    assertRefused(
        misconfiguredMcp, good, "the token was not issued by http://127.0.0.1:1/elsewhere");
    assertRefused(mcp, tampered, "the token's signature is not valid");
    assertRefused(mcp, parts[0] + "." + parts[1] + ".", "the token is not a well-formed JWT");
    assertThat(whoRan).doesNotContain("-");
  }

  private static void assertRefused(URI uri, String token, String reason) throws Exception {
    HttpResponse<String> r = new Caller(uri, token).initializeResponse();
    assertThat(r.statusCode()).as(reason).isEqualTo(401);
    assertThat(challenge(r))
        .as(reason)
        .startsWith("Bearer error=\"invalid_token\"")
        .contains("error_description=\"" + reason)
        .contains("resource_metadata=\"" + METADATA + "\"")
        .doesNotContain(token);
  }

  @Test
  void aTokenWithoutTheToolsScopeIs403AndTheToolDoesNotRun() throws Exception {
    int before = adminRuns.get();
    Caller caller = new Caller(mcp, token(RESOURCE, "tools:call"));
    caller.initialize();
    HttpResponse<String> r =
        caller.request("tools/call", "{\"name\":\"admin_tool\",\"arguments\":{}}");
    assertThat(r.statusCode()).isEqualTo(403);
    assertThat(challenge(r)).contains("error=\"insufficient_scope\"").contains("scope=\"admin\"");
    assertThat(adminRuns.get()).isEqualTo(before);

    Caller admin = new Caller(mcp, token(RESOURCE, "tools:call", "admin"));
    admin.initialize();
    HttpResponse<String> ok =
        admin.request("tools/call", "{\"name\":\"admin_tool\",\"arguments\":{}}");
    assertThat(ok.statusCode()).isEqualTo(200);
    assertThat(message(ok).at("/result/content/0/text").asString()).isEqualTo("done");
    assertThat(adminRuns.get()).isEqualTo(before + 1);
  }

  @Test
  void oneClientsSessionIsRefusedToAnother() throws Exception {
    Caller machine = new Caller(mcp, token(RESOURCE, "tools:call"));
    String session = machine.initialize();
    Caller other =
        new Caller(
            mcp,
            as.clientCredentialsToken(
                AuthorizationServerProcess.RESOURCE_CLIENT_ID,
                AuthorizationServerProcess.RESOURCE_CLIENT_SECRET,
                RESOURCE,
                "introspect"));
    other.session = session;
    HttpResponse<String> stolen =
        other.request("tools/call", "{\"name\":\"whoami\",\"arguments\":{}}");
    assertThat(stolen.statusCode()).isEqualTo(404);
    assertThat(whoRan).doesNotContain(AuthorizationServerProcess.RESOURCE_CLIENT_ID);

    // The same client with a fresh token is the same party: its session still works.
    machine.token = token(RESOURCE, "tools:call");
    HttpResponse<String> mine =
        machine.request("tools/call", "{\"name\":\"whoami\",\"arguments\":{}}");
    assertThat(mine.statusCode()).isEqualTo(200);
  }

  @Test
  void anOpaqueTokenIsCheckedByIntrospectionAndRefusedOnceRevoked() throws Exception {
    String opaque =
        as.clientCredentialsToken(
            AuthorizationServerProcess.OPAQUE_CLIENT_ID,
            AuthorizationServerProcess.OPAQUE_CLIENT_SECRET,
            RESOURCE,
            "tools:call");
    Caller caller = new Caller(introspectingMcp, opaque);
    caller.initialize();
    HttpResponse<String> r = caller.request("tools/call", "{\"name\":\"whoami\",\"arguments\":{}}");
    assertThat(message(r).at("/result/content/0/text").asString())
        .isEqualTo(AuthorizationServerProcess.OPAQUE_CLIENT_ID);

    as.revoke(
        opaque,
        AuthorizationServerProcess.OPAQUE_CLIENT_ID,
        AuthorizationServerProcess.OPAQUE_CLIENT_SECRET);
    HttpResponse<String> revoked =
        caller.request("tools/call", "{\"name\":\"whoami\",\"arguments\":{}}");
    assertThat(revoked.statusCode()).isEqualTo(401);
    assertThat(challenge(revoked))
        .contains("error=\"invalid_token\"")
        .contains("the token is not active");
  }

  @Test
  void aJwksEndpointThatHangsIs401InTimeAndLeavesOtherServersCallsAlone() throws Exception {
    String token = token(RESOURCE, "tools:call");
    HttpResponse<String> r = new Caller(hungKeysMcp, token).initializeResponse();
    assertThat(r.statusCode()).isEqualTo(401);
    assertThat(challenge(r))
        .contains("error=\"invalid_token\"")
        .contains("could not be verified in time");
    // the server's accept is recorded on a thread of its own, maybe after the refusal
    eventually(() -> hungJwks.accepted() > 0, "the verifier connected to the hanging endpoint");

    Caller fine = new Caller(mcp, token);
    fine.initialize();
    assertThat(fine.request("tools/call", "{\"name\":\"whoami\",\"arguments\":{}}").statusCode())
        .isEqualTo(200);
  }

  private static String challenge(HttpResponse<?> r) {
    return r.headers().firstValue("WWW-Authenticate").orElse("(none)");
  }

  /** The JSON-RPC message of a JSON or SSE answer (the last {@code data:} line). */
  private static JsonNode message(HttpResponse<String> r) {
    String text = r.body().strip();
    if (text.startsWith("{")) {
      return McpJson.mapper().readTree(text);
    }
    JsonNode last = null;
    for (String line : text.split("\n", -1)) {
      if (line.startsWith("data: ") && line.length() > 6) {
        last = McpJson.mapper().readTree(line.substring(6));
      }
    }
    if (last == null) {
      throw new AssertionError("no message in " + r.statusCode() + " " + text);
    }
    return last;
  }

  /** One caller's raw Streamable HTTP in the 2025-11-25 era, with its bearer token. */
  private static final class Caller {
    private static final HttpClient CLIENT =
        HttpClient.newBuilder()
            .version(HttpClient.Version.HTTP_1_1)
            .connectTimeout(Duration.ofSeconds(5))
            .build();
    private final URI uri;
    String token;
    String session;
    private int ids;

    Caller(URI uri, String token) {
      this.uri = uri;
      this.token = token;
    }

    HttpResponse<String> post(String body) throws IOException, InterruptedException {
      HttpRequest.Builder b =
          HttpRequest.newBuilder(uri)
              .timeout(Duration.ofSeconds(30))
              .header("Accept", "application/json, text/event-stream")
              .header("Content-Type", "application/json")
              .header("MCP-Protocol-Version", "2025-11-25")
              .POST(HttpRequest.BodyPublishers.ofString(body));
      if (token != null) {
        b.header("Authorization", "Bearer " + token);
      }
      if (session != null) {
        b.header("Mcp-Session-Id", session);
      }
      return CLIENT.send(b.build(), HttpResponse.BodyHandlers.ofString(StandardCharsets.UTF_8));
    }

    HttpResponse<String> initializeResponse() throws IOException, InterruptedException {
      return post(
          "{\"jsonrpc\":\"2.0\",\"id\":0,\"method\":\"initialize\",\"params\":{\"protocolVersion\":"
              + "\"2025-11-25\",\"capabilities\":{},\"clientInfo\":{\"name\":\"t\",\"version\":\"1\"}}}");
    }

    String initialize() throws IOException, InterruptedException {
      HttpResponse<String> r = initializeResponse();
      assertThat(r.statusCode()).as(r.body()).isEqualTo(200);
      session = r.headers().firstValue("Mcp-Session-Id").orElseThrow();
      HttpResponse<String> n =
          post("{\"jsonrpc\":\"2.0\",\"method\":\"notifications/initialized\"}");
      assertThat(n.statusCode()).isEqualTo(202);
      return session;
    }

    HttpResponse<String> request(String method, String params)
        throws IOException, InterruptedException {
      return post(
          "{\"jsonrpc\":\"2.0\",\"id\":"
              + (++ids)
              + ",\"method\":\""
              + method
              + "\",\"params\":"
              + params
              + "}");
    }
  }
}
