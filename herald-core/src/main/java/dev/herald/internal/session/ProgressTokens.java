package dev.herald.internal.session;

import dev.herald.wire.ProgressToken;
import java.security.SecureRandom;
import java.util.HexFormat;

/** Generates progress tokens: 128 random bits from {@link SecureRandom}, hex (SA-MCP-PRG-001). */
public final class ProgressTokens {
  private static final SecureRandom RANDOM = new SecureRandom();

  private ProgressTokens() {}

  public static ProgressToken random() {
    byte[] bytes = new byte[16];
    RANDOM.nextBytes(bytes);
    return ProgressToken.of(HexFormat.of().formatHex(bytes));
  }

  /** A short, non-reversible label for a token, for logs and records. */
  public static String hash(ProgressToken token) {
    try {
      byte[] digest =
          java.security.MessageDigest.getInstance("SHA-256")
              .digest(token.toString().getBytes(java.nio.charset.StandardCharsets.UTF_8));
      return HexFormat.of().formatHex(digest, 0, 6);
    } catch (java.security.NoSuchAlgorithmException e) {
      throw new IllegalStateException("SHA-256 is required by every JDK", e);
    }
  }
}
