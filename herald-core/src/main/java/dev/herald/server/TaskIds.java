package dev.herald.server;

import java.security.SecureRandom;
import java.util.Base64;

/**
 * Task ids (MCP 2025-11-25 basic/utilities/tasks, "Security Considerations": without an
 * authorization context the id is the only capability, so it must be unguessable): 128 bits from
 * {@link SecureRandom}, URL-safe base64 without padding (22 characters), never beginning with
 * {@code -} (a command line would take such an id for an option; drawing again costs under 0.03
 * bits). Thread-safe.
 */
final class TaskIds {
  private static final SecureRandom RANDOM = new SecureRandom();
  private static final Base64.Encoder B64 = Base64.getUrlEncoder().withoutPadding();

  private TaskIds() {}

  static String next() {
    byte[] bytes = new byte[16];
    while (true) {
      RANDOM.nextBytes(bytes);
      String id = B64.encodeToString(bytes);
      if (id.charAt(0) != '-') {
        return id; // one in 64 drawn again: an id a command line would take for an option
      }
    }
  }
}
