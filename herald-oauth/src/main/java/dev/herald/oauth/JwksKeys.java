package dev.herald.oauth;

import com.nimbusds.jose.JWSHeader;
import com.nimbusds.jose.jwk.JWK;
import com.nimbusds.jose.jwk.JWKMatcher;
import com.nimbusds.jose.jwk.JWKSelector;
import com.nimbusds.jose.jwk.JWKSet;
import dev.herald.auth.InvalidTokenException;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.text.ParseException;
import java.time.Duration;
import java.time.Instant;
import java.time.InstantSource;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.ReentrantLock;
import org.jspecify.annotations.Nullable;

/**
 * The authorization server's signing keys, fetched from its JWKS URI (given, or read from its
 * metadata) and cached.
 *
 * <p>Policy. Keys are fetched on first use and again when they are older than {@code maxAge}, so
 * a key the server withdrew stops verifying. A token whose key id is not in the set triggers one
 * refetch (the server rotated its keys), but fetches start at most once per {@code
 * refetchInterval}: a stream of tokens with made-up key ids costs the authorization server one
 * request per interval, not one per token. A failed fetch is never cached: while there are no
 * keys, the next verification tries again at once; while there are older keys, they stay in use
 * and the next fetch waits for the interval. Every wait (for the fetch lock, for the network) is
 * bounded by the caller's deadline, so a JWKS endpoint that hangs makes verifications fail after
 * the verifier's timeout, all of them, promptly.
 *
 * <p>Threading: verifications read {@link #snapshot} without locking; fetches are serialised by
 * {@link #fetchLock}, which also guards {@link #lastFetch} and {@link #jwksUri}.
 */
final class JwksKeys {
  private record Snapshot(JWKSet keys, Instant fetchedAt) {}

  private final HttpFetch http;
  private final String issuer;
  private final InstantSource clock;
  private final Duration refetchInterval;
  private final Duration maxAge;
  private final ReentrantLock fetchLock = new ReentrantLock();
  private volatile @Nullable Snapshot snapshot;
  private volatile @Nullable Instant lastFetch;
  private @Nullable URI jwksUri;

  JwksKeys(
      HttpFetch http,
      String issuer,
      @Nullable URI jwksUri,
      InstantSource clock,
      Duration refetchInterval,
      Duration maxAge) {
    this.http = http;
    this.issuer = issuer;
    this.jwksUri = jwksUri;
    this.clock = clock;
    this.refetchInterval = refetchInterval;
    this.maxAge = maxAge;
  }

  /**
   * The keys that may have signed a token with {@code header}: those of its key id (or all of
   * the algorithm's family when it names none) and usable for signatures. Empty when the set has
   * none, even after the one refetch allowed.
   *
   * @throws InvalidTokenException when there are no keys at all and they cannot be fetched by
   *     {@code deadline}
   */
  List<JWK> candidates(JWSHeader header, long deadline) throws InvalidTokenException {
    JWKMatcher matcher = JWKMatcher.forJWSHeader(header);
    if (matcher == null) {
      return List.of();
    }
    JWKSelector selector = new JWKSelector(matcher);
    Snapshot s = snapshot;
    Instant now = clock.instant();
    if (s == null || (now.isAfter(s.fetchedAt().plus(maxAge)) && mayFetch(now))) {
      s = refresh(s, deadline);
    }
    List<JWK> found = selector.select(s.keys());
    if (found.isEmpty() && mayFetch(now)) {
      found = selector.select(refresh(s, deadline).keys());
    }
    return found;
  }

  private boolean mayFetch(Instant now) {
    Instant last = lastFetch;
    return last == null || !now.isBefore(last.plus(refetchInterval));
  }

  /**
   * Fetches the keys unless another thread did while this one waited; returns {@code observed}
   * when a fetch fails and there were keys before.
   */
  private Snapshot refresh(@Nullable Snapshot observed, long deadline)
      throws InvalidTokenException {
    try {
      if (!fetchLock.tryLock(Math.max(0, deadline - System.nanoTime()), TimeUnit.NANOSECONDS)) {
        throw JwtTokenVerifier.notInTime("the authorization server's keys did not arrive");
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new InvalidTokenException("the token could not be verified: interrupted", e);
    }
    try {
      Snapshot current = snapshot;
      if (current != null && !current.equals(observed)) {
        return current; // fetched by another verification while this one waited
      }
      Instant now = clock.instant();
      if (observed != null && !mayFetch(now)) {
        return observed;
      }
      lastFetch = now;
      try {
        Snapshot fetched = new Snapshot(fetch(deadline), now);
        snapshot = fetched;
        return fetched;
      } catch (HttpFetch.FetchException e) {
        if (observed != null) {
          return observed;
        }
        if (e.timedOut()) {
          throw JwtTokenVerifier.notInTime("the authorization server's keys did not arrive");
        }
        throw new InvalidTokenException(
            "the token could not be verified: the authorization server's keys are unavailable ("
                + e.getMessage()
                + ")");
      }
    } finally {
      fetchLock.unlock();
    }
  }

  /** Called with {@link #fetchLock} held. */
  private JWKSet fetch(long deadline) throws HttpFetch.FetchException {
    URI uri = jwksUri;
    if (uri == null) {
      uri = Discovery.uri(Discovery.metadata(http, issuer, deadline), "jwks_uri");
      jwksUri = uri;
    }
    String body = new String(http.get(uri, deadline), StandardCharsets.UTF_8);
    try {
      return JWKSet.parse(body).toPublicJWKSet();
    } catch (ParseException e) {
      throw new HttpFetch.FetchException(uri + " is not a JWK set", false, e);
    }
  }
}
