package dev.herald.oauth;

import com.nimbusds.jose.Algorithm;
import com.nimbusds.jose.JOSEException;
import com.nimbusds.jose.JWSAlgorithm;
import com.nimbusds.jose.JWSHeader;
import com.nimbusds.jose.JWSVerifier;
import com.nimbusds.jose.crypto.ECDSAVerifier;
import com.nimbusds.jose.crypto.MACVerifier;
import com.nimbusds.jose.crypto.RSASSAVerifier;
import com.nimbusds.jose.jwk.ECKey;
import com.nimbusds.jose.jwk.JWK;
import com.nimbusds.jose.jwk.RSAKey;
import com.nimbusds.jwt.JWT;
import com.nimbusds.jwt.JWTClaimsSet;
import com.nimbusds.jwt.JWTParser;
import com.nimbusds.jwt.SignedJWT;
import dev.herald.auth.InvalidTokenException;
import dev.herald.auth.Principal;
import dev.herald.auth.TokenVerifier;
import java.net.URI;
import java.net.http.HttpClient;
import java.text.ParseException;
import java.time.Duration;
import java.time.Instant;
import java.time.InstantSource;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import org.jspecify.annotations.Nullable;

/**
 * Verifies JWT access tokens (RFC 9068) against the signing keys the authorization server
 * publishes (its JWKS). This is how an MCP server acting as an OAuth 2.1 resource server validates
 * the tokens it is sent (MCP specification 2025-11-25 {@code basic/authorization}, "Token
 * Handling" and "Token Audience Binding and Validation").
 *
 * <p>A token is accepted only when all of these hold, checked in this order, and is otherwise
 * refused with an {@link InvalidTokenException} whose message says which failed (it never
 * contains the token):
 *
 * <ol>
 *   <li>it is at most {@linkplain Builder#maxTokenLength the maximum length} (checked before
 *       anything parses it);
 *   <li>it is a signed JWT (JWS compact form), not an unsigned ({@code alg: none}) or encrypted
 *       one;
 *   <li>its algorithm is one of the {@linkplain Builder#algorithms allowed} ones: by default the
 *       RSA and ECDSA ones (RS256/384/512, PS256/384/512, ES256/384/512); HMAC only with a
 *       {@linkplain Builder#hmacSecret secret}; never {@code none};
 *   <li>its signature verifies with one of the authorization server's keys (see below); keys
 *       embedded in the token's header ({@code jwk}, {@code jku}, {@code x5u}) are ignored;
 *   <li>{@code iss} is exactly the configured issuer;
 *   <li>{@code aud} contains this server's canonical URI (RFC 8707, the {@code resource} the
 *       client asked the token for);
 *   <li>{@code exp} is present and not passed, and {@code nbf}, when present, is reached, both
 *       within the {@linkplain Builder#clockSkew clock skew} (60 s by default);
 *   <li>{@code sub} is present.
 * </ol>
 *
 * <p>The {@link Principal} carries {@code iss}, {@code sub}, the client from {@code client_id}
 * (else {@code azp}), the scopes from {@code scope} (space-separated) or {@code scp}, {@code exp}
 * and every claim.
 *
 * <p><b>Keys.</b> The JWK set is fetched from the {@linkplain Builder#jwksUri JWKS URI}, or, when
 * none is given, from the {@code jwks_uri} of the issuer's metadata (RFC 8414, then OpenID
 * Connect discovery). It is cached and fetched again when older than {@linkplain
 * Builder#keysMaxAge its maximum age} (10 minutes by default), or when a token names a key id the
 * set does not have (the server rotated its keys). Fetches start at most once per {@linkplain
 * Builder#keyRefetchInterval refetch interval} (30 s by default, the interval Nimbus JOSE+JWT's
 * own JWK source uses), so tokens with invented key ids cannot make this server flood the
 * authorization server. A failed fetch is not remembered: while no keys were ever fetched, the
 * next token tries again.
 *
 * <p><b>Time.</b> Everything one verification waits for (the fetch lock, the metadata and JWKS
 * requests) is bounded by {@linkplain Builder#timeout the timeout} (5 s by default; connecting is
 * bounded by {@linkplain Builder#connectTimeout the connect timeout}, 2 s). A JWKS endpoint that
 * hangs makes verifications fail with "the token could not be verified in time" after the
 * timeout; a verification with keys in the cache touches no network.
 *
 * <p>Thread-safe: build one and share it among all requests. {@link #close} releases the HTTP
 * client it made (not one given to the builder).
 *
 * {@snippet :
 * TokenVerifier verifier =
 *     JwtTokenVerifier.builder()
 *         .issuer("https://auth.example.com")
 *         .audience("https://mcp.example.com/mcp")
 *         .build(); // keys from https://auth.example.com/.well-known/oauth-authorization-server
 * Principal who = verifier.verify(token);
 * }
 */
