package dev.herald.oauth;

import com.nimbusds.jose.util.JSONObjectUtils;
import dev.herald.auth.InvalidTokenException;
import dev.herald.auth.Principal;
import dev.herald.auth.TokenVerifier;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.nio.charset.StandardCharsets;
import java.text.ParseException;
import java.time.Duration;
import java.time.Instant;
import java.time.InstantSource;
import java.util.Base64;
import java.util.Map;
import java.util.Objects;
import org.jspecify.annotations.Nullable;

/**
 * Verifies access tokens by asking the authorization server about them (OAuth 2.0 Token
 * Introspection, RFC 7662): for opaque tokens, or when a revoked token must stop working at once
 * (MCP specification 2025-11-25 {@code basic/authorization}, "Token Handling").
 *
 * <p>Each verification posts {@code token=<token>&token_type_hint=access_token} to the
 * introspection endpoint, authenticated as this resource server with HTTP Basic client
 * credentials (RFC 6749 section 2.3.1), and accepts the token only when the answer says {@code
 * "active": true}, its {@code exp} (when present) is not passed (within the clock skew), its
 * {@code iss} (when present and an issuer is configured) is the issuer, and its {@code aud} (when
 * present and an audience is configured) contains this server's canonical URI. The principal comes
 * from the answer's {@code sub}, {@code client_id}, {@code scope} and {@code exp}.
 *
 * <p>Every exchange is bounded by {@linkplain Builder#timeout the timeout} (5 s by default): an
 * endpoint that hangs is a refusal ("could not be verified in time") after it. An optional
 * {@linkplain Builder#cache cache} of positive answers spares the round trip for a token seen
 * recently; it is bounded in entries and keeps an answer no longer than its time to live and the
 * token's own expiry, so a revoked token is refused at the latest when its entry lapses. The cache
 * keys on a SHA-256 digest of the token, never the token. No negative answer is cached.
 *
 * <p>Thread-safe: build one and share it. {@link #close} releases the HTTP client it made.
 *
 * {@snippet :
 * TokenVerifier verifier =
 *     IntrospectionTokenVerifier.builder()
 *         .introspectionEndpoint(URI.create("https://auth.example.com/oauth2/introspect"))
 *         .clientCredentials("mcp-server", secret)
 *         .audience("https://mcp.example.com/mcp")
 *         .cache(10_000, Duration.ofSeconds(30))
 *         .build();
 * }
 */
public final class IntrospectionTokenVerifier implements TokenVerifier, AutoCloseable {
  private final URI endpoint;
  private final String authorization;
  private final @Nullable String issuer;
  private final @Nullable String audience;
  private final Duration clockSkew;
  private final Duration timeout;
  private final int maxTokenLength;
  private final InstantSource clock;
  private final HttpFetch http;
  private final @Nullable HttpClient ownClient;
  private final @Nullable IntrospectionCache cache;

  private IntrospectionTokenVerifier(Builder b, URI endpoint, String clientId, String secret) {
    this.endpoint = endpoint;
    this.authorization =
        "Basic "
            + Base64.getEncoder()
                .encodeToString(
                    (formEncode(clientId) + ":" + formEncode(secret))
                        .getBytes(StandardCharsets.UTF_8));
    this.issuer = b.issuer;
    this.audience = b.audience;
    this.clockSkew = b.clockSkew;
    this.timeout = b.timeout;
    this.maxTokenLength = b.maxTokenLength;
    this.clock = b.clock;
    HttpClient client = b.httpClient;
    this.ownClient = client == null ? Http.client(b.connectTimeout) : null;
    this.http = new HttpFetch(client != null ? client : Objects.requireNonNull(ownClient));
    this.cache =
        b.cacheEntries > 0 ? new IntrospectionCache(b.cacheEntries, b.cacheTtl, b.clock) : null;
  }

  /**
   * A builder; {@link Builder#introspectionEndpoint} and {@link Builder#clientCredentials} are
   * required.
   */
  public static Builder builder() {
    return new Builder();
  }

  /**
   * {@inheritDoc}
   *
   * @throws InvalidTokenException when the authorization server says the token is not active,
   *     the answer fails a check listed on this class, or no answer came within the timeout
   */
  @Override
  public Principal verify(String token) throws InvalidTokenException {
    long deadline = System.nanoTime() + timeout.toNanos();
    if (token.length() > maxTokenLength) {
      throw new InvalidTokenException(
          "the token is longer than the " + maxTokenLength + " characters accepted");
    }
    IntrospectionCache c = cache;
    if (c != null) {
      Principal cached = c.get(token);
      if (cached != null) {
        return cached;
      }
    }
    byte[] answer;
    try {
      answer =
          http.postForm(
              endpoint,
              "token=" + formEncode(token) + "&token_type_hint=access_token",
              authorization,
              deadline);
    } catch (HttpFetch.FetchException e) {
      if (e.timedOut()) {
        throw JwtTokenVerifier.notInTime("the introspection endpoint did not answer");
      }
      throw new InvalidTokenException(
          "the token could not be verified: introspection failed (" + e.getMessage() + ")");
    }
    Map<String, Object> json;
    try {
      json = JSONObjectUtils.parse(new String(answer, StandardCharsets.UTF_8));
    } catch (ParseException e) {
      throw new InvalidTokenException(
          "the token could not be verified: the introspection answer is not a JSON object");
    }
    if (!Boolean.TRUE.equals(json.get("active"))) {
      throw new InvalidTokenException("the token is not active (expired, revoked or unknown)");
    }
    Instant now = clock.instant();
    Instant exp = Claims.instant(json.get("exp"));
    if (exp != null && now.isAfter(exp.plus(clockSkew))) {
      throw new InvalidTokenException("the token has expired");
    }
    Object iss = json.get("iss");
    if (issuer != null && iss != null && !issuer.equals(iss)) {
      throw new InvalidTokenException("the token was not issued by " + issuer);
    }
    if (audience != null
        && json.get("aud") != null
        && !Claims.audiences(json.get("aud")).contains(audience)) {
      throw new InvalidTokenException("the token was not issued for " + audience);
    }
    Principal principal =
        Claims.principal(json, iss instanceof String s && !s.isEmpty() ? s : issuer);
    if (c != null) {
      c.put(token, principal, exp);
    }
    return principal;
  }

