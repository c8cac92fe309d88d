package dev.herald.client.auth;

import java.net.URI;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import org.jspecify.annotations.Nullable;

/**
 * Where the metadata documents are, and in which order to look (MCP 2025-11-25
 * basic/authorization §Authorization Server Discovery).
 *
 * <p>Protected resource metadata: the {@code resource_metadata} URL of the challenge when there is
 * one, then the path-based well-known URL ({@code /.well-known/oauth-protected-resource/mcp}),
 * then the root one (RFC 9728 §3.1). Authorization server metadata, for an issuer with a path
 * ({@code https://as/tenant1}): OAuth with path insertion ({@code
 * /.well-known/oauth-authorization-server/tenant1}), OpenID Connect with path insertion ({@code
 * /.well-known/openid-configuration/tenant1}), OpenID Connect with path appending ({@code
 * /tenant1/.well-known/openid-configuration}); for an issuer without one, OAuth then OpenID
 * Connect at the root. A document found must name the issuer it was looked up for (RFC 8414
 * §3.3); a server that publishes no protected resource metadata is an MCP 2025-03-26 server,
 * whose authorization server is its own origin, with the default endpoints when it has no
 * metadata either.
 */
final class Discovery {
  private final OAuthHttp http;

  Discovery(OAuthHttp http) {
    this.http = http;
  }

  /** The protected resource metadata URLs to try for {@code server}, in order. */
  static List<URI> resourceMetadataUrls(URI server, @Nullable URI fromChallenge) {
    Set<URI> out = new LinkedHashSet<>();
    if (fromChallenge != null) {
      out.add(fromChallenge);
    }
    URI origin = origin(server);
    String path = trimmedPath(server);
    if (!path.isEmpty()) {
      out.add(origin.resolve("/.well-known/oauth-protected-resource" + path));
    }
    out.add(origin.resolve("/.well-known/oauth-protected-resource"));
    return List.copyOf(out);
  }

  /** The authorization server metadata URLs to try for {@code issuer}, in order. */
  static List<URI> serverMetadataUrls(URI issuer) {
    URI origin = origin(issuer);
    String path = trimmedPath(issuer);
    if (path.isEmpty()) {
      return List.of(
          origin.resolve("/.well-known/oauth-authorization-server"),
          origin.resolve("/.well-known/openid-configuration"));
    }
    return List.of(
        origin.resolve("/.well-known/oauth-authorization-server" + path),
        origin.resolve("/.well-known/openid-configuration" + path),
        origin.resolve(path + "/.well-known/openid-configuration"));
  }

  /**
   * The first protected resource metadata document found, or null when the server publishes none
   * (every URL answered an HTTP error).
   */
  Metadata.@Nullable Resource resourceMetadata(URI server, Challenge challenge) {
    URI fromChallenge = challenge.resourceMetadata().orElse(null);
    if (fromChallenge != null
        && !OAuthHttp.secure(fromChallenge)
        && !sameOrigin(server, fromChallenge)) {
      throw new AuthorizationException(
          "the resource_metadata URL "
              + fromChallenge
              + " is neither https nor on "
              + origin(server));
    }
    for (URI u : resourceMetadataUrls(server, fromChallenge)) {
      OAuthHttp.Response r = http.get(u);
      if (r.ok()) {
        return Metadata.Resource.read(u, r.json());
      }
    }
    return null;
  }

  /**
   * The authorization server metadata of {@code issuer}.
   *
   * @param strict whether the document's {@code issuer} must equal {@code issuer} (false only for
   *     a 2025-03-26 server, which had no such rule)
   * @param defaults whether a server without metadata gets the 2025-03-26 default endpoints
   * @throws AuthorizationException when none is found and {@code defaults} is false, or a document
   *     is invalid or names another issuer
   */
  Metadata.Server serverMetadata(String issuer, boolean strict, boolean defaults) {
    URI issuerUri = OAuthHttp.requireSecure(Metadata.uri(issuer, "issuer " + issuer), "issuer");
    if (issuerUri.getRawQuery() != null) {
      throw new AuthorizationException("issuer " + issuer + " must not have a query");
    }
    List<URI> tried = new ArrayList<>();
    for (URI u : serverMetadataUrls(issuerUri)) {
      tried.add(u);
      OAuthHttp.Response r = http.get(u);
      if (!r.ok()) {
        continue;
      }
      Metadata.Server m = Metadata.Server.read(u, r.json());
      if (strict && !m.issuer().equals(issuer)) {
        throw new AuthorizationException(
            "authorization server metadata at "
                + u
                + " names issuer "
                + m.issuer()
                + ", not "
                + issuer
                + " (RFC 8414 §3.3): not using it");
      }
      return m;
    }
    if (defaults) {
      return Metadata.Server.defaults(origin(issuerUri));
    }
    throw new AuthorizationException(
        "no authorization server metadata for " + issuer + " (tried " + tried + ")");
  }

  static URI origin(URI u) {
    return URI.create(
        u.getScheme().toLowerCase(Locale.ROOT)
            + "://"
            + u.getRawAuthority().toLowerCase(Locale.ROOT));
  }

  /** The path without a trailing slash; empty for none or "/". */
  static String trimmedPath(URI u) {
    String p = u.getRawPath() == null ? "" : u.getRawPath();
    while (p.endsWith("/")) {
      p = p.substring(0, p.length() - 1);
    }
    return p;
  }

  static boolean sameOrigin(URI a, URI b) {
    return a.getScheme() != null
        && a.getScheme().equalsIgnoreCase(b.getScheme())
        && a.getHost() != null
        && a.getHost().equalsIgnoreCase(b.getHost())
        && port(a) == port(b);
  }

  static int port(URI u) {
    if (u.getPort() != -1) {
      return u.getPort();
    }
    return "https".equalsIgnoreCase(u.getScheme()) ? 443 : 80;
  }

  /**
   * Whether the protected resource metadata's {@code resource} covers {@code server} (RFC 9728
   * §3.3; MCP 2025-11-25 basic/authorization §Resource Parameter Implementation): same origin,
   * and the server's path is the resource's path or below it.
   */
  static boolean covers(String resource, URI server) {
    URI r;
    try {
      r = new URI(resource);
    } catch (java.net.URISyntaxException e) {
      return false;
    }
    if (!r.isAbsolute()
        || r.getHost() == null
        || r.getFragment() != null
        || !sameOrigin(r, server)) {
      return false;
    }
    String rp = trimmedPath(r);
    String sp = trimmedPath(server);
    return rp.isEmpty() || sp.equals(rp) || sp.startsWith(rp + "/");
  }

  /** The canonical URI of an MCP server (RFC 8707 §2): lower-case scheme and host, no fragment. */
  static String canonical(URI server) {
    String path = server.getRawPath() == null ? "" : server.getRawPath();
    if (path.equals("/")) {
      path = "";
    }
    return origin(server) + path + (server.getRawQuery() == null ? "" : "?" + server.getRawQuery());
  }
}
