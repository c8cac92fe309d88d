package dev.herald.client.auth;

import java.io.IOException;
import java.net.URI;
import java.net.URLDecoder;
import java.net.http.HttpClient;
import java.nio.charset.StandardCharsets;
import java.security.SecureRandom;
import java.time.Duration;
import java.time.InstantSource;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.locks.ReentrantLock;
import org.jspecify.annotations.Nullable;

/**
 * An MCP client's OAuth 2.1 authorization (MCP 2025-11-25 basic/authorization), set on a
 * Streamable HTTP transport: when the server answers {@code 401} it discovers the server's
 * authorization server, obtains a token and lets the transport send the request again.
 *
 * {@snippet :
 * OAuthClient auth = OAuthClient.builder()
 *     .clientName("my-host")
 *     .redirectUri(URI.create("http://127.0.0.1:8765/callback"))
 *     .authorizationCodeHandler(browser)
 *     .build();
 * try (McpClient client = McpClient.builder()
 *     .info("my-host", "1.0")
 *     .connect(StreamableHttpClientTransport.builder()
 *         .uri(URI.create("https://example.com/mcp"))
 *         .authorization(auth)
 *         .build())) {
 *   client.tools();
 * }
 * }
 *
 * <p><b>The flow</b>, on a {@code 401}: a kept grant with a refresh token is refreshed once
 * (sending the resource indicator again); otherwise, or when that fails, a new flow runs:
 * <ol>
 *   <li>protected resource metadata (RFC 9728): from the challenge's {@code resource_metadata},
 *       else the path-based then the root well-known URL; its {@code resource} must cover the
 *       server's URL, or the flow is refused;
 *   <li>authorization server metadata of the first listed server (RFC 8414 and OpenID Connect
 *       Discovery, in the specification's order), whose {@code issuer} must be the one looked up
 *       and which must offer PKCE {@code S256}; a server with no protected resource metadata is an
 *       MCP 2025-03-26 server: its origin is the authorization server, with {@code /authorize},
 *       {@code /token} and {@code /register} when it publishes no metadata either;
 *   <li>the client's identity at that server: the pre-registered {@link Builder#clientId}, else
 *       the {@link Builder#clientMetadataUrl client ID metadata document} when the server
 *       advertises {@code client_id_metadata_document_supported}, else dynamic registration (RFC
 *       7591), remembered per authorization server and never shown to another one;
 *   <li>the scopes: the challenge's {@code scope}, else the metadata's {@code scopes_supported},
 *       else none, plus {@code offline_access} when the authorization server lists it;
 *   <li>the authorization code grant with PKCE {@code S256}, {@code state} and {@code resource},
 *       through the host's {@link AuthorizationCodeHandler}; the response's {@code iss} (RFC 9207)
 *       must equal the issuer when present, and must be present when the server advertises it;
 *   <li>the token request with the code verifier, the {@code resource} and the client's
 *       authentication ({@code client_secret_basic}, {@code client_secret_post} or none, as the
 *       server supports); the grant is kept in the {@link TokenStore}.
 * </ol>
 * A machine client ({@link Builder#clientCredentials}) uses the {@code client_credentials} grant
 * instead of steps 3 and 5, authenticating with its secret or with a {@code private_key_jwt}
 * assertion. On a {@code 403} with {@code error="insufficient_scope"} (a step-up)
 * a new flow asks for the scopes already granted plus those the challenge names, unless the token
 * already has them all (then the server's refusal stands); the transport bounds how often one
 * request is retried.
 *
 * <p><b>Threading.</b> One flow runs at a time (under a lock held while it blocks on the network
 * and on the handler); a request refused while a flow ran retries with the flow's token without
 * starting another. {@link #authorizationHeader} reads the store without waiting for a flow. Every
 * HTTP exchange of a flow is bounded by {@link Builder#timeout} and its body by 1 MiB.
 */
public final class OAuthClient implements Authorization {
  private static final System.Logger LOG = System.getLogger("dev.herald.client.auth");

  /** Largest metadata, registration or token response read. */
  static final int MAX_BODY = 1024 * 1024;

