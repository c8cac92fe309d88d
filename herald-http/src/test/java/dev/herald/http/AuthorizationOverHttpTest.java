package dev.herald.http;

import static dev.herald.http.AuthFixture.ALICE;
import static dev.herald.http.AuthFixture.BOB;
import static dev.herald.http.AuthFixture.EXPIRED;
import static dev.herald.http.AuthFixture.HANGS;
import static dev.herald.http.AuthFixture.challenge;
import static dev.herald.http.AuthFixture.message;
import static dev.herald.testing.RawHttpClient.json;
import static org.assertj.core.api.Assertions.assertThat;

import dev.herald.http.AuthFixture.Caller;
import java.net.URI;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;

/**
 * The endpoint as an OAuth 2.1 resource server (MCP 2025-11-25 basic/authorization; RFC 6750,
 * RFC 9728), over a real Jetty server with raw HTTP: the protected resource metadata at both
 * well-known locations, 401 and its challenge for every kind of missing, malformed or refused
 * token on every MCP path, and a verifier that hangs holding up nobody else.
 */
class AuthorizationOverHttpTest {
  // the verification timeout: the hanging verifier's cut-off, long enough that no valid token's
  // verification on a busy machine runs into it
  private final AuthFixture f = new AuthFixture(Duration.ofSeconds(5));

  @AfterEach
  void stop() {
    f.close();
  }

  private URI mcp() {
    return f.base().resolve("/mcp");
  }

  private static final String METADATA =
      "http://127.0.0.1/.well-known/oauth-protected-resource/mcp";

  @Test
  void metadataIsServedAtThePathBasedAndTheRootWellKnownLocationsWithoutAToken() throws Exception {
    Caller anonymous = new Caller(mcp(), null);
    for (String path :
        List.of(
            "/.well-known/oauth-protected-resource/mcp", "/.well-known/oauth-protected-resource")) {
      HttpResponse<String> r = anonymous.send(HttpRequest.newBuilder(f.base().resolve(path)).GET());
      assertThat(r.statusCode()).as(path).isEqualTo(200);
      assertThat(r.headers().firstValue("Content-Type")).hasValue("application/json");
      JsonNode m = json(r.body());
      assertThat(m.get("resource").asString()).isEqualTo("http://127.0.0.1/mcp");
      assertThat(m.get("authorization_servers").get(0).asString()).isEqualTo(AuthFixture.ISSUER);
      assertThat(m.get("scopes_supported").toString()).isEqualTo("[\"mcp\",\"admin\"]");
      assertThat(m.get("bearer_methods_supported").toString()).isEqualTo("[\"header\"]");
      assertThat(m.get("resource_name").asString()).isEqualTo("Test MCP server");
    }
    HttpResponse<String> post =
        anonymous.send(
            HttpRequest.newBuilder(f.base().resolve("/.well-known/oauth-protected-resource"))
                .POST(HttpRequest.BodyPublishers.ofString("{}")));
    assertThat(post.statusCode()).isEqualTo(405);
    assertThat(
            anonymous
                .send(HttpRequest.newBuilder(f.base().resolve("/.well-known/other")).GET())
                .statusCode())
        .isEqualTo(404);
  }

  @Test
  void everyMcpRequestWithoutATokenIs401WithTheMetadataAndScopeChallenge() throws Exception {
    Caller anonymous = new Caller(mcp(), null);
    HttpResponse<String> post = anonymous.request("tools/list", "{}");
    HttpResponse<String> get =
        anonymous.send(HttpRequest.newBuilder(mcp()).GET().header("Accept", "text/event-stream"));
    HttpResponse<String> delete =
        anonymous.send(HttpRequest.newBuilder(mcp()).DELETE().header("Mcp-Session-Id", "x"));
    HttpResponse<String> modern =
        anonymous.modern("tools/list", null, "{" + AuthFixture.META + "}");
    HttpResponse<String> legacySse =
        anonymous.send(
            HttpRequest.newBuilder(f.base().resolve("/sse"))
                .GET()
                .header("Accept", "text/event-stream"));
    HttpResponse<String> legacyPost =
        anonymous.send(
            HttpRequest.newBuilder(f.base().resolve("/messages?sessionId=x"))
                .header("Content-Type", "application/json")
                .POST(HttpRequest.BodyPublishers.ofString("{}")));
    for (HttpResponse<String> r : List.of(post, get, delete, modern, legacySse, legacyPost)) {
      assertThat(r.statusCode()).as(r.request().method() + " " + r.uri()).isEqualTo(401);
      assertThat(challenge(r))
          .isEqualTo("Bearer resource_metadata=\"" + METADATA + "\", scope=\"mcp\"");
      assertThat(json(r.body()).at("/error/message").asString()).startsWith("Unauthorized");
    }
  }

