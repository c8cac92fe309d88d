package dev.herald.client.auth;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.net.URI;
import java.time.Duration;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

class OAuthClientTest {
  private FakeAuthorizationServer as;
  private TokenStore store;
  private OAuthClient client;

  @BeforeEach
  void start() throws Exception {
    as = new FakeAuthorizationServer();
    store = TokenStore.inMemory();
    client =
        OAuthClient.builder()
            .redirectUri(URI.create("http://127.0.0.1:1/callback"))
            .authorizationCodeHandler(
                AuthorizationCodeHandler.followRedirects(Duration.ofSeconds(10)))
            .tokenStore(store)
            .timeout(Duration.ofSeconds(10))
            .build();
  }

  @AfterEach
  void stop() {
    as.close();
  }

  private Challenge unauthorized(String header, String rejected) {
    return Challenge.of(as.mcp(), 401, header, rejected);
  }

  @Test
  void aFirstChallengeRunsTheWholeFlowWithPkceStateAndTheResourceIndicator() {
    assertThat(client.retryAfter(unauthorized("Bearer scope=\"read\"", null))).isTrue();

    assertThat(client.authorizationHeader(as.mcp())).contains("Bearer access-1");
    assertThat(as.requests)
        .extracting(r -> r.replaceAll("^(\\S+ [^ ?]+).*", "$1"))
        .containsExactly(
            "GET /.well-known/oauth-protected-resource/mcp",
            "GET /.well-known/oauth-authorization-server",
            "POST /register",
            "GET /authorize",
            "POST /token");
    String authorize = as.requests("GET /authorize").getFirst();
    assertThat(authorize)
        .contains("code_challenge_method=S256", "state=", "client_id=registered-1")
        .contains("scope=read+offline_access")
        .contains("resource=" + OAuthHttp.encode(as.resource));
    assertThat(as.requests("POST /token").getFirst())
        .contains(
            "grant_type=authorization_code",
            "code_verifier=",
            "resource=" + OAuthHttp.encode(as.resource));
    assertThat(as.requests("POST /register").getFirst())
        .contains("\"application_type\":\"native\"");
  }

  @Test
  void aRejectedTokenIsRefreshedOnceWithTheResourceThenANewFlowRuns() {
    client.retryAfter(unauthorized(null, null));
    as.requests.clear();

    assertThat(client.retryAfter(unauthorized(null, "Bearer access-1"))).isTrue();
    assertThat(as.requests).hasSize(1);
    assertThat(as.requests.getFirst())
        .startsWith("POST /token")
        .contains("grant_type=refresh_token", "refresh_token=refresh-1", "resource=");
    assertThat(client.authorizationHeader(as.mcp())).contains("Bearer access-2");

    as.requests.clear();
    client.retryAfter(unauthorized(null, "Bearer access-2"));
    assertThat(as.requests).anyMatch(r -> r.startsWith("GET /authorize"));
    // the client registered at this authorization server is reused, not registered again
    assertThat(as.requests("POST /register")).isEmpty();
    assertThat(client.authorizationHeader(as.mcp())).contains("Bearer access-3");
  }

  @Test
  void aRequestRefusedWhileAnotherFlowRanRetriesWithTheNewTokenWithoutAFlow() {
    client.retryAfter(unauthorized(null, null));
    as.requests.clear();
    assertThat(client.retryAfter(unauthorized(null, null))).isTrue();
    assertThat(as.requests).isEmpty();
  }

  @Test
  void metadataForAnotherResourceIsRefusedBeforeAuthorizing() {
    as.resource = "https://evil.example.com/mcp";
    assertThatThrownBy(() -> client.retryAfter(unauthorized(null, null)))
        .isInstanceOf(AuthorizationException.class)
        .hasMessageContaining("is for https://evil.example.com/mcp");
    assertThat(as.requests("GET /authorize")).isEmpty();
  }

  @Test
  void metadataNamingAnotherIssuerIsNotUsed() {
    as.metadata =
        m -> m.replaceFirst("\"issuer\":\"[^\"]*\"", "\"issuer\":\"https://attacker.example.com\"");
    assertThatThrownBy(() -> client.retryAfter(unauthorized(null, null)))
        .isInstanceOf(AuthorizationException.class)
        .hasMessageContaining("names issuer https://attacker.example.com");
    assertThat(as.requests("POST /register")).isEmpty();
  }