  private final OAuthHttp http;
  private final Discovery discovery;
  private final TokenEndpoint tokens;
  private final TokenStore store;
  private final @Nullable AuthorizationCodeHandler codeHandler;
  private final @Nullable URI redirectUri;
  private final String clientName;
  private final @Nullable String clientId;
  private final @Nullable String clientSecret;
  private final @Nullable URI clientMetadataUrl;
  private final boolean machine;
  private final @Nullable ClientAssertion assertion;
  private final boolean offlineAccess;
  private final SecureRandom random = new SecureRandom();

  private final ReentrantLock lock = new ReentrantLock();

  /** Clients registered dynamically, per issuer. Guarded by {@link #lock}. */
  private final Map<String, ClientIdentity> registered = new HashMap<>();

  /** Per server key, the access token a refresh produced last (refresh once). Guarded by lock. */
  private final Map<String, String> refreshedLast = new HashMap<>();

  private OAuthClient(Builder b) {
    HttpClient client =
        b.httpClient != null
            ? b.httpClient
            : HttpClient.newBuilder()
                .connectTimeout(b.timeout)
                .followRedirects(HttpClient.Redirect.NEVER)
                .build();
    this.http = new OAuthHttp(client, b.timeout, MAX_BODY);
    this.discovery = new Discovery(http);
    this.tokens = new TokenEndpoint(http, b.clock);
    this.store = b.store;
    this.codeHandler = b.codeHandler;
    this.redirectUri = b.redirectUri;
    this.clientName = b.clientName;
    this.clientId = b.clientId;
    this.clientSecret = b.clientSecret;
    this.clientMetadataUrl = b.clientMetadataUrl;
    this.machine = b.machine;
    this.assertion =
        b.assertionKey == null
            ? null
            : new ClientAssertion(b.assertionKey, Objects.requireNonNull(b.assertionAlg), b.clock);
    this.offlineAccess = b.offlineAccess;
  }

  /** A builder; see {@link Builder} for what is required. */
  public static Builder builder() {
    return new Builder();
  }

  /** The key a server's grant is kept under: its canonical URI (RFC 8707 §2). */
  public static String storeKey(URI server) {
    return Discovery.canonical(server);
  }

  @Override
  public Optional<String> authorizationHeader(URI resource) {
    return store.load(storeKey(resource)).map(StoredGrant::authorization);
  }

  /** Forgets the grant kept for {@code server} (its tokens are not revoked). */
  public void logout(URI server) {
    store.remove(storeKey(server));
  }

  /**
   * Runs the flow for {@code server} now, as if it had answered {@code 401} with no challenge
   * parameters, unless a grant is kept for it already.
   *
   * @throws AuthorizationException when the flow fails
   */
  public StoredGrant authorize(URI server) {
    lock.lock();
    try {
      Optional<StoredGrant> kept = store.load(storeKey(server));
      if (kept.isPresent()) {
        return kept.get();
      }
      return newFlow(Challenge.of(server, 401, null, null), null);
    } finally {
      lock.unlock();
    }
  }

  @Override
  public boolean retryAfter(Challenge challenge) {
    lock.lock();
    try {
      String key = storeKey(challenge.resource());
      StoredGrant grant = store.load(key).orElse(null);
      boolean newer =
          grant != null && !grant.authorization().equals(challenge.rejectedAuthorization());
      if (challenge.status() == 403) {
        if (!challenge.insufficientScope()) {
          return false;
        }
        if (newer) {
          return true; // another request's step-up already ran
        }
        Set<String> granted =
            grant == null || grant.scope() == null ? Set.of() : Challenge.split(grant.scope());
        Set<String> needed = challenge.scopes();
        if (!needed.isEmpty() && granted.containsAll(needed)) {
          throw new AuthorizationException(
              "the server refused the request for insufficient scope although the token has "
                  + needed
                  + "; not asking again",
              challenge);
        }
        Set<String> scopes = new LinkedHashSet<>(granted);
        scopes.addAll(needed);
        newFlow(challenge, scopes);
        return true;
      }
      if (newer) {
        return true; // a flow ran while this request was out
      }
      if (grant != null
          && grant.refreshToken() != null
          && !grant.accessToken().equals(refreshedLast.get(key))) {
        try {
          StoredGrant refreshed = refresh(grant);
          store.save(key, refreshed);
          refreshedLast.put(key, refreshed.accessToken());
          return true;
        } catch (AuthorizationException e) {
          LOG.log(
              System.Logger.Level.DEBUG,
              "refresh for {0} failed, authorizing anew: {1}",
              key,
              e.getMessage());
        }
      }
      if (grant != null) {
        store.remove(key);
      }
      newFlow(challenge, null);
      return true;
    } finally {
      lock.unlock();
    }
  }

