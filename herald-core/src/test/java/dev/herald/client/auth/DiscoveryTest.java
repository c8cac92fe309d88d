package dev.herald.client.auth;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.URI;
import org.junit.jupiter.api.Test;

class DiscoveryTest {

  @Test
  void resourceMetadataIsLookedForAtTheChallengeUrlThenPathBasedThenRoot() {
    assertThat(
            Discovery.resourceMetadataUrls(
                URI.create("https://Mcp.Example.com/public/mcp/"),
                URI.create("https://mcp.example.com/custom.json")))
        .containsExactly(
            URI.create("https://mcp.example.com/custom.json"),
            URI.create("https://mcp.example.com/.well-known/oauth-protected-resource/public/mcp"),
            URI.create("https://mcp.example.com/.well-known/oauth-protected-resource"));
    assertThat(Discovery.resourceMetadataUrls(URI.create("http://localhost:3000"), null))
        .containsExactly(URI.create("http://localhost:3000/.well-known/oauth-protected-resource"));
  }

  @Test
  void anIssuerWithAPathIsLookedUpByInsertionThenOpenIdAppendingAndNeverAtTheRoot() {
    assertThat(Discovery.serverMetadataUrls(URI.create("https://auth.example.com/tenant1")))
        .containsExactly(
            URI.create("https://auth.example.com/.well-known/oauth-authorization-server/tenant1"),
            URI.create("https://auth.example.com/.well-known/openid-configuration/tenant1"),
            URI.create("https://auth.example.com/tenant1/.well-known/openid-configuration"));
  }

  @Test
  void anIssuerWithoutAPathIsLookedUpWithOAuthThenOpenId() {
    assertThat(Discovery.serverMetadataUrls(URI.create("https://auth.example.com/")))
        .containsExactly(
            URI.create("https://auth.example.com/.well-known/oauth-authorization-server"),
            URI.create("https://auth.example.com/.well-known/openid-configuration"));
  }

  @Test
  void theMetadataResourceMustBeTheServerOrAParentOfItOnTheSameOrigin() {
    URI server = URI.create("https://mcp.example.com/api/mcp");
    assertThat(Discovery.covers("https://mcp.example.com/api/mcp", server)).isTrue();
    assertThat(Discovery.covers("https://MCP.example.com:443/api", server)).isTrue();
    assertThat(Discovery.covers("https://mcp.example.com", server)).isTrue();
    assertThat(Discovery.covers("https://mcp.example.com/ap", server)).isFalse();
    assertThat(Discovery.covers("https://evil.example.com/api/mcp", server)).isFalse();
    assertThat(Discovery.covers("http://mcp.example.com/api/mcp", server)).isFalse();
    assertThat(Discovery.covers("https://mcp.example.com/api/mcp#x", server)).isFalse();
    assertThat(Discovery.covers("not a uri at all", server)).isFalse();
  }

  @Test
  void theCanonicalServerUriHasLowerCaseSchemeAndHostAndNoFragment() {
    assertThat(Discovery.canonical(URI.create("HTTPS://MCP.Example.com/Mcp#frag")))
        .isEqualTo("https://mcp.example.com/Mcp");
    assertThat(Discovery.canonical(URI.create("http://localhost:8080/")))
        .isEqualTo("http://localhost:8080");
  }

  @Test
  void onlyHttpsOrLoopbackHttpIsSecure() {
    assertThat(OAuthHttp.secure(URI.create("https://as.example.com/token"))).isTrue();
    assertThat(OAuthHttp.secure(URI.create("http://127.0.0.1:9000/token"))).isTrue();
    assertThat(OAuthHttp.secure(URI.create("http://localhost/token"))).isTrue();
    assertThat(OAuthHttp.secure(URI.create("http://[::1]:80/token"))).isTrue();
    assertThat(OAuthHttp.secure(URI.create("http://as.example.com/token"))).isFalse();
    assertThat(OAuthHttp.secure(URI.create("http://127.evil.example/token"))).isFalse();
    assertThat(OAuthHttp.secure(URI.create("ftp://localhost/token"))).isFalse();
  }
}
