package dev.herald.client.auth;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.security.SecureRandom;
import java.util.Base64;

/**
 * Proof Key for Code Exchange with {@code S256} (RFC 7636 §4.1-4.2): a verifier of 32 random bytes
 * (43 base64url characters) and its challenge {@code BASE64URL(SHA-256(ASCII(verifier)))}.
 */
record Pkce(String verifier, String challenge) {
  static final String METHOD = "S256";

  static Pkce generate(SecureRandom random) {
    String verifier = randomToken(random, 32);
    return new Pkce(verifier, challenge(verifier));
  }

  static String challenge(String verifier) {
    try {
      byte[] hash =
          MessageDigest.getInstance("SHA-256").digest(verifier.getBytes(StandardCharsets.US_ASCII));
      return Base64.getUrlEncoder().withoutPadding().encodeToString(hash);
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException("SHA-256 is required of every Java platform", e);
    }
  }

  /** {@code bytes} random bytes, base64url without padding (also the {@code state} value). */
  static String randomToken(SecureRandom random, int bytes) {
    byte[] b = new byte[bytes];
    random.nextBytes(b);
    return Base64.getUrlEncoder().withoutPadding().encodeToString(b);
  }
}
