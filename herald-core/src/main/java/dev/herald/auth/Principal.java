package dev.herald.auth;

import java.time.Instant;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import org.jspecify.annotations.Nullable;

/**
 * The party an access token was issued to, as its verifier established it (MCP specification
 * 2025-11-25 {@code basic/authorization}, "Token Handling"). Everything a request creates on a
 * protected server (its session, its SSE streams, its tasks, its {@code requestState}, its
 * subscriptions, its {@code private} cache entries) belongs to the principal that made it, and
 * another principal is refused it.
 *
 * <p>Two principals are {@linkplain #sameParty the same party} when they have the same issuer and
 * subject: a refreshed token, or one with more scopes after a step-up, is still the same party.
 *
 * @param issuer the authorization server that issued the token ({@code iss}), or {@code null}
 *     when the verifier does not know it
 * @param subject the resource owner or, for a machine client, the client ({@code sub})
 * @param clientId the OAuth client the token was issued to ({@code client_id} or {@code azp}),
 *     or {@code null}
 * @param scopes the scopes the token grants
 * @param expiresAt when the token expires ({@code exp}), or {@code null} when it does not say
 * @param claims every claim the verifier read (JWT claims or the introspection response), for
 *     handlers that need more; never the token itself
 */
public record Principal(
    @Nullable String issuer,
    String subject,
    @Nullable String clientId,
    Set<String> scopes,
    @Nullable Instant expiresAt,
    Map<String, Object> claims) {

  public Principal {
    Objects.requireNonNull(subject, "subject");
    scopes = Set.copyOf(scopes);
    claims = Map.copyOf(claims);
  }

  /** A principal with only a subject and scopes (tests, the stdio transport's environment). */
  public static Principal of(String subject, Set<String> scopes) {
    return new Principal(null, subject, null, scopes, null, Map.of());
  }

  /** Whether the token grants {@code scope}. */
  public boolean hasScope(String scope) {
    return scopes.contains(scope);
  }

  /** Whether the token grants every one of {@code required}. */
  public boolean hasScopes(Set<String> required) {
    return scopes.containsAll(required);
  }

  /**
   * Whether {@code other} is the same party: the same issuer and subject. What is bound to one
   * principal is open to the same party presenting another token (refreshed, or stepped up).
   */
  public boolean sameParty(Principal other) {
    return subject.equals(other.subject) && Objects.equals(issuer, other.issuer);
  }

  /** Never prints the claims: they may carry personal data. */
  @Override
  public String toString() {
    return "Principal[issuer=" + issuer + ", subject=" + subject + ", scopes=" + scopes + "]";
  }
}