  private static String formEncode(String s) {
    return URLEncoder.encode(s, StandardCharsets.UTF_8);
  }

  /** Closes the HTTP client this verifier made, if it made one. */
  @Override
  public void close() {
    if (ownClient != null) {
      ownClient.close();
    }
  }

  /** Configures an {@link IntrospectionTokenVerifier}; setters validate at once. */
  public static final class Builder {
    private @Nullable URI endpoint;
    private @Nullable String clientId;
    private @Nullable String clientSecret;
    private @Nullable String issuer;
    private @Nullable String audience;
    private Duration clockSkew = Duration.ofSeconds(60);
    private Duration timeout = Duration.ofSeconds(5);
    private Duration connectTimeout = Duration.ofSeconds(2);
    private int maxTokenLength = 16 * 1024;
    private int cacheEntries;
    private Duration cacheTtl = Duration.ZERO;
    private InstantSource clock = InstantSource.system();
    private @Nullable HttpClient httpClient;

    private Builder() {}

    /** The authorization server's introspection endpoint (RFC 7662 section 2). Required. */
    public Builder introspectionEndpoint(URI endpoint) {
      this.endpoint = Http.absolute(endpoint.toString(), "introspectionEndpoint");
      return this;
    }

    /**
     * This resource server's client credentials at the authorization server, sent as HTTP Basic
     * authentication. Required.
     */
    public Builder clientCredentials(String clientId, String clientSecret) {
      if (clientId.isEmpty()) {
        throw new IllegalArgumentException("clientId must not be empty");
      }
      this.clientId = clientId;
      this.clientSecret = Objects.requireNonNull(clientSecret, "clientSecret");
      return this;
    }

    /** When set, an answer whose {@code iss} is another issuer is refused. */
    public Builder issuer(String issuer) {
      Http.absolute(issuer, "issuer");
      this.issuer = issuer;
      return this;
    }

    /**
     * This server's canonical URI (RFC 8707); when set, an answer whose {@code aud} does not
     * contain it is refused.
     */
    public Builder audience(String audience) {
      Http.absolute(audience, "audience");
      this.audience = audience;
      return this;
    }

    /** How far clocks may disagree when checking {@code exp}; 60 s by default. */
    public Builder clockSkew(Duration clockSkew) {
      this.clockSkew = Http.notNegative(clockSkew, "clockSkew");
      return this;
    }

    /** The longest one verification waits for the introspection answer; 5 s by default. */
    public Builder timeout(Duration timeout) {
      this.timeout = Http.positive(timeout, "timeout");
      return this;
    }

    /** The longest a connection may take to open; 2 s by default. */
    public Builder connectTimeout(Duration connectTimeout) {
      this.connectTimeout = Http.positive(connectTimeout, "connectTimeout");
      return this;
    }

    /** The longest token accepted (and sent on), in characters; 16384 by default. */
    public Builder maxTokenLength(int maxTokenLength) {
      if (maxTokenLength < 16) {
        throw new IllegalArgumentException(
            "maxTokenLength must be at least 16, was " + maxTokenLength);
      }
      this.maxTokenLength = maxTokenLength;
      return this;
    }

    /**
     * Keeps up to {@code maxEntries} positive answers, each for at most {@code ttl} and never past
     * the token's {@code exp}. Off by default: every verification asks the authorization server.
     */
    public Builder cache(int maxEntries, Duration ttl) {
      if (maxEntries <= 0) {
        throw new IllegalArgumentException("cache maxEntries must be positive, was " + maxEntries);
      }
      this.cacheTtl = Http.positive(ttl, "cache ttl");
      this.cacheEntries = maxEntries;
      return this;
    }

    /** The clock for {@code exp} and the cache; the system clock by default. */
    public Builder clock(InstantSource clock) {
      this.clock = Objects.requireNonNull(clock, "clock");
      return this;
    }

    /** The HTTP client to post with, instead of one the verifier makes (and closes). */
    public Builder httpClient(HttpClient httpClient) {
      this.httpClient = Objects.requireNonNull(httpClient, "httpClient");
      return this;
    }

    /**
     * Builds the verifier.
     *
     * @throws IllegalStateException if the endpoint or the client credentials are missing
     */
    public IntrospectionTokenVerifier build() {
      if (endpoint == null) {
        throw new IllegalStateException("introspectionEndpoint is required");
      }
      if (clientId == null || clientSecret == null) {
        throw new IllegalStateException("clientCredentials are required");
      }
      return new IntrospectionTokenVerifier(this, endpoint, clientId, clientSecret);
    }
  }
}