public final class JwtTokenVerifier implements TokenVerifier, AutoCloseable {
  /** The algorithms accepted when none are configured: RSA (PKCS#1 v1.5 and PSS) and ECDSA. */
  public static final Set<String> DEFAULT_ALGORITHMS =
      Set.of("RS256", "RS384", "RS512", "PS256", "PS384", "PS512", "ES256", "ES384", "ES512");

  private static final Set<JWSAlgorithm> SUPPORTED;

  static {
    Set<JWSAlgorithm> s = new LinkedHashSet<>();
    s.addAll(JWSAlgorithm.Family.RSA);
    s.addAll(JWSAlgorithm.Family.EC);
    s.remove(
        JWSAlgorithm.ES256K); // needs a provider with secp256k1; no authorization server uses it
    s.addAll(JWSAlgorithm.Family.HMAC_SHA);
    SUPPORTED = Set.copyOf(s);
  }

  private final String issuer;
  private final String audience;
  private final Set<JWSAlgorithm> algorithms;
  private final byte @Nullable [] hmacSecret;
  private final Duration clockSkew;
  private final Duration timeout;
  private final int maxTokenLength;
  private final InstantSource clock;
  private final JwksKeys keys;
  private final @Nullable HttpClient ownClient;

  private JwtTokenVerifier(Builder b, String issuer, String audience) {
    this.issuer = issuer;
    this.audience = audience;
    this.hmacSecret = b.hmacSecret == null ? null : b.hmacSecret.clone();
    Set<JWSAlgorithm> algs = new LinkedHashSet<>();
    for (String name : b.algorithms != null ? b.algorithms : defaults(b.hmacSecret != null)) {
      algs.add(JWSAlgorithm.parse(name));
    }
    this.algorithms = Set.copyOf(algs);
    this.clockSkew = b.clockSkew;
    this.timeout = b.timeout;
    this.maxTokenLength = b.maxTokenLength;
    this.clock = b.clock;
    HttpClient client = b.httpClient;
    this.ownClient = client == null ? Http.client(b.connectTimeout) : null;
    this.keys =
        new JwksKeys(
            new HttpFetch(client != null ? client : Objects.requireNonNull(ownClient)),
            issuer,
            b.jwksUri,
            b.clock,
            b.keyRefetchInterval,
            b.keysMaxAge);
  }

  private static Set<String> defaults(boolean withHmac) {
    if (!withHmac) {
      return DEFAULT_ALGORITHMS;
    }
    Set<String> s = new LinkedHashSet<>(DEFAULT_ALGORITHMS);
    s.addAll(List.of("HS256", "HS384", "HS512"));
    return s;
  }

  /** A builder; {@link Builder#issuer} and {@link Builder#audience} are required. */
  public static Builder builder() {
    return new Builder();
  }

  /**
   * {@inheritDoc}
   *
   * @throws InvalidTokenException when the token fails any of the checks listed on this class,
   *     or cannot be checked within the timeout
   */
  @Override
  public Principal verify(String token) throws InvalidTokenException {
    long deadline = System.nanoTime() + timeout.toNanos();
    if (token.length() > maxTokenLength) {
      throw new InvalidTokenException(
          "the token is longer than the " + maxTokenLength + " characters accepted");
    }
    JWT jwt;
    try {
      jwt = JWTParser.parse(token);
    } catch (ParseException | RuntimeException e) {
      throw new InvalidTokenException("the token is not a well-formed JWT");
    }
    Algorithm alg = jwt.getHeader().getAlgorithm();
    if (!(jwt instanceof SignedJWT signed)) {
      throw new InvalidTokenException(
          Algorithm.NONE.equals(alg)
              ? "the token is not signed (alg none)"
              : "the token is encrypted; a signed JWT is expected");
    }
    JWSHeader header = signed.getHeader();
    if (!algorithms.contains(header.getAlgorithm())) {
      throw new InvalidTokenException(
          "the token's algorithm " + header.getAlgorithm() + " is not accepted");
    }
    checkSignature(signed, header, deadline);
    JWTClaimsSet claims;
    try {
      claims = signed.getJWTClaimsSet();
    } catch (ParseException e) {
      throw new InvalidTokenException("the token's claims are not a JSON object");
    }
    Map<String, Object> json = claims.toJSONObject();
    if (!issuer.equals(json.get("iss"))) {
      throw new InvalidTokenException("the token was not issued by " + issuer);
    }
    if (!Claims.audiences(json.get("aud")).contains(audience)) {
      throw new InvalidTokenException("the token was not issued for " + audience);
    }
    Instant now = clock.instant();
    Instant exp = Claims.instant(json.get("exp"));
    if (exp == null) {
      throw new InvalidTokenException("the token has no expiry (exp)");
    }
    if (now.isAfter(exp.plus(clockSkew))) {
      throw new InvalidTokenException("the token has expired");
    }
    Instant nbf = Claims.instant(json.get("nbf"));
    if (nbf != null && now.plus(clockSkew).isBefore(nbf)) {
      throw new InvalidTokenException("the token is not valid yet (nbf)");
    }
    return Claims.principal(json, issuer);
  }

