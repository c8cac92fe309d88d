package dev.herald.client.auth;

import dev.herald.wire.McpJson;
import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.security.PrivateKey;
import java.security.SecureRandom;
import java.security.Signature;
import java.time.InstantSource;
import java.util.Base64;
import java.util.Map;
import tools.jackson.databind.node.ObjectNode;

/**
 * {@code private_key_jwt} client authentication (RFC 7523 §2.2, OpenID Connect Core §9): a JWT
 * signed with the client's key whose {@code iss} and {@code sub} are the client id and whose
 * {@code aud} is the authorization server's issuer, living five minutes, with a random {@code
 * jti}. Signed with the JDK ({@code ES256/384/512} in the JOSE form R||S, {@code RS256/384/512}).
 */
final class ClientAssertion {
  static final String TYPE = "urn:ietf:params:oauth:client-assertion-type:jwt-bearer";

  private static final Map<String, String> ALGORITHMS =
      Map.of(
          "ES256", "SHA256withECDSAinP1363Format",
          "ES384", "SHA384withECDSAinP1363Format",
          "ES512", "SHA512withECDSAinP1363Format",
          "RS256", "SHA256withRSA",
          "RS384", "SHA384withRSA",
          "RS512", "SHA512withRSA");

  private final PrivateKey key;
  private final String alg;
  private final InstantSource clock;
  private final SecureRandom random = new SecureRandom();

  /**
   * @throws IllegalArgumentException for an algorithm other than ES256/384/512 or RS256/384/512,
   *     or a key that cannot sign with it
   */
  ClientAssertion(PrivateKey key, String alg, InstantSource clock) {
    if (!ALGORITHMS.containsKey(alg)) {
      throw new IllegalArgumentException(
          "unsupported client assertion algorithm " + alg + "; use one of " + ALGORITHMS.keySet());
    }
    this.key = key;
    this.alg = alg;
    this.clock = clock;
    sign("check", "check"); // fails now, not during a flow, when the key does not fit
  }

  /** A fresh assertion for {@code clientId} at the authorization server {@code issuer}. */
  String sign(String clientId, String issuer) {
    ObjectNode header = McpJson.object().put("alg", alg).put("typ", "JWT");
    long now = clock.instant().getEpochSecond();
    ObjectNode claims =
        McpJson.object()
            .put("iss", clientId)
            .put("sub", clientId)
            .put("aud", issuer)
            .put("iat", now)
            .put("exp", now + 300)
            .put("jti", Pkce.randomToken(random, 16));
    Base64.Encoder b64 = Base64.getUrlEncoder().withoutPadding();
    String input =
        b64.encodeToString(McpJson.mapper().writeValueAsBytes(header))
            + "."
            + b64.encodeToString(McpJson.mapper().writeValueAsBytes(claims));
    try {
      Signature s = Signature.getInstance(ALGORITHMS.get(alg));
      s.initSign(key);
      s.update(input.getBytes(StandardCharsets.US_ASCII));
      return input + "." + b64.encodeToString(s.sign());
    } catch (GeneralSecurityException e) {
      throw new IllegalArgumentException(
          "cannot sign a client assertion with " + alg + ": " + e.getMessage(), e);
    }
  }
}
