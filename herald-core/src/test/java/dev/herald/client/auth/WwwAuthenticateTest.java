package dev.herald.client.auth;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.URI;
import java.util.Map;
import org.junit.jupiter.api.Test;

class WwwAuthenticateTest {
  private static final URI SERVER = URI.create("https://mcp.example.com/mcp");

  @Test
  void quotedValuesKeepTheirCommasSpacesAndEscapedQuotes() {
    Map<String, String> p =
        WwwAuthenticate.bearer(
            "Bearer resource_metadata=\"https://mcp.example.com/.well-known/oauth-protected-resource/mcp\","
                + " scope=\"files:read files:write\", error_description=\"a, \\\"quoted\\\" one\"");
    assertThat(p)
        .containsEntry(
            "resource_metadata", "https://mcp.example.com/.well-known/oauth-protected-resource/mcp")
        .containsEntry("scope", "files:read files:write")
        .containsEntry("error_description", "a, \"quoted\" one");
  }

  @Test
  void theBearerChallengeIsFoundAmongOthersWhateverTheCase() {
    assertThat(
            WwwAuthenticate.bearer(
                "Basic realm=\"x\", DPoP algs=\"ES256\", BEARER Error=insufficient_scope, scope=a"))
        .containsExactlyInAnyOrderEntriesOf(Map.of("error", "insufficient_scope", "scope", "a"));
  }

  @Test
  void token68AndBareSchemesAreReadAsChallengesWithoutParameters() {
    assertThat(WwwAuthenticate.parse("Negotiate abc123==, Bearer"))
        .extracting(WwwAuthenticate.Parsed::scheme)
        .containsExactly("negotiate", "bearer");
  }

  @Test
  void garbageNeverThrowsAndKeepsWhatCanBeRead() {
    assertThat(WwwAuthenticate.bearer("")).isEmpty();
    assertThat(WwwAuthenticate.bearer("=,=,\"\"\"")).isEmpty();
    assertThat(WwwAuthenticate.bearer("Bearer scope=\"unterminated"))
        .containsEntry("scope", "unterminated");
    assertThat(WwwAuthenticate.bearer("Bearer ;;; scope=a @@ error=invalid_token"))
        .containsEntry("scope", "a")
        .containsEntry("error", "invalid_token");
    assertThat(WwwAuthenticate.bearer("Bearer scope=a, scope=b")).containsEntry("scope", "a");
    assertThat(WwwAuthenticate.parse("x".repeat(100_000) + " a=b")).hasSize(1);
  }

  @Test
  void aChallengeNamesItsMetadataScopesAndStepUp() {
    Challenge c =
        Challenge.of(
            SERVER,
            403,
            "Bearer error=\"insufficient_scope\", scope=\"a  b a\", resource_metadata=\"https://mcp.example.com/prm\"",
            "Bearer old");
    assertThat(c.insufficientScope()).isTrue();
    assertThat(c.scopes()).containsExactly("a", "b");
    assertThat(c.resourceMetadata()).contains(URI.create("https://mcp.example.com/prm"));
    assertThat(c.rejectedAuthorization()).isEqualTo("Bearer old");
  }

  @Test
  void anInvalidResourceMetadataUrlIsIgnored() {
    assertThat(
            Challenge.of(SERVER, 401, "Bearer resource_metadata=\"not a url\"", null)
                .resourceMetadata())
        .isEmpty();
    assertThat(
            Challenge.of(SERVER, 401, "Bearer resource_metadata=\"/relative\"", null)
                .resourceMetadata())
        .isEmpty();
    assertThat(Challenge.of(SERVER, 401, null, null).insufficientScope()).isFalse();
  }
}
