package dev.herald.oauth;

import static dev.herald.testing.Eventually.eventually;
import static org.assertj.core.api.Assertions.assertThat;

import com.nimbusds.jose.JWSAlgorithm;
import com.nimbusds.jose.JWSHeader;
import com.nimbusds.jose.crypto.RSASSASigner;
import com.nimbusds.jose.jwk.RSAKey;
import com.nimbusds.jose.util.Base64URL;
import com.nimbusds.jose.util.JSONObjectUtils;
import com.nimbusds.jwt.PlainJWT;
import com.nimbusds.jwt.SignedJWT;
import dev.herald.auth.InvalidTokenException;
import dev.herald.auth.Principal;
import dev.herald.testing.oauth.AuthorizationServerProcess;
import java.net.URI;
import java.net.URLDecoder;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.time.Instant;
import java.util.Map;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The verifiers against a real authorization server: Spring Authorization Server in a child JVM
 * (herald-testing-oauth), its tokens minted by the {@code client_credentials} grant with the RFC
 * 8707 {@code resource} parameter.
 */
class SpringAuthorizationServerTest {
  private static final String RESOURCE = "http://127.0.0.1:9/mcp";
  private static AuthorizationServerProcess as;

  @BeforeAll
  static void startAuthorizationServer() {
    as = AuthorizationServerProcess.builder().autoLogin(true).start();
  }

  @AfterAll
  static void stopAuthorizationServer() {
    if (as != null) {
      as.close();
    }
  }

  private static String machineToken(String resource, String... scopes) {
    return as.clientCredentialsToken(
        AuthorizationServerProcess.MACHINE_CLIENT_ID,
        AuthorizationServerProcess.MACHINE_CLIENT_SECRET,
        resource,
        scopes);
  }

  private static JwtTokenVerifier.Builder verifier() {
    return JwtTokenVerifier.builder().issuer(as.issuer()).audience(RESOURCE);
  }

  private static String refusal(TokenVerifierCall v, String token) {
    try {
      v.verify(token);
    } catch (InvalidTokenException e) {
      assertThat(e.getMessage()).doesNotContain(token);
      return e.getMessage();
    }
    throw new AssertionError("the token was accepted");
  }

  private interface TokenVerifierCall {
    Principal verify(String token) throws InvalidTokenException;
  }

  @Test
  void aClientCredentialsTokenVerifiesToTheMachineClientsPrincipal() throws Exception {
    String token = machineToken(RESOURCE, "tools:read", "tools:call");
    try (JwtTokenVerifier v = verifier().build()) { // keys found through the issuer's metadata
      Principal p = v.verify(token);
      assertThat(p.issuer()).isEqualTo(as.issuer());
      assertThat(p.subject()).isEqualTo(AuthorizationServerProcess.MACHINE_CLIENT_ID);
      assertThat(p.clientId()).isEqualTo(AuthorizationServerProcess.MACHINE_CLIENT_ID);
      assertThat(p.scopes()).containsExactlyInAnyOrder("tools:read", "tools:call");
      assertThat(p.expiresAt())
          .isAfter(Instant.now())
          .isBefore(Instant.now().plus(Duration.ofMinutes(6)));
    }
  }

  @Test
  void anExpiredTokenIsRefused() throws Exception {
    String token =
        as.clientCredentialsToken(
            AuthorizationServerProcess.SHORT_LIVED_CLIENT_ID,
            AuthorizationServerProcess.SHORT_LIVED_CLIENT_SECRET,
            RESOURCE,
            "tools:call");
    try (JwtTokenVerifier v = verifier().clockSkew(Duration.ZERO).build()) {
      eventually(
          () -> {
            try {
              v.verify(token);
              return false;
            } catch (InvalidTokenException e) {
              assertThat(e.getMessage()).isEqualTo("the token has expired");
              return true;
            }
          },
          "the one-second token has expired");
    }
  }