  private void checkSignature(SignedJWT jwt, JWSHeader header, long deadline)
      throws InvalidTokenException {
    List<JWSVerifier> verifiers = new ArrayList<>();
    try {
      if (JWSAlgorithm.Family.HMAC_SHA.contains(header.getAlgorithm())) {
        byte[] secret = hmacSecret;
        if (secret != null) {
          verifiers.add(new MACVerifier(secret));
        }
      } else {
        for (JWK key : keys.candidates(header, deadline)) {
          if (key instanceof RSAKey rsa) {
            verifiers.add(new RSASSAVerifier(rsa));
          } else if (key instanceof ECKey ec) {
            verifiers.add(new ECDSAVerifier(ec));
          }
        }
      }
    } catch (JOSEException e) {
      throw new InvalidTokenException("the authorization server's key is not usable", e);
    }
    if (verifiers.isEmpty()) {
      throw new InvalidTokenException(
          header.getKeyID() == null
              ? "no key of the authorization server can verify the token"
              : "the token's key id is not one of the authorization server's keys");
    }
    for (JWSVerifier verifier : verifiers) {
      try {
        if (jwt.verify(verifier)) {
          return;
        }
      } catch (JOSEException | RuntimeException e) {
        // a signature of the wrong shape: the same as a wrong one
      }
    }
    throw new InvalidTokenException("the token's signature is not valid");
  }

  static InvalidTokenException notInTime(String what) {
    return new InvalidTokenException("the token could not be verified in time: " + what);
  }

  /** Closes the HTTP client this verifier made, if it made one. */
  @Override
  public void close() {
    if (ownClient != null) {
      ownClient.close();
    }
  }

  /**
   * Configures a {@link JwtTokenVerifier}. Every setter validates its argument at once; {@link
   * #build} checks that the issuer and audience were set and that the algorithms fit the keys.
   */
  public static final class Builder {
    private @Nullable String issuer;
    private @Nullable String audience;
    private @Nullable URI jwksUri;
    private @Nullable Set<String> algorithms;
    private byte @Nullable [] hmacSecret;
    private Duration clockSkew = Duration.ofSeconds(60);
    private Duration timeout = Duration.ofSeconds(5);
    private Duration connectTimeout = Duration.ofSeconds(2);
    private Duration keyRefetchInterval = Duration.ofSeconds(30);
    private Duration keysMaxAge = Duration.ofMinutes(10);
    private int maxTokenLength = 16 * 1024;
    private InstantSource clock = InstantSource.system();
    private @Nullable HttpClient httpClient;

    private Builder() {}

    /**
     * The authorization server's issuer identifier; a token's {@code iss} must equal it exactly.
     * Required. When no {@link #jwksUri} is given, the keys' location is read from this issuer's
     * metadata.
     */
    public Builder issuer(String issuer) {
      URI uri = Http.absolute(issuer, "issuer");
      if (uri.getRawQuery() != null || uri.getRawFragment() != null) {
        throw new IllegalArgumentException(
            "issuer must have no query or fragment (RFC 8414 section 2): " + issuer);
      }
      this.issuer = issuer;
      return this;
    }

    /**
     * This server's canonical URI (RFC 8707 section 2, MCP "Canonical Server URI"), for example
     * {@code https://mcp.example.com/mcp}; a token's {@code aud} must contain it. Required.
     */
    public Builder audience(String audience) {
      Http.absolute(audience, "audience");
      this.audience = audience;
      return this;
    }

    /** Where the keys are, instead of the issuer's metadata's {@code jwks_uri}. */
    public Builder jwksUri(URI jwksUri) {
      Http.absolute(jwksUri.toString(), "jwksUri");
      this.jwksUri = jwksUri;
      return this;
    }