  private StoredGrant refresh(StoredGrant grant) {
    String refreshToken = Objects.requireNonNull(grant.refreshToken());
    ClientIdentity client =
        new ClientIdentity(grant.clientId(), grant.clientSecret(), grant.authMethod());
    TokenEndpoint.Tokens t =
        tokens.refresh(grant.tokenEndpoint(), client, refreshToken, grant.resource());
    return grant.refreshed(t.accessToken(), t.refreshToken(), t.expiresAt(), t.scope());
  }

  /** A whole flow, from discovery to the token; keeps and returns the grant. */
  private StoredGrant newFlow(Challenge challenge, @Nullable Set<String> stepUpScopes) {
    URI server = challenge.resource();
    Metadata.Resource prm = discovery.resourceMetadata(server, challenge);
    String resource;
    String issuer;
    Metadata.Server as;
    if (prm != null) {
      if (!Discovery.covers(prm.resource(), server)) {
        throw new AuthorizationException(
            "the protected resource metadata at "
                + prm.source()
                + " is for "
                + prm.resource()
                + ", not for "
                + server
                + ": refusing to authorize",
            challenge);
      }
      resource = prm.resource();
      issuer = prm.authorizationServers().get(0);
      as = discovery.serverMetadata(issuer, true, false);
    } else {
      // MCP 2025-03-26: the server's origin is its authorization server
      resource = Discovery.canonical(server);
      issuer = Discovery.origin(server).toString();
      as = discovery.serverMetadata(issuer, false, true);
    }
    if (!as.defaults()
        && (as.codeChallengeMethods() == null || !as.codeChallengeMethods().contains(Pkce.METHOD))
        && !machine) {
      throw new AuthorizationException(
          "authorization server "
              + as.issuer()
              + " does not advertise PKCE S256 support; refusing to proceed",
          challenge);
    }
    String scope = stepUpScopes != null ? join(stepUpScopes) : selectScope(challenge, prm, as);
    TokenEndpoint.Tokens t;
    ClientIdentity client;
    if (machine) {
      client =
          assertion != null
              ? new ClientIdentity(
                  Objects.requireNonNull(clientId), null, ClientIdentity.PRIVATE_KEY_JWT)
              : new ClientIdentity(
                  Objects.requireNonNull(clientId),
                  clientSecret,
                  ClientIdentity.method(as.tokenEndpointAuthMethods(), clientSecret != null));
      t =
          tokens.clientCredentials(
              as.tokenEndpoint(), client, scope, resource, assertion, as.issuer());
    } else {
      client = identity(as);
      t = codeGrant(as, client, scope, resource);
    }
    StoredGrant grant =
        new StoredGrant(
            as.issuer(),
            as.tokenEndpoint(),
            resource,
            client.clientId(),
            client.clientSecret(),
            client.authMethod(),
            t.accessToken(),
            t.refreshToken(),
            t.expiresAt(),
            t.scope() != null ? t.scope() : scope);
    store.save(storeKey(server), grant);
    return grant;
  }

  /** MCP 2025-11-25 basic/authorization §Scope Selection Strategy, plus {@code offline_access}. */
  @Nullable String selectScope(
      Challenge challenge, Metadata.@Nullable Resource prm, Metadata.Server as) {
    Set<String> scopes = new LinkedHashSet<>(challenge.scopes());
    if (scopes.isEmpty() && prm != null) {
      scopes.addAll(prm.scopesSupported());
    }
    if (scopes.isEmpty()) {
      return null;
    }
    if (offlineAccess && as.scopesSupported().contains("offline_access")) {
      scopes.add("offline_access");
    }
    return join(scopes);
  }