  @Test
  void aTokenMintedForAnotherResourceIsRefused() {
    String token = machineToken("http://127.0.0.1:9/other", "tools:call");
    try (JwtTokenVerifier v = verifier().build()) {
      assertThat(refusal(v::verify, token)).isEqualTo("the token was not issued for " + RESOURCE);
    }
    String noResource = machineToken(null, "tools:call"); // aud is then the client id
    try (JwtTokenVerifier v = verifier().build()) {
      assertThat(refusal(v::verify, noResource))
          .isEqualTo("the token was not issued for " + RESOURCE);
    }
  }

  @Test
  void aVerifierExpectingAnotherIssuerRefusesTheToken() {
    String token = machineToken(RESOURCE, "tools:call");
    try (JwtTokenVerifier v =
        JwtTokenVerifier.builder()
            .issuer("http://127.0.0.1:1/other-issuer")
            .audience(RESOURCE)
            .jwksUri(as.jwksUri())
            .build()) {
      assertThat(refusal(v::verify, token))
          .isEqualTo("the token was not issued by http://127.0.0.1:1/other-issuer");
    }
  }

  @Test
  void badlySignedTokensAreRefused() throws Exception {
    String token = machineToken(RESOURCE, "tools:call");
    String[] parts = token.split("\\.", -1);
    byte[] sig = new Base64URL(parts[2]).decode();
    sig[sig.length / 2] ^= 0x40;
    String tampered = parts[0] + "." + parts[1] + "." + Base64URL.encode(sig);

    // A key of our own under the server's key id, signing the server's claims.
    SignedJWT original = SignedJWT.parse(token);
    RSAKey foreign =
        new com.nimbusds.jose.jwk.gen.RSAKeyGenerator(2048)
            .keyID(original.getHeader().getKeyID())
            .generate();
    SignedJWT forged =
        new SignedJWT(
            new JWSHeader.Builder(JWSAlgorithm.RS256).keyID(foreign.getKeyID()).build(),
            original.getJWTClaimsSet());
    forged.sign(new RSASSASigner(foreign));

    String unsigned = new PlainJWT(original.getJWTClaimsSet()).serialize();
    try (JwtTokenVerifier v = verifier().build()) {
      assertThat(v.verify(token).subject()).isEqualTo(AuthorizationServerProcess.MACHINE_CLIENT_ID);
      assertThat(refusal(v::verify, tampered)).isEqualTo("the token's signature is not valid");
      assertThat(refusal(v::verify, forged.serialize()))
          .isEqualTo("the token's signature is not valid");
      assertThat(refusal(v::verify, unsigned)).isEqualTo("the token is not signed (alg none)");
      assertThat(refusal(v::verify, parts[0] + "." + parts[1]))
          .isEqualTo("the token is not a well-formed JWT");
      assertThat(refusal(v::verify, token + "x".repeat(20_000)))
          .isEqualTo("the token is longer than the 16384 characters accepted");
    }
  }

  @Test
  void aRotatedKeyIsFetchedOnceForTheNewKeyIdAndNotAgainWithinTheInterval() throws Exception {
    AtomicReference<Instant> now = new AtomicReference<>(Instant.now());
    try (JwtTokenVerifier v = verifier().jwksUri(as.jwksUri()).clock(now::get).build()) {
      assertThat(v.verify(machineToken(RESOURCE, "tools:call")).scopes())
          .containsExactly("tools:call");

      now.set(now.get().plusSeconds(31));
      String newKid = as.rotateKeys();
      String rotated = machineToken(RESOURCE, "tools:call");
      assertThat(SignedJWT.parse(rotated).getHeader().getKeyID()).isEqualTo(newKid);
      assertThat(v.verify(rotated).subject())
          .isEqualTo(AuthorizationServerProcess.MACHINE_CLIENT_ID);

      // A second rotation within the refetch interval: the verifier does not fetch again yet.
      as.rotateKeys();
      String again = machineToken(RESOURCE, "tools:call");
      assertThat(refusal(v::verify, again))
          .isEqualTo("the token's key id is not one of the authorization server's keys");
      now.set(now.get().plusSeconds(31));
      assertThat(v.verify(again).subject()).isEqualTo(AuthorizationServerProcess.MACHINE_CLIENT_ID);
    }
  }