    /**
     * The JWS algorithms accepted ({@code "RS256"}, {@code "ES256"}...), instead of {@link
     * #DEFAULT_ALGORITHMS} (plus HS256/384/512 with an {@linkplain #hmacSecret HMAC secret}).
     *
     * @throws IllegalArgumentException for {@code none}, an unknown algorithm, or none at all
     */
    public Builder algorithms(String... algorithms) {
      if (algorithms.length == 0) {
        throw new IllegalArgumentException("algorithms must name at least one algorithm");
      }
      Set<String> names = new LinkedHashSet<>();
      for (String name : algorithms) {
        JWSAlgorithm alg = JWSAlgorithm.parse(name);
        if (!SUPPORTED.contains(alg)) {
          throw new IllegalArgumentException(
              "algorithm " + name + " is not supported; supported: " + SUPPORTED);
        }
        names.add(alg.getName());
      }
      this.algorithms = Set.copyOf(names);
      return this;
    }

    /**
     * A secret shared with the authorization server, for HMAC-signed tokens (HS256...). Without
     * one, HMAC algorithms are refused: a public key is never used as an HMAC secret.
     *
     * @throws IllegalArgumentException if shorter than 32 bytes (RFC 7518 section 3.2)
     */
    public Builder hmacSecret(byte[] secret) {
      if (secret.length < 32) {
        throw new IllegalArgumentException(
            "an HMAC secret must be at least 32 bytes, was " + secret.length);
      }
      this.hmacSecret = secret.clone();
      return this;
    }

    /** How far clocks may disagree when checking {@code exp} and {@code nbf}; 60 s by default. */
    public Builder clockSkew(Duration clockSkew) {
      this.clockSkew = Http.notNegative(clockSkew, "clockSkew");
      return this;
    }

    /**
     * The longest one verification waits for the authorization server (metadata and keys,
     * together); 5 s by default.
     */
    public Builder timeout(Duration timeout) {
      this.timeout = Http.positive(timeout, "timeout");
      return this;
    }

    /**
     * The longest a connection to the authorization server may take to open; 2 s by default.
     * Ignored with an {@linkplain #httpClient HTTP client of your own}.
     */
    public Builder connectTimeout(Duration connectTimeout) {
      this.connectTimeout = Http.positive(connectTimeout, "connectTimeout");
      return this;
    }

    /** The least time between two fetches of the keys; 30 s by default. */
    public Builder keyRefetchInterval(Duration interval) {
      this.keyRefetchInterval = Http.notNegative(interval, "keyRefetchInterval");
      return this;
    }

    /** How long fetched keys are used before they are fetched again; 10 minutes by default. */
    public Builder keysMaxAge(Duration maxAge) {
      this.keysMaxAge = Http.positive(maxAge, "keysMaxAge");
      return this;
    }

    /** The longest token accepted, in characters; 16384 by default. */
    public Builder maxTokenLength(int maxTokenLength) {
      if (maxTokenLength < 64) {
        throw new IllegalArgumentException(
            "maxTokenLength must be at least 64, was " + maxTokenLength);
      }
      this.maxTokenLength = maxTokenLength;
      return this;
    }

    /** The clock for {@code exp}, {@code nbf} and the key cache; the system clock by default. */
    public Builder clock(InstantSource clock) {
      this.clock = Objects.requireNonNull(clock, "clock");
      return this;
    }

    /**
     * The HTTP client that fetches metadata and keys, instead of one the verifier makes (and
     * closes). Its redirects and proxy are used as they are; the timeout still bounds each
     * verification.
     */
    public Builder httpClient(HttpClient httpClient) {
      this.httpClient = Objects.requireNonNull(httpClient, "httpClient");
      return this;
    }

    /**
     * Builds the verifier. It fetches nothing yet: the keys are fetched by the first
     * verification.
     *
     * @throws IllegalStateException if the issuer or audience is missing, or HMAC algorithms are
     *     allowed without a secret
     */
    public JwtTokenVerifier build() {
      if (issuer == null) {
        throw new IllegalStateException("issuer is required");
      }
      if (audience == null) {
        throw new IllegalStateException("audience (this server's canonical URI) is required");
      }
      if (algorithms != null && hmacSecret == null) {
        for (String name : algorithms) {
          if (JWSAlgorithm.Family.HMAC_SHA.contains(JWSAlgorithm.parse(name))) {
            throw new IllegalStateException(
                "algorithm " + name + " needs an hmacSecret; none was set");
          }
        }
      }
      return new JwtTokenVerifier(this, issuer, audience);
    }

    @Override
    public String toString() {
      return "JwtTokenVerifier.Builder[issuer="
          + issuer
          + ", audience="
          + audience
          + ", algorithms="
          + (algorithms == null ? "default" : Arrays.toString(algorithms.toArray()))
          + "]";
    }
  }
}
