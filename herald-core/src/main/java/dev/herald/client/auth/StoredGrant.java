package dev.herald.client.auth;

import java.net.URI;
import java.time.Instant;
import java.util.Objects;
import org.jspecify.annotations.Nullable;

/**
 * What a {@link TokenStore} keeps for one MCP server: the tokens, and what is needed to refresh
 * them without discovering again (the authorization server that issued them, its token endpoint,
 * the client it knows and the resource indicator they were issued for).
 *
 * @param issuer the authorization server's issuer identifier
 * @param tokenEndpoint where to refresh
 * @param resource the {@code resource} parameter the tokens were requested with (RFC 8707)
 * @param clientId the client id at that authorization server
 * @param clientSecret its secret, or null for a public client
 * @param authMethod the token endpoint authentication method: {@code none}, {@code
 *     client_secret_basic} or {@code client_secret_post}
 * @param accessToken the bearer token
 * @param refreshToken the refresh token, or null
 * @param expiresAt when the access token expires, or null when unknown
 * @param scope the granted scopes (space-separated), or null when unknown
 */
public record StoredGrant(
    String issuer,
    URI tokenEndpoint,
    String resource,
    String clientId,
    @Nullable String clientSecret,
    String authMethod,
    String accessToken,
    @Nullable String refreshToken,
    @Nullable Instant expiresAt,
    @Nullable String scope) {

  public StoredGrant {
    Objects.requireNonNull(issuer, "issuer");
    Objects.requireNonNull(tokenEndpoint, "tokenEndpoint");
    Objects.requireNonNull(resource, "resource");
    Objects.requireNonNull(clientId, "clientId");
    Objects.requireNonNull(authMethod, "authMethod");
    Objects.requireNonNull(accessToken, "accessToken");
  }

  /** The {@code Authorization} header value: {@code "Bearer " + accessToken}. */
  public String authorization() {
    return "Bearer " + accessToken;
  }

  /** The same grant with new tokens (a refresh that returned no refresh token keeps the old one). */
  StoredGrant refreshed(
      String access, @Nullable String refresh, @Nullable Instant expires, @Nullable String scopes) {
    return new StoredGrant(
        issuer,
        tokenEndpoint,
        resource,
        clientId,
        clientSecret,
        authMethod,
        access,
        refresh != null ? refresh : refreshToken,
        expires,
        scopes != null ? scopes : scope);
  }

  @Override
  public String toString() {
    // never print secrets or tokens
    return "StoredGrant[issuer="
        + issuer
        + ", resource="
        + resource
        + ", clientId="
        + clientId
        + ", scope="
        + scope
        + ", expiresAt="
        + expiresAt
        + "]";
  }
}