  private static IntrospectionTokenVerifier.Builder introspection() {
    return IntrospectionTokenVerifier.builder()
        .introspectionEndpoint(as.introspectionEndpoint())
        .clientCredentials(
            AuthorizationServerProcess.RESOURCE_CLIENT_ID,
            AuthorizationServerProcess.RESOURCE_CLIENT_SECRET)
        .issuer(as.issuer())
        .audience(RESOURCE);
  }

  @Test
  void anOpaqueTokenIsActiveUntilRevoked() throws Exception {
    String token =
        as.clientCredentialsToken(
            AuthorizationServerProcess.OPAQUE_CLIENT_ID,
            AuthorizationServerProcess.OPAQUE_CLIENT_SECRET,
            RESOURCE,
            "tools:read");
    assertThat(token).doesNotContain(".");
    try (IntrospectionTokenVerifier v = introspection().build()) {
      Principal p = v.verify(token);
      assertThat(p.subject()).isEqualTo(AuthorizationServerProcess.OPAQUE_CLIENT_ID);
      assertThat(p.clientId()).isEqualTo(AuthorizationServerProcess.OPAQUE_CLIENT_ID);
      assertThat(p.issuer()).isEqualTo(as.issuer());
      assertThat(p.scopes()).containsExactly("tools:read");
      assertThat(p.expiresAt()).isAfter(Instant.now());

      as.revoke(
          token,
          AuthorizationServerProcess.OPAQUE_CLIENT_ID,
          AuthorizationServerProcess.OPAQUE_CLIENT_SECRET);
      assertThat(refusal(v::verify, token))
          .isEqualTo("the token is not active (expired, revoked or unknown)");
      assertThat(refusal(v::verify, "no-such-token-" + token.length()))
          .isEqualTo("the token is not active (expired, revoked or unknown)");
    }
  }

  @Test
  void introspectionRefusesATokenForAnotherResource() {
    String token =
        as.clientCredentialsToken(
            AuthorizationServerProcess.OPAQUE_CLIENT_ID,
            AuthorizationServerProcess.OPAQUE_CLIENT_SECRET,
            "http://127.0.0.1:9/other",
            "tools:read");
    try (IntrospectionTokenVerifier v = introspection().build()) {
      assertThat(refusal(v::verify, token)).isEqualTo("the token was not issued for " + RESOURCE);
    }
  }

  @Test
  void aJwtAccessTokenIntrospectsToTheSamePrincipalItVerifiesTo() throws Exception {
    String token = machineToken(RESOURCE, "tools:call");
    try (IntrospectionTokenVerifier i = introspection().build();
        JwtTokenVerifier j = verifier().build()) {
      Principal viaIntrospection = i.verify(token);
      Principal viaJwks = j.verify(token);
      assertThat(viaIntrospection.sameParty(viaJwks)).isTrue();
      assertThat(viaIntrospection.scopes()).isEqualTo(viaJwks.scopes());
      assertThat(viaIntrospection.expiresAt()).isEqualTo(viaJwks.expiresAt());
    }
  }