  @Test
  void anAuthorizationResponseFromAnotherIssuerIsRefusedBeforeTheTokenRequest() {
    as.redirectExtra = "&iss=" + OAuthHttp.encode(as.base + "/");
    assertThatThrownBy(() -> client.retryAfter(unauthorized(null, null)))
        .isInstanceOf(AuthorizationException.class)
        .hasMessageContaining("RFC 9207");
    assertThat(as.requests("POST /token")).isEmpty();
  }

  @Test
  void aMissingIssIsRefusedWhenTheServerAdvertisesIt() {
    as.metadata = m -> m.replace("}", ",\"authorization_response_iss_parameter_supported\":true}");
    assertThatThrownBy(() -> client.retryAfter(unauthorized(null, null)))
        .hasMessageContaining("has no iss");
    as.redirectExtra = "&iss=" + OAuthHttp.encode(as.base.toString());
    assertThat(client.retryAfter(unauthorized(null, null))).isTrue();
  }

  @Test
  void aServerWithoutPkceS256IsRefused() {
    as.metadata = m -> m.replace("\"code_challenge_methods_supported\":[\"S256\"],", "");
    assertThatThrownBy(() -> client.retryAfter(unauthorized(null, null)))
        .hasMessageContaining("PKCE S256");
  }

  @Test
  void metadataOfTheWrongShapeIsAClearError() {
    as.metadata =
        m ->
            m.replace(
                "\"scopes_supported\":[\"read\",\"offline_access\"]",
                "\"scopes_supported\":\"read\"");
    assertThatThrownBy(() -> client.retryAfter(unauthorized(null, null)))
        .isInstanceOf(AuthorizationException.class)
        .hasMessageContaining("scopes_supported must be an array of strings");
    as.metadata = m -> m.replace(as.base + "/token", "http://as.example.com/token");
    assertThatThrownBy(() -> client.retryAfter(unauthorized(null, null)))
        .hasMessageContaining("token_endpoint must use https");
    as.metadata = m -> " ".repeat(2 * OAuthClient.MAX_BODY) + m;
    assertThatThrownBy(() -> client.retryAfter(unauthorized(null, null)))
        .hasMessageContaining("more than " + OAuthClient.MAX_BODY + " bytes");
  }

  @Test
  void aStepUpAsksForTheGrantedAndTheChallengedScopesAndStopsWhenTheyWereGranted() {
    as.scopeGranted = "read";
    client.retryAfter(unauthorized(null, null));
    as.requests.clear();
    as.scopeGranted = "read write";

    Challenge stepUp =
        Challenge.of(
            as.mcp(),
            403,
            "Bearer error=\"insufficient_scope\", scope=\"read write\"",
            "Bearer access-1");
    assertThat(client.retryAfter(stepUp)).isTrue();
    assertThat(as.requests("GET /authorize").getFirst()).contains("scope=read+write");

    Challenge again =
        Challenge.of(
            as.mcp(),
            403,
            "Bearer error=\"insufficient_scope\", scope=\"read write\"",
            "Bearer access-2");
    assertThatThrownBy(() -> client.retryAfter(again))
        .isInstanceOf(AuthorizationException.class)
        .hasMessageContaining("not asking again");
  }

  @Test
  void scopesComeFromTheChallengeElseTheResourceMetadataElseNone() {
    Metadata.Resource prm =
        new Metadata.Resource(
            as.mcp(),
            as.resource,
            java.util.List.of(as.base.toString()),
            java.util.List.of("a", "b"));
    Metadata.Server withOffline = Metadata.Server.defaults(as.base);
    assertThat(client.selectScope(unauthorized("Bearer scope=\"x\"", null), prm, withOffline))
        .isEqualTo("x");
    assertThat(client.selectScope(unauthorized(null, null), prm, withOffline)).isEqualTo("a b");
    assertThat(client.selectScope(unauthorized(null, null), null, withOffline)).isNull();
  }
}
