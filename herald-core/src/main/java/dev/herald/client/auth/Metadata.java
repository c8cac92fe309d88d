package dev.herald.client.auth;

import java.net.URI;
import java.net.URISyntaxException;
import java.util.ArrayList;
import java.util.List;
import org.jspecify.annotations.Nullable;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * The two metadata documents a client reads, with their fields checked for type: a wrong type is
 * an {@link AuthorizationException} naming the document and the field, never a crash later on.
 */
final class Metadata {
  private Metadata() {}

  /**
   * Protected resource metadata (RFC 9728 §2).
   *
   * @param resource the resource identifier the server claims
   * @param authorizationServers issuer identifiers, at least one
   * @param scopesSupported the scopes the resource uses, or empty
   */
  record Resource(
      URI source,
      String resource,
      List<String> authorizationServers,
      List<String> scopesSupported) {

    static Resource read(URI source, ObjectNode json) {
      String what = "protected resource metadata at " + source;
      String resource = string(json, "resource", what);
      if (resource == null) {
        throw new AuthorizationException(what + " has no resource");
      }
      List<String> servers = strings(json, "authorization_servers", what);
      if (servers == null || servers.isEmpty()) {
        throw new AuthorizationException(what + " names no authorization_servers");
      }
      List<String> scopes = strings(json, "scopes_supported", what);
      return new Resource(source, resource, servers, scopes == null ? List.of() : scopes);
    }
  }

  /**
   * Authorization server metadata (RFC 8414 §2, or OpenID Connect Discovery 1.0 §3), or the
   * 2025-03-26 defaults when a server publishes none.
   *
   * @param tokenEndpointAuthMethods null when not given (RFC 8414's default is {@code
   *     client_secret_basic})
   * @param codeChallengeMethods null when not given
   */
  record Server(
      String issuer,
      URI authorizationEndpoint,
      URI tokenEndpoint,
      @Nullable URI registrationEndpoint,
      List<String> scopesSupported,
      @Nullable List<String> tokenEndpointAuthMethods,
      @Nullable List<String> codeChallengeMethods,
      boolean clientIdMetadataDocumentSupported,
      boolean issParameterSupported,
      boolean defaults) {

    static Server read(URI source, ObjectNode json) {
      String what = "authorization server metadata at " + source;
      String issuer = string(json, "issuer", what);
      if (issuer == null) {
        throw new AuthorizationException(what + " has no issuer");
      }
      URI authorize = endpoint(json, "authorization_endpoint", what);
      URI token = endpoint(json, "token_endpoint", what);
      if (authorize == null || token == null) {
        throw new AuthorizationException(
            what + " lacks " + (authorize == null ? "authorization_endpoint" : "token_endpoint"));
      }
      List<String> scopes = strings(json, "scopes_supported", what);
      return new Server(
          issuer,
          authorize,
          token,
          endpoint(json, "registration_endpoint", what),
          scopes == null ? List.of() : scopes,
          strings(json, "token_endpoint_auth_methods_supported", what),
          strings(json, "code_challenge_methods_supported", what),
          bool(json, "client_id_metadata_document_supported", what),
          bool(json, "authorization_response_iss_parameter_supported", what),
          false);
    }

    /** MCP 2025-03-26 §2.3.3: no metadata, so {@code /authorize}, {@code /token}, {@code /register}. */
    static Server defaults(URI base) {
      return new Server(
          base.toString(),
          base.resolve("/authorize"),
          base.resolve("/token"),
          base.resolve("/register"),
          List.of(),
          null,
          null,
          false,
          false,
          true);
    }
  }

  static @Nullable String string(ObjectNode json, String field, String what) {
    JsonNode n = json.get(field);
    if (n == null || n.isNull()) {
      return null;
    }
    if (!n.isString()) {
      throw new AuthorizationException(what + ": " + field + " must be a string");
    }
    return n.stringValue();
  }

  static @Nullable List<String> strings(ObjectNode json, String field, String what) {
    JsonNode n = json.get(field);
    if (n == null || n.isNull()) {
      return null;
    }
    if (!n.isArray()) {
      throw new AuthorizationException(what + ": " + field + " must be an array of strings");
    }
    List<String> out = new ArrayList<>();
    for (JsonNode item : n) {
      if (!item.isString()) {
        throw new AuthorizationException(what + ": " + field + " must be an array of strings");
      }
      out.add(item.stringValue());
    }
    return List.copyOf(out);
  }

  static boolean bool(ObjectNode json, String field, String what) {
    JsonNode n = json.get(field);
    if (n == null || n.isNull()) {
      return false;
    }
    if (!n.isBoolean()) {
      throw new AuthorizationException(what + ": " + field + " must be a boolean");
    }
    return n.booleanValue();
  }

  /** An endpoint URL: absolute, and https unless on a loopback host. */
  static @Nullable URI endpoint(ObjectNode json, String field, String what) {
    String v = string(json, field, what);
    if (v == null) {
      return null;
    }
    URI u = uri(v, what + ": " + field);
    return OAuthHttp.requireSecure(u, what + ": " + field);
  }

  static URI uri(String value, String what) {
    try {
      URI u = new URI(value);
      if (!u.isAbsolute() || u.getHost() == null || u.getFragment() != null) {
        throw new AuthorizationException(
            what + " must be an absolute URL without fragment, was " + value);
      }
      return u;
    } catch (URISyntaxException e) {
      throw new AuthorizationException(what + " is not a URL: " + value);
    }
  }
}