  @Test
  void theAuthorizationCodeFlowWithPkceYieldsAUsersTokenForTheRequestedResource() throws Exception {
    String verifierString =
        Base64URL.encode(new java.security.SecureRandom().generateSeed(32)).toString();
    String challenge =
        Base64URL.encode(
                java.security.MessageDigest.getInstance("SHA-256")
                    .digest(verifierString.getBytes(java.nio.charset.StandardCharsets.US_ASCII)))
            .toString();
    String redirect = "http://127.0.0.1:4444/callback"; // a loopback redirect: any port
    URI authorize =
        URI.create(
            as.authorizationEndpoint()
                + "?response_type=code&client_id="
                + AuthorizationServerProcess.PUBLIC_CLIENT_ID
                + "&redirect_uri="
                + enc(redirect)
                + "&scope="
                + enc("tools:call")
                + "&state=st4te&code_challenge="
                + challenge
                + "&code_challenge_method=S256&resource="
                + enc(RESOURCE));
    try (HttpClient http = HttpClient.newHttpClient()) {
      HttpResponse<String> redirected =
          http.send(
              HttpRequest.newBuilder(authorize).build(), HttpResponse.BodyHandlers.ofString());
      assertThat(redirected.statusCode()).isEqualTo(302);
      URI location = URI.create(redirected.headers().firstValue("Location").orElseThrow());
      assertThat(location.toString()).startsWith(redirect + "?");
      Map<String, String> query = query(location.getRawQuery());
      assertThat(query).containsEntry("state", "st4te");

      HttpResponse<String> tokens =
          http.send(
              HttpRequest.newBuilder(as.tokenEndpoint())
                  .header("Content-Type", "application/x-www-form-urlencoded")
                  .POST(
                      HttpRequest.BodyPublishers.ofString(
                          "grant_type=authorization_code&code="
                              + enc(query.get("code"))
                              + "&redirect_uri="
                              + enc(redirect)
                              + "&client_id="
                              + AuthorizationServerProcess.PUBLIC_CLIENT_ID
                              + "&code_verifier="
                              + verifierString
                              + "&resource="
                              + enc(RESOURCE)))
                  .build(),
              HttpResponse.BodyHandlers.ofString());
      assertThat(tokens.statusCode()).as(tokens.body()).isEqualTo(200);
      Map<String, Object> json = JSONObjectUtils.parse(tokens.body());
      try (JwtTokenVerifier v = verifier().build()) {
        Principal p = v.verify((String) json.get("access_token"));
        assertThat(p.subject()).isEqualTo(AuthorizationServerProcess.USER);
        assertThat(p.clientId()).isEqualTo(AuthorizationServerProcess.PUBLIC_CLIENT_ID);
        assertThat(p.scopes()).containsExactly("tools:call");
      }
    }
  }

  @Test
  void aDynamicallyRegisteredClientIsAccepted() throws Exception {
    try (HttpClient http = HttpClient.newHttpClient()) {
      HttpResponse<String> registered =
          http.send(
              HttpRequest.newBuilder(as.registrationEndpoint())
                  .header("Content-Type", "application/json")
                  .POST(
                      HttpRequest.BodyPublishers.ofString(
                          "{\"client_name\":\"herald test\",\"redirect_uris\":[\"http://127.0.0.1:5555/cb\"],"
                              + "\"grant_types\":[\"authorization_code\"],\"response_types\":[\"code\"],"
                              + "\"token_endpoint_auth_method\":\"none\"}"))
                  .build(),
              HttpResponse.BodyHandlers.ofString());
      assertThat(registered.statusCode()).as(registered.body()).isEqualTo(201);
      assertThat(JSONObjectUtils.parse(registered.body()).get("client_id"))
          .isInstanceOf(String.class);
    }
  }

  private static String enc(String s) {
    return URLEncoder.encode(s, java.nio.charset.StandardCharsets.UTF_8);
  }

  private static Map<String, String> query(String raw) {
    Map<String, String> out = new java.util.HashMap<>();
    for (String pair : raw.split("&", -1)) {
      int eq = pair.indexOf('=');
      out.put(
          URLDecoder.decode(pair.substring(0, eq), java.nio.charset.StandardCharsets.UTF_8),
          URLDecoder.decode(pair.substring(eq + 1), java.nio.charset.StandardCharsets.UTF_8));
    }
    return out;
  }
}