  @Test
  void aTokenTheVerifierRefusesIs401InvalidTokenWithItsReason() throws Exception {
    HttpResponse<String> r = new Caller(mcp(), "forged").request("tools/list", "{}");
    assertThat(r.statusCode()).isEqualTo(401);
    assertThat(challenge(r))
        .isEqualTo(
            "Bearer error=\"invalid_token\", error_description=\"unknown token\", "
                + "resource_metadata=\""
                + METADATA
                + "\", scope=\"mcp\"");

    HttpResponse<String> expired = new Caller(mcp(), EXPIRED).request("tools/list", "{}");
    assertThat(expired.statusCode()).isEqualTo(401);
    assertThat(challenge(expired)).contains("error=\"invalid_token\"").contains("expired");
  }

  @Test
  void malformedAuthorizationHeadersAre401WithoutCallingTheVerifier() throws Exception {
    String huge = "a".repeat(5000);
    List<String> malformed =
        List.of(
            "Bearer",
            "Bearer ",
            "Bearer  " + ALICE,
            "Bearer " + ALICE + " extra",
            "Bearer tok\"en",
            "Bearer " + huge);
    for (String header : malformed) {
      HttpResponse<String> r = withAuthorization(header);
      assertThat(r.statusCode()).as(abbreviated(header)).isEqualTo(401);
      assertThat(challenge(r))
          .as(abbreviated(header))
          .startsWith("Bearer error=\"invalid_request\"");
    }
    for (String other : List.of("Basic YWxpY2U6cHc=", "Token " + ALICE, "")) {
      HttpResponse<String> r = withAuthorization(other);
      assertThat(r.statusCode()).as(other).isEqualTo(401);
      assertThat(challenge(r)).as(other).startsWith("Bearer resource_metadata=");
    }
    Caller twice = new Caller(mcp(), ALICE);
    HttpResponse<String> two =
        twice.send(
            twice
                .request()
                .header("Authorization", "Bearer " + BOB)
                .header("MCP-Protocol-Version", "2025-11-25")
                .POST(HttpRequest.BodyPublishers.ofString("{}")));
    assertThat(two.statusCode()).isEqualTo(401);
    assertThat(challenge(two)).contains("more than one Authorization header");

    Caller inQuery = new Caller(URI.create(mcp() + "?access_token=" + ALICE), null);
    HttpResponse<String> q = inQuery.request("tools/list", "{}");
    assertThat(q.statusCode()).isEqualTo(401);
    assertThat(challenge(q)).contains("error=\"invalid_request\"");

    assertThat(f.verified).as("the verifier saw none of them").isEmpty();
  }

  private static String abbreviated(String s) {
    return s.length() > 40 ? s.substring(0, 40) + "... (" + s.length() + " chars)" : s;
  }

  private HttpResponse<String> withAuthorization(String header) throws Exception {
    Caller c = new Caller(mcp(), null);
    return c.send(
        c.request()
            .header("Authorization", header)
            .header("MCP-Protocol-Version", "2025-11-25")
            .POST(
                HttpRequest.BodyPublishers.ofString(
                    "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"ping\"}")));
  }

  @Test
  void aVerifierThatHangsIsCutOffByItsTimeoutAndOtherSessionsAreServedMeanwhile() throws Exception {
    Caller alice = new Caller(mcp(), ALICE);
    alice.initialize();
    Caller stuck = new Caller(mcp(), HANGS);
    CompletableFuture<HttpResponse<String>> pending =
        stuck.client.sendAsync(
            stuck
                .request()
                .header("MCP-Protocol-Version", "2025-11-25")
                .POST(
                    HttpRequest.BodyPublishers.ofString(
                        "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"ping\"}"))
                .build(),
            HttpResponse.BodyHandlers.ofString());
    dev.herald.testing.Eventually.eventually(
        () -> f.verifications(HANGS) == 1, "the hanging verification started");
    // while it hangs, another party's session works as ever
    HttpResponse<String> echo = alice.request("tools/call", "{'name':'echo','arguments':{}}");
    assertThat(echo.statusCode()).isEqualTo(200);
    assertThat(message(echo).at("/result/content/0/text").asString()).isEqualTo("echo");
    assertThat(new Caller(mcp(), BOB).initialize()).isNotEmpty();

    HttpResponse<String> cut = pending.get(30, TimeUnit.SECONDS);
    assertThat(cut.statusCode()).isEqualTo(401);
    assertThat(challenge(cut))
        .contains("error=\"invalid_token\"")
        .contains("could not be verified in time");
  }
}
