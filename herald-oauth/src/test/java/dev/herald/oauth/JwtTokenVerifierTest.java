package dev.herald.oauth;

import static dev.herald.testing.Eventually.eventually;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.nimbusds.jose.JWSAlgorithm;
import com.nimbusds.jose.JWSHeader;
import com.nimbusds.jose.crypto.MACSigner;
import com.nimbusds.jose.jwk.ECKey;
import com.nimbusds.jose.jwk.RSAKey;
import com.nimbusds.jose.util.Base64URL;
import com.nimbusds.jwt.PlainJWT;
import com.nimbusds.jwt.SignedJWT;
import dev.herald.auth.InvalidTokenException;
import dev.herald.auth.Principal;
import dev.herald.testing.Background;
import java.time.Duration;
import java.time.Instant;
import java.time.InstantSource;
import java.util.ArrayList;
import java.util.Date;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ForkJoinPool;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

class JwtTokenVerifierTest {
  private final LocalAuthorizationServer as = new LocalAuthorizationServer();
  private static final RSAKey key = LocalAuthorizationServer.rsaKey("k1");

  @AfterEach
  void stop() {
    as.close();
  }

  private JwtTokenVerifier.Builder verifier() {
    return JwtTokenVerifier.builder()
        .issuer(as.issuer())
        .audience(LocalAuthorizationServer.AUDIENCE)
        .jwksUri(as.jwksUri());
  }

  private static String refusal(JwtTokenVerifier v, String token) {
    try {
      v.verify(token);
    } catch (InvalidTokenException e) {
      assertThat(e.getMessage()).doesNotContain(token);
      return e.getMessage();
    }
    throw new AssertionError("the token was accepted");
  }

  @Test
  void aTokenSignedByThePublishedKeyVerifiesToItsPrincipal() throws Exception {
    as.publish(key);
    String token = as.sign(key);
    try (JwtTokenVerifier v = verifier().build()) {
      Principal p = v.verify(token);
      assertThat(p.issuer()).isEqualTo(as.issuer());
      assertThat(p.subject()).isEqualTo("alice");
      assertThat(p.clientId()).isEqualTo("cli");
      assertThat(p.scopes()).containsExactlyInAnyOrder("tools:read", "tools:call");
      assertThat(p.expiresAt()).isAfter(Instant.now());
      assertThat(p.claims()).containsEntry("sub", "alice");
    }
  }

  /**
   * Regression: the keys were fetched with {@code HttpClient.sendAsync}, whose future the JDK
   * completes through the common fork-join pool; a task of the application blocked there (its only
   * worker on a two-core machine) held every verification until its deadline.
   */
  @Test
  void theKeysArriveWhileTheCommonPoolIsBlocked() throws Exception {
    as.publish(key);
    String token = as.sign(key);
    int workers = ForkJoinPool.getCommonPoolParallelism();
    CountDownLatch started = new CountDownLatch(workers);
    CountDownLatch release = new CountDownLatch(1);
    List<CompletableFuture<Void>> blockers = new ArrayList<>();
    for (int i = 0; i < workers; i++) {
      blockers.add(
          Background.run(() -> {
            started.countDown();
            try {
              release.await(); // not a managed blocker: the pool adds no worker for it
            } catch (InterruptedException e) {
              Thread.currentThread().interrupt();
            }
          }));
    }
    try (JwtTokenVerifier v = verifier().timeout(Duration.ofSeconds(60)).build()) {
      assertThat(started.await(60, TimeUnit.SECONDS)).as("the common pool is blocked").isTrue();
      assertThat(v.verify(token).subject()).isEqualTo("alice");
    } finally {
      release.countDown();
      CompletableFuture.allOf(blockers.toArray(CompletableFuture[]::new)).get(60, TimeUnit.SECONDS);
    }
  }

