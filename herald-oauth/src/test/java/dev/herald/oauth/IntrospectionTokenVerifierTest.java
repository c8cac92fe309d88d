package dev.herald.oauth;

import static org.assertj.core.api.Assertions.assertThat;

import dev.herald.auth.InvalidTokenException;
import dev.herald.auth.Principal;
import java.time.Duration;
import java.time.Instant;
import java.util.Base64;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

class IntrospectionTokenVerifierTest {
  private final LocalAuthorizationServer as = new LocalAuthorizationServer();

  @AfterEach
  void stop() {
    as.close();
  }

  private IntrospectionTokenVerifier.Builder verifier() {
    return IntrospectionTokenVerifier.builder()
        .introspectionEndpoint(as.introspectionUri())
        .clientCredentials("mcp server", "s3cret:x")
        .issuer(as.issuer())
        .audience(LocalAuthorizationServer.AUDIENCE);
  }

  private String active(long exp, String aud) {
    return "{\"active\":true,\"sub\":\"alice\",\"client_id\":\"cli\",\"scope\":\"a b\",\"iss\":\""
        + as.issuer()
        + "\",\"aud\":[\""
        + aud
        + "\"],\"exp\":"
        + exp
        + ",\"token_type\":\"Bearer\"}";
  }

  private static String refusal(IntrospectionTokenVerifier v, String token) {
    try {
      v.verify(token);
    } catch (InvalidTokenException e) {
      assertThat(e.getMessage()).doesNotContain(token);
      return e.getMessage();
    }
    throw new AssertionError("the token was accepted");
  }

  @Test
  void anActiveTokenVerifiesToThePrincipalTheAnswerDescribes() throws Exception {
    long exp = Instant.now().plusSeconds(600).getEpochSecond();
    as.introspectionAnswer = active(exp, LocalAuthorizationServer.AUDIENCE);
    try (IntrospectionTokenVerifier v = verifier().build()) {
      Principal p = v.verify("opaque-token");
      assertThat(p.subject()).isEqualTo("alice");
      assertThat(p.clientId()).isEqualTo("cli");
      assertThat(p.issuer()).isEqualTo(as.issuer());
      assertThat(p.scopes()).containsExactlyInAnyOrder("a", "b");
      assertThat(p.expiresAt()).isEqualTo(Instant.ofEpochSecond(exp));
    }
    // RFC 6749 section 2.3.1: form-encoded id and secret, then Basic.
    assertThat(as.introspectionAuthorization)
        .isEqualTo(
            "Basic " + Base64.getEncoder().encodeToString("mcp+server:s3cret%3Ax".getBytes()));
  }

  @Test
  void anInactiveTokenIsRefused() {
    as.introspectionAnswer = "{\"active\":false}";
    try (IntrospectionTokenVerifier v = verifier().build()) {
      assertThat(refusal(v, "opaque-Rv0k3d"))
          .isEqualTo("the token is not active (expired, revoked or unknown)");
    }
  }

  @Test
  void anAnswerForAnotherAudienceOrIssuerIsRefused() {
    long exp = Instant.now().plusSeconds(600).getEpochSecond();
    try (IntrospectionTokenVerifier v = verifier().build()) {
      as.introspectionAnswer = active(exp, "https://other.example.com");
      assertThat(refusal(v, "t1"))
          .isEqualTo("the token was not issued for " + LocalAuthorizationServer.AUDIENCE);
      as.introspectionAnswer =
          active(exp, LocalAuthorizationServer.AUDIENCE)
              .replace(as.issuer(), "https://evil.example.com");
      assertThat(refusal(v, "t2")).isEqualTo("the token was not issued by " + as.issuer());
    }
  }

  @Test
  void anIntrospectionEndpointThatHangsIsARefusalAfterTheTimeout() throws Exception {
    try (HangingServer hung = new HangingServer();
        IntrospectionTokenVerifier v =
            IntrospectionTokenVerifier.builder()
                .introspectionEndpoint(hung.uri("/introspect"))
                .clientCredentials("rs", "secret")
                .timeout(Duration.ofMillis(300))
                .build()) {
      assertThat(refusal(v, "some-token"))
          .isEqualTo(
              "the token could not be verified in time: the introspection endpoint did not answer");
    }
  }

  @Test
  void theCacheAnswersARepeatedTokenUntilItsTimeToLiveOrExpiryPasses() throws Exception {
    AtomicReference<Instant> now = new AtomicReference<>(Instant.now());
    long exp = now.get().plusSeconds(20).getEpochSecond();
    as.introspectionAnswer = active(exp, LocalAuthorizationServer.AUDIENCE);
    try (IntrospectionTokenVerifier v =
        verifier()
            .clock(now::get)
            .clockSkew(Duration.ZERO)
            .cache(2, Duration.ofSeconds(60))
            .build()) {
      v.verify("opaque-Zq81");
      v.verify("opaque-Zq81");
      assertThat(as.introspections.get()).isEqualTo(1);
      // The token's exp (20 s) comes before the cache's time to live (60 s).
      now.set(Instant.ofEpochSecond(exp));
      as.introspectionAnswer = "{\"active\":false}";
      assertThat(refusal(v, "opaque-Zq81"))
          .isEqualTo("the token is not active (expired, revoked or unknown)");
      assertThat(as.introspections.get()).isEqualTo(2);
    }
  }

  @Test
  void theCacheHoldsNoMoreThanItsBound() throws Exception {
    as.introspectionAnswer =
        active(Instant.now().plusSeconds(600).getEpochSecond(), LocalAuthorizationServer.AUDIENCE);
    try (IntrospectionTokenVerifier v = verifier().cache(2, Duration.ofSeconds(60)).build()) {
      v.verify("t1");
      v.verify("t2");
      v.verify("t3");
      v.verify("t1"); // evicted by t3: asked again
      assertThat(as.introspections.get()).isEqualTo(4);
      v.verify("t3");
      assertThat(as.introspections.get()).isEqualTo(4);
    }
  }
}
