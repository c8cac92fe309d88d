package dev.herald.client.auth;

import dev.herald.wire.McpJson;
import java.net.URI;
import java.util.List;
import org.jspecify.annotations.Nullable;
import tools.jackson.databind.node.ObjectNode;

/**
 * Who the client is at one authorization server (MCP 2025-11-25 basic/authorization §Client
 * Registration Approaches): a pre-registered client, a client ID metadata document URL, or a
 * client registered dynamically (RFC 7591), with the token endpoint authentication method it
 * uses there.
 *
 * @param clientId the client id at that server
 * @param clientSecret the secret, null for a public client
 * @param authMethod {@code none}, {@code client_secret_basic} or {@code client_secret_post}
 */
record ClientIdentity(String clientId, @Nullable String clientSecret, String authMethod) {
  static final String NONE = "none";
  static final String BASIC = "client_secret_basic";
  static final String POST = "client_secret_post";
  static final String PRIVATE_KEY_JWT = "private_key_jwt";

  /**
   * The method for a client with (or without) a secret, among those the server supports (RFC 8414
   * §2: {@code client_secret_basic} when it says nothing).
   */
  static String method(@Nullable List<String> supported, boolean hasSecret) {
    List<String> s = supported == null ? List.of(BASIC) : supported;
    if (!hasSecret) {
      return NONE;
    }
    if (s.contains(BASIC)) {
      return BASIC;
    }
    if (s.contains(POST)) {
      return POST;
    }
    return s.contains(NONE) ? NONE : BASIC;
  }

  /**
   * Registers with {@code server}'s registration endpoint (RFC 7591 §3.1) as a native client
   * with this redirect URI, asking for the method the server prefers for a public client.
   */
  static ClientIdentity register(
      OAuthHttp http, Metadata.Server server, String clientName, URI redirectUri, boolean refresh) {
    URI endpoint = server.registrationEndpoint();
    if (endpoint == null) {
      throw new AuthorizationException(
          "authorization server "
              + server.issuer()
              + " offers no dynamic client registration, and no client id was configured");
    }
    List<String> supported = server.tokenEndpointAuthMethods();
    String asked = supported == null || supported.contains(NONE) ? NONE : method(supported, true);
    ObjectNode body = McpJson.object();
    body.put("client_name", clientName);
    body.putArray("redirect_uris").add(redirectUri.toString());
    var grants = body.putArray("grant_types").add("authorization_code");
    if (refresh) {
      grants.add("refresh_token");
    }
    body.putArray("response_types").add("code");
    body.put("token_endpoint_auth_method", asked);
    body.put(
        "application_type",
        OAuthHttp.isLoopback(redirectUri.getHost()) || !redirectUri.getScheme().startsWith("http")
            ? "native"
            : "web");
    OAuthHttp.Response r = http.postJson(endpoint, body);
    if (!r.ok()) {
      throw new AuthorizationException(
          "dynamic client registration at "
              + endpoint
              + " failed: HTTP "
              + r.status()
              + errorOf(r));
    }
    ObjectNode json = r.json();
    String what = "registration response from " + endpoint;
    String id = Metadata.string(json, "client_id", what);
    if (id == null || id.isEmpty()) {
      throw new AuthorizationException(what + " has no client_id");
    }
    String secret = Metadata.string(json, "client_secret", what);
    String method = Metadata.string(json, "token_endpoint_auth_method", what);
    if (method == null) {
      method = asked;
    }
    if (!method.equals(NONE) && !method.equals(BASIC) && !method.equals(POST)) {
      throw new AuthorizationException(
          what + " names an unsupported token_endpoint_auth_method " + method);
    }
    if (!method.equals(NONE) && secret == null) {
      throw new AuthorizationException(
          what + " asks for " + method + " but gives no client_secret");
    }
    return new ClientIdentity(id, method.equals(NONE) ? null : secret, method);
  }

  /** ": error (description)" from an OAuth error body, or "". */
  static String errorOf(OAuthHttp.Response r) {
    try {
      ObjectNode json = r.json();
      String error = Metadata.string(json, "error", "error");
      String description = Metadata.string(json, "error_description", "error");
      if (error == null) {
        return "";
      }
      return ": " + error + (description == null ? "" : " (" + description + ")");
    } catch (AuthorizationException e) {
      return "";
    }
  }
}