  @Test
  void scopesComeFromScpAndTheClientFromAzpWhenThoseAreWhatTheTokenHas() throws Exception {
    ECKey ec = LocalAuthorizationServer.ecKey("ec1");
    as.publish(ec);
    String token =
        as.sign(
            ec,
            c ->
                c.claim("scope", null)
                    .claim("client_id", null)
                    .claim("scp", List.of("a", "b"))
                    .claim("azp", "app")
                    .audience(
                        List.of("https://other.example.com", LocalAuthorizationServer.AUDIENCE)));
    try (JwtTokenVerifier v = verifier().build()) {
      Principal p = v.verify(token);
      assertThat(p.scopes()).containsExactlyInAnyOrder("a", "b");
      assertThat(p.clientId()).isEqualTo("app");
    }
  }

  @Test
  void theKeysAreFoundThroughTheIssuersMetadataWhenNoJwksUriIsGiven() throws Exception {
    as.publish(key);
    try (JwtTokenVerifier v =
        JwtTokenVerifier.builder()
            .issuer(as.issuer())
            .audience(LocalAuthorizationServer.AUDIENCE)
            .build()) {
      assertThat(v.verify(as.sign(key)).subject()).isEqualTo("alice");
      assertThat(v.verify(as.sign(key)).subject()).isEqualTo("alice");
    }
    assertThat(as.metadataFetches.get()).isEqualTo(1);
    assertThat(as.jwksFetches.get()).isEqualTo(1);
  }

  @Test
  void anExpiredTokenIsRefusedOnceTheClockSkewHasPassed() throws Exception {
    as.publish(key);
    Instant exp = Instant.now().plusSeconds(600);
    String token = as.sign(key, c -> c.expirationTime(Date.from(exp)));
    AtomicReference<Instant> now = new AtomicReference<>(exp.plusSeconds(30));
    InstantSource clock = now::get;
    try (JwtTokenVerifier v = verifier().clock(clock).build()) {
      assertThat(v.verify(token).subject()).isEqualTo("alice"); // within the 60 s skew
      now.set(exp.plusSeconds(61));
      assertThat(refusal(v, token)).isEqualTo("the token has expired");
    }
  }

  @Test
  void aTokenWithoutExpiryIsRefused() {
    as.publish(key);
    try (JwtTokenVerifier v = verifier().build()) {
      assertThat(refusal(v, as.sign(key, c -> c.expirationTime(null))))
          .isEqualTo("the token has no expiry (exp)");
    }
  }

  @Test
  void aTokenNotValidYetIsRefused() {
    as.publish(key);
    try (JwtTokenVerifier v = verifier().build()) {
      String token = as.sign(key, c -> c.notBeforeTime(Date.from(Instant.now().plusSeconds(600))));
      assertThat(refusal(v, token)).isEqualTo("the token is not valid yet (nbf)");
    }
  }

  @Test
  void aTokenFromAnotherIssuerIsRefused() {
    as.publish(key);
    try (JwtTokenVerifier v = verifier().build()) {
      assertThat(refusal(v, as.sign(key, c -> c.issuer("https://evil.example.com"))))
          .isEqualTo("the token was not issued by " + as.issuer());
    }
  }

  @Test
  void aTokenForAnotherResourceIsRefused() {
    as.publish(key);
    try (JwtTokenVerifier v = verifier().build()) {
      assertThat(refusal(v, as.sign(key, c -> c.audience("https://other.example.com/mcp"))))
          .isEqualTo("the token was not issued for " + LocalAuthorizationServer.AUDIENCE);
      assertThat(refusal(v, as.sign(key, c -> c.audience((String) null))))
          .isEqualTo("the token was not issued for " + LocalAuthorizationServer.AUDIENCE);
    }
  }

