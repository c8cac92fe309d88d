package dev.herald.server;

import java.security.SecureRandom;
import java.util.Base64;

/**
 * Task ids (MCP 2025-11-25 basic/utilities/tasks, "Security Considerations": without an
 * authorization context the id is the only capability, so it must be unguessable): 128 bits from
 * {@link SecureRandom}, URL-safe base64 without padding (22 characters). Thread-safe.
 */
final class TaskIds {
  private static final SecureRandom RANDOM = new SecureRandom();
  private static final Base64.Encoder B64 = Base64.getUrlEncoder().withoutPadding();

  private TaskIds() {}

  static String next() {
    byte[] bytes = new byte[16];
    RANDOM.nextBytes(bytes);
    return B64.encodeToString(bytes);
  }
}
