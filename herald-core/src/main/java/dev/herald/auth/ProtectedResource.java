package dev.herald.auth;

import dev.herald.wire.McpJson;
import java.net.URI;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import org.jspecify.annotations.Nullable;
import tools.jackson.databind.node.ArrayNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * An MCP server as an OAuth 2.1 protected resource (MCP specification 2025-11-25 {@code
 * basic/authorization}): the verifier that checks its bearer tokens, its canonical URI (the
 * {@code resource} of RFC 8707 and RFC 9728, the audience its tokens must name), the authorization
 * servers that issue them, and what its protected resource metadata (RFC 9728) says. An HTTP
 * endpoint given one ({@code McpHttpServer.Builder#authorization}, {@code
 * McpServlet.Builder#authorization}) refuses every MCP request without a valid token with {@code
 * 401} and serves the metadata document at {@link #metadataUri()}.
 *
 * {@snippet :
 * ProtectedResource resource = ProtectedResource.builder()
 *     .resource(URI.create("https://mcp.example.com/mcp"))
 *     .verifier(verifier)                                   // e.g. a JWT verifier
 *     .authorizationServers(URI.create("https://auth.example.com"))
 *     .scopesSupported("mcp:tools", "files:write")
 *     .build();
 * McpHttpServer http = McpHttpServer.builder().server(server).authorization(resource).build();
 * }
 *
 * <p>Immutable and thread-safe.
 */
public final class ProtectedResource {
  private final TokenVerifier verifier;
  private final URI resource;
  private final List<URI> authorizationServers;
  private final List<String> scopesSupported;
  private final List<String> challengeScopes;
  private final @Nullable String resourceName;
  private final @Nullable URI resourceDocumentation;
  private final Duration verificationTimeout;
  private final URI metadataUri;

  private ProtectedResource(Builder b, TokenVerifier verifier, URI resource) {
    this.verifier = verifier;
    this.resource = resource;
    this.authorizationServers = List.copyOf(b.authorizationServers);
    this.scopesSupported = List.copyOf(b.scopesSupported);
    this.challengeScopes =
        b.challengeScopes == null ? scopesSupported : List.copyOf(b.challengeScopes);
    this.resourceName = b.resourceName;
    this.resourceDocumentation = b.resourceDocumentation;
    this.verificationTimeout = b.verificationTimeout;
    this.metadataUri = metadataUri(resource);
  }

  /** A new builder. */
  public static Builder builder() {
    return new Builder();
  }

  /** The verifier every bearer token is checked with. */
  public TokenVerifier verifier() {
    return verifier;
  }

  /**
   * This server's canonical URI (RFC 8707 section 2; MCP 2025-11-25 basic/authorization,
   * "Canonical Server URI"): the metadata's {@code resource}, and the audience a token must name.
   */
  public URI resource() {
    return resource;
  }

  /** The issuer URLs of the authorization servers whose tokens this server accepts. */
  public List<URI> authorizationServers() {
    return authorizationServers;
  }

  /** The metadata's {@code scopes_supported}, in order; may be empty. */
  public List<String> scopesSupported() {
    return scopesSupported;
  }

  /**
   * The scopes a {@code 401} challenge names in its {@code scope} parameter (the scopes a client
   * should ask for first; MCP 2025-11-25 basic/authorization, "Scope Selection Strategy"); empty
   * leaves the parameter out.
   */
  public List<String> challengeScopes() {
    return challengeScopes;
  }

  /** The metadata's {@code resource_name}, a human-readable name. */
  public Optional<String> resourceName() {
    return Optional.ofNullable(resourceName);
  }

  /** The metadata's {@code resource_documentation}, a page for developers. */
  public Optional<URI> resourceDocumentation() {
    return Optional.ofNullable(resourceDocumentation);
  }

  /**
   * The longest the endpoint waits for {@link TokenVerifier#verify} before refusing the token with
   * {@code 401} (a backstop: the verifier bounds its own network waits).
   */
  public Duration verificationTimeout() {
    return verificationTimeout;
  }

  /**
   * Where the metadata document is, as RFC 9728 section 3.1 builds it from {@link #resource()}:
   * {@code /.well-known/oauth-protected-resource} inserted between the host and the path, e.g.
   * {@code https://mcp.example.com/.well-known/oauth-protected-resource/mcp} for {@code
   * https://mcp.example.com/mcp}. The {@code resource_metadata} of every challenge.
   */
  public URI metadataUri() {
    return metadataUri;
  }

  /** The path of {@link #metadataUri()}: {@link #WELL_KNOWN} then the resource's path. */
  public String metadataPath() {
    return metadataUri.getRawPath();
  }

  /** The well-known path prefix of RFC 9728 section 3. */
  public static final String WELL_KNOWN = "/.well-known/oauth-protected-resource";

  /**
   * The protected resource metadata document (RFC 9728 section 2): {@code resource}, {@code
   * authorization_servers}, {@code scopes_supported} (when any), {@code
   * bearer_methods_supported: ["header"]}, and {@code resource_name} and {@code
   * resource_documentation} when set. A fresh copy each call.
   */
  public ObjectNode metadata() {
    ObjectNode m = McpJson.object();
    m.put("resource", resource.toString());
    ArrayNode as = m.putArray("authorization_servers");
    authorizationServers.forEach(u -> as.add(u.toString()));
    if (!scopesSupported.isEmpty()) {
      ArrayNode s = m.putArray("scopes_supported");
      scopesSupported.forEach(s::add);
    }
    m.putArray("bearer_methods_supported").add("header");
    if (resourceName != null) {
      m.put("resource_name", resourceName);
    }
    if (resourceDocumentation != null) {
      m.put("resource_documentation", resourceDocumentation.toString());
    }
    return m;
  }

  private static URI metadataUri(URI resource) {
    String path = resource.getRawPath() == null ? "" : resource.getRawPath();
    while (path.endsWith("/")) {
      path = path.substring(0, path.length() - 1);
    }
    return URI.create(
        resource.getScheme().toLowerCase(Locale.ROOT)
            + "://"
            + resource.getRawAuthority()
            + WELL_KNOWN
            + path);
  }

  /** Builds a {@link ProtectedResource}; setters validate at once. Not thread-safe. */
  public static final class Builder {
    private @Nullable TokenVerifier verifier;
    private @Nullable URI resource;
    private final List<URI> authorizationServers = new ArrayList<>();
    private final Set<String> scopesSupported = new LinkedHashSet<>();
    private @Nullable List<String> challengeScopes;
    private @Nullable String resourceName;
    private @Nullable URI resourceDocumentation;
    private Duration verificationTimeout = Duration.ofSeconds(30);

    private Builder() {}

    /**
     * The verifier bearer tokens are checked with (required). It must check the token's audience
     * against {@link #resource}, and bound its own waits (see {@link TokenVerifier}).
     *
     * @throws NullPointerException if {@code verifier} is null
     */
    public Builder verifier(TokenVerifier verifier) {
      this.verifier = Objects.requireNonNull(verifier, "verifier");
      return this;
    }

    /**
     * This server's canonical URI (required): absolute, {@code https} (or {@code http} for a
     * local server), with a host, without a fragment or a query, e.g. {@code
     * https://mcp.example.com/mcp}. Clients send it as the {@code resource} parameter (RFC 8707)
     * and compare it with the metadata's {@code resource}; it must be the URL they connect to.
     *
     * @throws IllegalArgumentException if it is not such a URI
     */
    public Builder resource(URI resource) {
      Objects.requireNonNull(resource, "resource");
      String scheme = resource.getScheme();
      if (!resource.isAbsolute()
          || resource.getRawAuthority() == null
          || resource.getHost() == null
          || scheme == null
          || !(scheme.equalsIgnoreCase("https") || scheme.equalsIgnoreCase("http"))) {
        throw new IllegalArgumentException(
            "resource must be an absolute http(s) URI with a host, was " + resource);
      }
      if (resource.getRawFragment() != null || resource.getRawQuery() != null) {
        throw new IllegalArgumentException(
            "resource must have no fragment and no query (RFC 8707), was " + resource);
      }
      this.resource = resource;
      return this;
    }

    /**
     * The issuer URLs of the authorization servers that issue tokens for this server (at least
     * one is required): the metadata's {@code authorization_servers}. Adds to those given
     * before.
     *
     * @throws IllegalArgumentException if one is not an absolute http(s) URI
     */
    public Builder authorizationServers(URI... issuers) {
      for (URI u : issuers) {
        Objects.requireNonNull(u, "issuer");
        if (!u.isAbsolute()
            || u.getHost() == null
            || !("https".equalsIgnoreCase(u.getScheme())
                || "http".equalsIgnoreCase(u.getScheme()))) {
          throw new IllegalArgumentException(
              "an authorization server must be an absolute http(s) URI, was " + u);
        }
        authorizationServers.add(u);
      }
      return this;
    }

    /**
     * The metadata's {@code scopes_supported} (default: none). Adds to those given before.
     *
     * @throws IllegalArgumentException if one is not an RFC 6749 scope token
     */
    public Builder scopesSupported(String... scopes) {
      for (String s : scopes) {
        scopesSupported.add(checkScope(s));
      }
      return this;
    }

    /**
     * The scopes a {@code 401} challenge names (default: {@link #scopesSupported}, the scopes a
     * client falls back to anyway; none leaves the challenge without a scope).
     *
     * @throws IllegalArgumentException if one is not an RFC 6749 scope token
     */
    public Builder challengeScopes(String... scopes) {
      List<String> list = new ArrayList<>();
      for (String s : scopes) {
        list.add(checkScope(s));
      }
      this.challengeScopes = list;
      return this;
    }

    /**
     * The metadata's {@code resource_name}.
     *
     * @throws NullPointerException if {@code name} is null
     */
    public Builder resourceName(String name) {
      this.resourceName = Objects.requireNonNull(name, "name");
      return this;
    }

    /**
     * The metadata's {@code resource_documentation}.
     *
     * @throws NullPointerException if {@code page} is null
     */
    public Builder resourceDocumentation(URI page) {
      this.resourceDocumentation = Objects.requireNonNull(page, "page");
      return this;
    }

    /**
     * The longest the endpoint waits for the verifier (default 30 s); a verification still
     * running then is interrupted and the token refused with {@code 401}. A backstop only: the
     * verifier should bound its own network waits well below it. Other requests are never held
     * up by a slow verification: each runs on its own virtual thread, holding no lock.
     *
     * @throws IllegalArgumentException if not positive
     */
    public Builder verificationTimeout(Duration timeout) {
      Objects.requireNonNull(timeout, "timeout");
      if (timeout.isNegative() || timeout.isZero()) {
        throw new IllegalArgumentException("verificationTimeout must be positive, was " + timeout);
      }
      this.verificationTimeout = timeout;
      return this;
    }

    /**
     * The description.
     *
     * @throws IllegalStateException if the verifier, the resource or every authorization server
     *     is missing
     */
    public ProtectedResource build() {
      TokenVerifier v = verifier;
      URI r = resource;
      if (v == null) {
        throw new IllegalStateException("verifier(TokenVerifier) is required");
      }
      if (r == null) {
        throw new IllegalStateException("resource(URI) is required");
      }
      if (authorizationServers.isEmpty()) {
        throw new IllegalStateException("authorizationServers(URI...) needs at least one issuer");
      }
      return new ProtectedResource(this, v, r);
    }

    private static String checkScope(String s) {
      Objects.requireNonNull(s, "scope");
      boolean ok = !s.isEmpty();
      for (int i = 0; ok && i < s.length(); i++) {
        char c = s.charAt(i);
        ok = c >= 0x21 && c <= 0x7E && c != '"' && c != '\\';
      }
      if (!ok) {
        throw new IllegalArgumentException("not an RFC 6749 scope token: '" + s + "'");
      }
      return s;
    }
  }
}