  @Test
  void aTamperedTokenIsRefused() throws Exception {
    as.publish(key);
    String token = as.sign(key);
    String[] parts = token.split("\\.");
    // Another payload under the original signature.
    String forged =
        parts[0]
            + "."
            + Base64URL.encode(
                as.claims()
                    .subject("mallory")
                    .build()
                    .toString()
                    .getBytes(java.nio.charset.StandardCharsets.UTF_8))
            + "."
            + parts[2];
    // The original payload with a flipped signature byte.
    byte[] sig = new Base64URL(parts[2]).decode();
    sig[10] ^= 1;
    String flipped = parts[0] + "." + parts[1] + "." + Base64URL.encode(sig);
    try (JwtTokenVerifier v = verifier().build()) {
      assertThat(refusal(v, forged)).isEqualTo("the token's signature is not valid");
      assertThat(refusal(v, flipped)).isEqualTo("the token's signature is not valid");
    }
  }

  @Test
  void aTokenSignedByAForeignKeyWithAKnownKeyIdIsRefused() {
    as.publish(key);
    RSAKey foreign = LocalAuthorizationServer.rsaKey("k1");
    try (JwtTokenVerifier v = verifier().build()) {
      assertThat(refusal(v, as.sign(foreign))).isEqualTo("the token's signature is not valid");
    }
  }

  @Test
  void anUnsignedTokenIsRefused() {
    as.publish(key);
    String none = new PlainJWT(as.claims().build()).serialize();
    try (JwtTokenVerifier v = verifier().build()) {
      assertThat(refusal(v, none)).isEqualTo("the token is not signed (alg none)");
    }
    assertThat(as.jwksFetches.get()).isZero();
  }

  @Test
  void anHmacTokenKeyedWithThePublicKeyIsRefusedWithoutASecret() throws Exception {
    as.publish(key);
    // The algorithm confusion attack: HS256 with the RSA public key as the shared secret.
    SignedJWT hs =
        new SignedJWT(
            new JWSHeader.Builder(JWSAlgorithm.HS256).keyID("k1").build(), as.claims().build());
    hs.sign(
        new MACSigner(
            key.toPublicJWK()
                .toJSONString()
                .repeat(2)
                .getBytes(java.nio.charset.StandardCharsets.UTF_8)));
    try (JwtTokenVerifier v = verifier().build()) {
      assertThat(refusal(v, hs.serialize()))
          .isEqualTo("the token's algorithm HS256 is not accepted");
    }
  }

  @Test
  void anHmacTokenVerifiesWithTheConfiguredSecret() throws Exception {
    byte[] secret =
        "0123456789abcdef0123456789abcdef".getBytes(java.nio.charset.StandardCharsets.US_ASCII);
    SignedJWT hs = new SignedJWT(new JWSHeader(JWSAlgorithm.HS256), as.claims().build());
    hs.sign(new MACSigner(secret));
    try (JwtTokenVerifier v = verifier().hmacSecret(secret).build()) {
      assertThat(v.verify(hs.serialize()).subject()).isEqualTo("alice");
    }
    assertThat(as.jwksFetches.get()).isZero();
  }

  @Test
  void anAlgorithmNotAllowedIsRefused() {
    ECKey ec = LocalAuthorizationServer.ecKey("ec1");
    as.publish(ec);
    try (JwtTokenVerifier v = verifier().algorithms("RS256").build()) {
      assertThat(refusal(v, as.sign(ec))).isEqualTo("the token's algorithm ES256 is not accepted");
    }
  }

  @Test
  void malformedTokensAreRefused() {
    as.publish(key);
    try (JwtTokenVerifier v = verifier().build()) {
      for (String bad :
          List.of(
              "xyzzy-token",
              "abc.def.ghi",
              "abc.def",
              "....",
              "{\"alg\":\"RS256\"}",
              "not-a-jwt-at-all",
              "eyJhbGciOiJSUzI1NiJ9.e30")) {
        assertThat(refusal(v, bad)).isEqualTo("the token is not a well-formed JWT");
      }
      String noSub = as.sign(key, c -> c.subject(null));
      assertThat(refusal(v, noSub)).isEqualTo("the token names no subject (sub)");
    }
  }

  @Test
  void aHugeTokenIsRefusedBeforeItIsParsed() {
    as.publish(key);
    String huge = as.sign(key, c -> c.claim("pad", "x".repeat(20_000)));
    try (JwtTokenVerifier v = verifier().build()) {
      assertThat(refusal(v, huge))
          .isEqualTo("the token is longer than the 16384 characters accepted");
    }
    assertThat(as.jwksFetches.get()).isZero();
  }