  private static @Nullable String join(Set<String> scopes) {
    return scopes.isEmpty() ? null : String.join(" ", scopes);
  }

  /** The client's identity at {@code as}: pre-registered, metadata document, or registered now. */
  private ClientIdentity identity(Metadata.Server as) {
    if (clientId != null) {
      return new ClientIdentity(
          clientId,
          clientSecret,
          ClientIdentity.method(as.tokenEndpointAuthMethods(), clientSecret != null));
    }
    if (clientMetadataUrl != null && as.clientIdMetadataDocumentSupported()) {
      return new ClientIdentity(clientMetadataUrl.toString(), null, ClientIdentity.NONE);
    }
    ClientIdentity known = registered.get(as.issuer());
    if (known != null) {
      return known;
    }
    ClientIdentity fresh =
        ClientIdentity.register(
            http, as, clientName, Objects.requireNonNull(redirectUri), offlineAccess);
    registered.put(as.issuer(), fresh);
    return fresh;
  }

  private TokenEndpoint.Tokens codeGrant(
      Metadata.Server as, ClientIdentity client, @Nullable String scope, String resource) {
    URI redirect = Objects.requireNonNull(redirectUri);
    AuthorizationCodeHandler handler = Objects.requireNonNull(codeHandler);
    Pkce pkce = Pkce.generate(random);
    String state = Pkce.randomToken(random, 24);
    Map<String, String> query = new LinkedHashMap<>();
    query.put("response_type", "code");
    query.put("client_id", client.clientId());
    query.put("redirect_uri", redirect.toString());
    query.put("code_challenge", pkce.challenge());
    query.put("code_challenge_method", Pkce.METHOD);
    query.put("state", state);
    if (scope != null) {
      query.put("scope", scope);
    }
    query.put("resource", resource);
    URI endpoint = as.authorizationEndpoint();
    String sep = endpoint.getRawQuery() == null ? "?" : "&";
    URI authorizationUrl = URI.create(endpoint + sep + OAuthHttp.form(query));
    URI callback;
    try {
      callback = handler.authorize(authorizationUrl, redirect);
    } catch (IOException e) {
      throw new AuthorizationException(
          "authorization at " + endpoint + " failed: " + e.getMessage(), null, e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new AuthorizationException("interrupted while waiting for authorization", null, e);
    }
    Map<String, String> response = queryOf(callback);
    String error = response.get("error");
    if (error != null) {
      String description = response.get("error_description");
      throw new AuthorizationException(
          "the authorization server refused: "
              + error
              + (description == null ? "" : " (" + description + ")"));
    }
    if (!state.equals(response.get("state"))) {
      throw new AuthorizationException(
          "the authorization response's state does not match the request's");
    }
    checkIssuer(as, response.get("iss"));
    String code = response.get("code");
    if (code == null || code.isEmpty()) {
      throw new AuthorizationException("the authorization response has no code");
    }
    return tokens.exchangeCode(
        as.tokenEndpoint(), client, code, redirect, pkce.verifier(), resource);
  }

  /**
   * RFC 9207 §2.4: a present {@code iss} must equal the issuer by simple string comparison; an
   * absent one is refused when the server advertises that it sends one.
   */
  static void checkIssuer(Metadata.Server as, @Nullable String iss) {
    if (iss == null) {
      if (as.issParameterSupported()) {
        throw new AuthorizationException(
            "the authorization response has no iss although "
                + as.issuer()
                + " advertises it (RFC 9207)");
      }
      return;
    }
    if (!iss.equals(as.issuer())) {
      throw new AuthorizationException(
          "the authorization response comes from issuer "
              + iss
              + ", not "
              + as.issuer()
              + " (RFC 9207): refusing it");
    }
  }

  /** The query parameters of {@code u}, decoded; the first of a repeated one wins. */
  static Map<String, String> queryOf(URI u) {
    Map<String, String> out = new LinkedHashMap<>();
    String q = u.getRawQuery();
    if (q == null) {
      return out;
    }
    int i = 0;
    while (i <= q.length()) {
      int amp = q.indexOf('&', i);
      if (amp < 0) {
        amp = q.length();
      }
      String pair = q.substring(i, amp);
      if (!pair.isEmpty()) {
        int eq = pair.indexOf('=');
        String k = eq < 0 ? pair : pair.substring(0, eq);
        String v = eq < 0 ? "" : pair.substring(eq + 1);
        try {
          out.putIfAbsent(
              URLDecoder.decode(k, StandardCharsets.UTF_8),
              URLDecoder.decode(v, StandardCharsets.UTF_8));
        } catch (IllegalArgumentException e) {
          // a malformed escape: skip that parameter
        }
      }
      i = amp + 1;
    }
    return out;
  }

  /**
   * Builds an {@link OAuthClient}. An interactive client needs {@link #redirectUri} and {@link
   * #authorizationCodeHandler}; a machine client needs {@link #clientCredentials} only.
   */
  public static final class Builder {
    private @Nullable HttpClient httpClient;
    private Duration timeout = Duration.ofSeconds(30);
    private TokenStore store = TokenStore.inMemory();
    private @Nullable AuthorizationCodeHandler codeHandler;
    private @Nullable URI redirectUri;
    private String clientName = "Herald MCP client";
    private @Nullable String clientId;
    private @Nullable String clientSecret;
    private @Nullable URI clientMetadataUrl;
    private boolean machine;
    private java.security.@Nullable PrivateKey assertionKey;
    private @Nullable String assertionAlg;
    private boolean offlineAccess = true;
    private InstantSource clock = InstantSource.system();

    private Builder() {}

    /** The client name sent in dynamic registration (default "Herald MCP client"). */
    public Builder clientName(String name) {
      this.clientName = Objects.requireNonNull(name, "name");
      return this;
    }

    /**
     * The redirect URI of the authorization code flow (a loopback {@code http} URI for a native
     * host, MCP 2025-11-25 basic/authorization §Communication Security).
     *
     * @throws IllegalArgumentException unless absolute, without fragment, and {@code https} or
     *     loopback {@code http} (or a private-use scheme)
     */
    public Builder redirectUri(URI uri) {
      Objects.requireNonNull(uri, "uri");
      if (!uri.isAbsolute() || uri.getFragment() != null) {
        throw new IllegalArgumentException(
            "redirectUri must be absolute without fragment, was " + uri);
      }
      String scheme = uri.getScheme().toLowerCase(Locale.ROOT);
      if ((scheme.equals("http") || scheme.equals("https")) && !OAuthHttp.secure(uri)) {
        throw new IllegalArgumentException(
            "redirectUri must be https or a loopback http URI, was " + uri);
      }
      this.redirectUri = uri;
      return this;
    }

    /** How the host takes the user through authorization; see {@link AuthorizationCodeHandler}. */
    public Builder authorizationCodeHandler(AuthorizationCodeHandler handler) {
      this.codeHandler = Objects.requireNonNull(handler, "handler");
      return this;
    }

    /**
     * A client registered with the authorization server beforehand (MCP 2025-11-25
     * basic/authorization §Preregistration); used instead of any other identity.
     */
    public Builder clientId(String clientId) {
      if (machine) {
        throw new IllegalStateException("clientCredentials was already set");
      }
      this.clientId = Objects.requireNonNull(clientId, "clientId");
      return this;
    }

    /** The pre-registered client's secret (with {@link #clientId}). */
    public Builder clientSecret(String secret) {
      if (machine) {
        throw new IllegalStateException("clientCredentials was already set");
      }
      this.clientSecret = Objects.requireNonNull(secret, "secret");
      return this;
    }

    /**
     * The URL of this client's client ID metadata document, used as its {@code client_id} where
     * the authorization server advertises {@code client_id_metadata_document_supported}, in
     * preference to dynamic registration.
     *
     * @throws IllegalArgumentException unless an {@code https} URL with a path
     */
    public Builder clientMetadataUrl(URI url) {
      Objects.requireNonNull(url, "url");
      if (!"https".equalsIgnoreCase(url.getScheme())
          || url.getHost() == null
          || url.getRawPath() == null
          || url.getRawPath().length() < 2
          || url.getFragment() != null) {
        throw new IllegalArgumentException(
            "clientMetadataUrl must be an https URL with a path, was " + url);
      }
      this.clientMetadataUrl = url;
      return this;
    }

    /**
     * Makes this a machine client: tokens come from the {@code client_credentials} grant (OAuth
     * 2.1 §4.2) with this id and secret, and no user takes part.
     *
     * @throws IllegalStateException if {@link #clientId} was set
     */
    public Builder clientCredentials(String clientId, String clientSecret) {
      if (this.clientId != null && !machine) {
        throw new IllegalStateException(
            "clientId was already set; use either clientId or clientCredentials");
      }
      this.clientId = Objects.requireNonNull(clientId, "clientId");
      this.clientSecret = Objects.requireNonNull(clientSecret, "clientSecret");
      this.assertionKey = null;
      this.assertionAlg = null;
      this.machine = true;
      return this;
    }

    /**
     * Makes this a machine client that authenticates with {@code private_key_jwt} (RFC 7523 §2.2):
     * tokens come from the {@code client_credentials} grant, the client proving itself with a JWT
     * signed by {@code key} ({@code algorithm}: ES256, ES384, ES512, RS256, RS384 or RS512) whose
     * audience is the authorization server's issuer.
     *
     * @throws IllegalStateException if {@link #clientId} was set
     * @throws IllegalArgumentException at {@link #build()} when the key cannot sign with the
     *     algorithm
     */
    public Builder clientCredentials(
        String clientId, java.security.PrivateKey key, String algorithm) {
      if (this.clientId != null && !machine) {
        throw new IllegalStateException(
            "clientId was already set; use either clientId or clientCredentials");
      }
      this.clientId = Objects.requireNonNull(clientId, "clientId");
      this.clientSecret = null;
      this.assertionKey = Objects.requireNonNull(key, "key");
      this.assertionAlg = Objects.requireNonNull(algorithm, "algorithm");
      this.machine = true;
      return this;
    }

    /** Where grants are kept (default {@link TokenStore#inMemory()}). */
    public Builder tokenStore(TokenStore store) {
      this.store = Objects.requireNonNull(store, "store");
      return this;
    }

    /** Whether to ask for {@code offline_access} (a refresh token) where the server lists it (default true). */
    public Builder offlineAccess(boolean ask) {
      this.offlineAccess = ask;
      return this;
    }

    /** The HTTP client for metadata, registration and token requests (default: its own, no redirects). */
    public Builder httpClient(HttpClient client) {
      this.httpClient = Objects.requireNonNull(client, "client");
      return this;
    }

    /**
     * The bound of each HTTP exchange of a flow (default 30 s).
     *
     * @throws IllegalArgumentException if not positive
     */
    public Builder timeout(Duration timeout) {
      Objects.requireNonNull(timeout, "timeout");
      if (timeout.isNegative() || timeout.isZero()) {
        throw new IllegalArgumentException("timeout must be positive, was " + timeout);
      }
      this.timeout = timeout;
      return this;
    }

    /** The time source for token expiry (default the system clock). */
    public Builder clock(InstantSource clock) {
      this.clock = Objects.requireNonNull(clock, "clock");
      return this;
    }

    /**
     * Builds the client.
     *
     * @throws IllegalStateException when an interactive client lacks a redirect URI or handler,
     *     or a client secret was given without a client id
     */
    public OAuthClient build() {
      if (!machine) {
        if (redirectUri == null || codeHandler == null) {
          throw new IllegalStateException(
              "an interactive client needs redirectUri and authorizationCodeHandler"
                  + " (or use clientCredentials for a machine client)");
        }
        if (clientSecret != null && clientId == null) {
          throw new IllegalStateException("clientSecret was set without clientId");
        }
      }
      return new OAuthClient(this);
    }
  }
}
