package dev.herald.client.auth;

import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.time.InstantSource;
import java.util.Base64;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;
import org.jspecify.annotations.Nullable;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * Token requests (OAuth 2.1 §3.2): the authorization code exchange, the refresh, and the {@code
 * client_credentials} grant, each with the resource indicator (RFC 8707 §2) and the client's
 * authentication ({@code client_secret_basic}: RFC 6749 §2.3.1, the id and secret form-encoded
 * before base64; {@code client_secret_post}; or only {@code client_id} for a public client).
 */
final class TokenEndpoint {
  /** A token response (OAuth 2.1 §3.2.3). */
  record Tokens(
      String accessToken,
      @Nullable String refreshToken,
      @Nullable Instant expiresAt,
      @Nullable String scope) {}

  private final OAuthHttp http;
  private final InstantSource clock;

  TokenEndpoint(OAuthHttp http, InstantSource clock) {
    this.http = http;
    this.clock = clock;
  }

  Tokens exchangeCode(
      URI endpoint,
      ClientIdentity client,
      String code,
      URI redirectUri,
      String verifier,
      String resource) {
    Map<String, String> form = new LinkedHashMap<>();
    form.put("grant_type", "authorization_code");
    form.put("code", code);
    form.put("redirect_uri", redirectUri.toString());
    form.put("code_verifier", verifier);
    form.put("resource", resource);
    return request(endpoint, client, form);
  }

  Tokens refresh(URI endpoint, ClientIdentity client, String refreshToken, String resource) {
    Map<String, String> form = new LinkedHashMap<>();
    form.put("grant_type", "refresh_token");
    form.put("refresh_token", refreshToken);
    form.put("resource", resource);
    return request(endpoint, client, form);
  }

  Tokens clientCredentials(
      URI endpoint,
      ClientIdentity client,
      @Nullable String scope,
      String resource,
      @Nullable ClientAssertion assertion,
      String issuer) {
    Map<String, String> form = new LinkedHashMap<>();
    form.put("grant_type", "client_credentials");
    if (scope != null) {
      form.put("scope", scope);
    }
    form.put("resource", resource);
    if (assertion != null) {
      form.put("client_assertion_type", ClientAssertion.TYPE);
      form.put("client_assertion", assertion.sign(client.clientId(), issuer));
    }
    return request(endpoint, client, form);
  }

  private Tokens request(URI endpoint, ClientIdentity client, Map<String, String> form) {
    String authorization = null;
    switch (client.authMethod()) {
      case ClientIdentity.BASIC -> {
        String pair =
            OAuthHttp.encode(client.clientId())
                + ":"
                + OAuthHttp.encode(String.valueOf(client.clientSecret()));
        authorization =
            "Basic " + Base64.getEncoder().encodeToString(pair.getBytes(StandardCharsets.UTF_8));
      }
      case ClientIdentity.POST -> {
        form.put("client_id", client.clientId());
        form.put("client_secret", String.valueOf(client.clientSecret()));
      }
      case ClientIdentity.PRIVATE_KEY_JWT -> {} // the assertion names the client
      default -> form.put("client_id", client.clientId());
    }
    OAuthHttp.Response r = http.postForm(endpoint, form, authorization);
    if (!r.ok()) {
      throw new AuthorizationException(
          "the token endpoint "
              + endpoint
              + " refused the "
              + form.get("grant_type")
              + " request: HTTP "
              + r.status()
              + ClientIdentity.errorOf(r));
    }
    return read(endpoint, r.json());
  }

  private Tokens read(URI endpoint, ObjectNode json) {
    String what = "token response from " + endpoint;
    String access = Metadata.string(json, "access_token", what);
    if (access == null || access.isEmpty()) {
      throw new AuthorizationException(what + " has no access_token");
    }
    String type = Metadata.string(json, "token_type", what);
    if (type != null && !type.toLowerCase(Locale.ROOT).equals("bearer")) {
      throw new AuthorizationException(
          what + " has token_type " + type + "; only Bearer is supported");
    }
    for (int i = 0; i < access.length(); i++) {
      char c = access.charAt(i);
      if (c < 0x21 || c > 0x7E) {
        throw new AuthorizationException(
            what + ": the access_token has characters a header cannot carry");
      }
    }
    Instant expires = null;
    JsonNode e = json.get("expires_in");
    if (e != null && !e.isNull()) {
      if (!e.isNumber() || e.asLong() < 0) {
        throw new AuthorizationException(what + ": expires_in must be a non-negative number");
      }
      expires = clock.instant().plusSeconds(e.asLong());
    }
    return new Tokens(
        access,
        Metadata.string(json, "refresh_token", what),
        expires,
        Metadata.string(json, "scope", what));
  }
}