  @Test
  void anUnknownKeyIdRefetchesTheKeysOnceAndThenWaitsForTheInterval() throws Exception {
    as.publish(key);
    AtomicReference<Instant> now = new AtomicReference<>(Instant.now());
    try (JwtTokenVerifier v = verifier().clock(now::get).build()) {
      assertThat(v.verify(as.sign(key)).subject()).isEqualTo("alice");
      assertThat(as.jwksFetches.get()).isEqualTo(1);

      now.set(now.get().plusSeconds(31));
      RSAKey rotated = LocalAuthorizationServer.rsaKey("k2");
      as.publish(rotated);
      assertThat(v.verify(as.sign(rotated)).subject()).isEqualTo("alice");
      assertThat(as.jwksFetches.get()).isEqualTo(2);

      // Made-up key ids within the interval fetch nothing more.
      for (int i = 0; i < 5; i++) {
        assertThat(refusal(v, as.sign(LocalAuthorizationServer.rsaKey("nope" + i))))
            .isEqualTo("the token's key id is not one of the authorization server's keys");
      }
      assertThat(as.jwksFetches.get()).isEqualTo(2);
      assertThat(v.verify(as.sign(key)).subject()).isEqualTo("alice");
    }
  }

  @Test
  void keysOlderThanTheirMaximumAgeAreFetchedAgainSoAWithdrawnKeyStopsVerifying() throws Exception {
    as.publish(key);
    AtomicReference<Instant> now = new AtomicReference<>(Instant.now());
    try (JwtTokenVerifier v =
        verifier().clock(now::get).keysMaxAge(Duration.ofMinutes(5)).build()) {
      String token = as.sign(key, c -> c.expirationTime(Date.from(now.get().plusSeconds(3600))));
      assertThat(v.verify(token).subject()).isEqualTo("alice");
      as.unpublishAll();
      as.publish(LocalAuthorizationServer.rsaKey("k2"));
      now.set(now.get().plusSeconds(301));
      assertThat(refusal(v, token))
          .isEqualTo("the token's key id is not one of the authorization server's keys");
      assertThat(as.jwksFetches.get()).isEqualTo(2);
    }
  }

  @Test
  void aFailedKeyFetchIsNotRemembered() throws Exception {
    as.publish(key);
    as.jwksStatus = 500;
    try (JwtTokenVerifier v = verifier().build()) {
      assertThat(refusal(v, as.sign(key)))
          .startsWith(
              "the token could not be verified: the authorization server's keys are unavailable")
          .contains("HTTP 500");
      as.jwksStatus = 200;
      assertThat(v.verify(as.sign(key)).subject()).isEqualTo("alice");
    }
  }

  @Test
  void aJwksEndpointThatHangsIsARefusalAfterTheTimeout() throws Exception {
    try (HangingServer hung = new HangingServer();
        JwtTokenVerifier v =
            JwtTokenVerifier.builder()
                .issuer(as.issuer())
                .audience(LocalAuthorizationServer.AUDIENCE)
                .jwksUri(hung.uri("/jwks"))
                // long enough to connect on a busy machine: the hang must be the server's
                .timeout(Duration.ofSeconds(1))
                .build()) {
      String token = as.sign(key);
      assertThat(refusal(v, token))
          .isEqualTo(
              "the token could not be verified in time: the authorization server's keys did not arrive");
      // the server's accept is recorded on a thread of its own, maybe after the refusal
      eventually(() -> hung.accepted() == 1, "the verifier connected to the hanging endpoint");
      // Not remembered either: the next token tries again, and is refused in time again.
      assertThat(refusal(v, token)).startsWith("the token could not be verified in time");
      eventually(() -> hung.accepted() >= 2, "the second token tried the endpoint again");
    }
  }

  @Test
  void theBuilderRefusesIncompleteOrUnsafeConfigurations() {
    assertThatThrownBy(
            () -> JwtTokenVerifier.builder().audience(LocalAuthorizationServer.AUDIENCE).build())
        .isInstanceOf(IllegalStateException.class)
        .hasMessage("issuer is required");
    assertThatThrownBy(() -> JwtTokenVerifier.builder().issuer(as.issuer()).build())
        .isInstanceOf(IllegalStateException.class)
        .hasMessageContaining("audience");
    assertThatThrownBy(() -> JwtTokenVerifier.builder().algorithms("none"))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("not supported");
    assertThatThrownBy(() ->
            JwtTokenVerifier.builder()
                .issuer(as.issuer())
                .audience(LocalAuthorizationServer.AUDIENCE)
                .algorithms("HS256")
                .build())
        .isInstanceOf(IllegalStateException.class)
        .hasMessage("algorithm HS256 needs an hmacSecret; none was set");
    assertThatThrownBy(() -> JwtTokenVerifier.builder().hmacSecret(new byte[8]))
        .isInstanceOf(IllegalArgumentException.class);
    assertThatThrownBy(() -> JwtTokenVerifier.builder().issuer("not a uri"))
        .isInstanceOf(IllegalArgumentException.class);
  }

  @Test
  void concurrentVerificationsAgainstAHungJwksEndpointAreAllRefusedInTime() throws Exception {
    try (HangingServer hung = new HangingServer();
        JwtTokenVerifier v =
            JwtTokenVerifier.builder()
                .issuer(as.issuer())
                .audience(LocalAuthorizationServer.AUDIENCE)
                .jwksUri(hung.uri("/jwks"))
                .timeout(Duration.ofMillis(500))
                .build()) {
      String token = as.sign(key);
      List<java.util.concurrent.Future<String>> results = new java.util.ArrayList<>();
      try (var pool = java.util.concurrent.Executors.newVirtualThreadPerTaskExecutor()) {
        for (int i = 0; i < 8; i++) {
          results.add(pool.submit(() -> refusal(v, token)));
        }
      }
      for (var r : results) {
        assertThat(r.get()).startsWith("the token could not be verified in time");
      }
    }
  }

  @Test
  void aKeyRefetchThatHangsHoldsUpOnlyTheTokenThatNeedsIt() throws Exception {
    as.publish(key);
    try (JwtTokenVerifier v =
        verifier().keyRefetchInterval(Duration.ZERO).timeout(Duration.ofSeconds(30)).build()) {
      String known = as.sign(key);
      assertThat(v.verify(known).subject()).isEqualTo("alice");
      java.util.concurrent.CountDownLatch hold = new java.util.concurrent.CountDownLatch(1);
      as.jwksHold = hold;
      AtomicReference<String> unknownOutcome = new AtomicReference<>();
      Thread unknown =
          Thread.ofVirtual()
              .start(() ->
                  unknownOutcome.set(refusal(v, as.sign(LocalAuthorizationServer.rsaKey("k9")))));
      dev.herald.testing.Eventually.eventually(
          () -> as.jwksFetches.get() == 2, "the unknown key id's refetch reaches the endpoint");
      // The refetch hangs; a token whose key is cached verifies without waiting for it.
      assertThat(v.verify(known).subject()).isEqualTo("alice");
      assertThat(unknown.isAlive()).isTrue();
      hold.countDown();
      unknown.join();
      assertThat(unknownOutcome.get())
          .isEqualTo("the token's key id is not one of the authorization server's keys");
    } finally {
      as.jwksHold = null;
    }
  }

  @Test
  void aJwksAnswerThatIsNotAKeySetIsARefusalNamingIt() throws Exception {
    try (JwtTokenVerifier v =
        verifier()
            .jwksUri(java.net.URI.create(as.issuer() + "/.well-known/oauth-authorization-server"))
            .build()) {
      assertThat(refusal(v, as.sign(key)))
          .startsWith(
              "the token could not be verified: the authorization server's keys are unavailable")
          .contains("is not a JWK set");
    }
  }
}
