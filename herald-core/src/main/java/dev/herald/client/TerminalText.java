package dev.herald.client;

import dev.herald.internal.session.MessageSanitizer;
import org.jspecify.annotations.Nullable;

/**
 * Makes text a server sent safe to print to a terminal. A server's strings (tool results,
 * resource text, log messages, error messages, its name and version) are untrusted: an escape
 * sequence in them could recolour, retitle or rewrite the user's terminal (CSI, OSC 8 hyperlinks,
 * OSC 52 clipboard writes), a CR or a bidirectional override could disguise what is shown. Herald
 * already cleans progress messages the same way (MCP specification, basic/utilities/progress, and
 * the security notes of server/utilities/logging: log data must not be trusted).
 *
 * <p>Escape sequences are removed whole (introducer and payload), and so is every other control
 * character, C0 and C1 (CR, BEL, DEL, U+0080 to U+009F) and every invisible format character
 * (bidirectional overrides, zero-width characters). JSON written by a JSON encoder needs none of
 * this as long as the encoder escapes control and non-ASCII characters.
 */
public final class TerminalText {
  private TerminalText() {}

  /**
   * One line: as described above, and every whitespace run (line feeds included) folded into one
   * space. For names, versions, log lines, error messages, URIs. {@code null} becomes "".
   */
  public static String line(@Nullable String raw) {
    return raw == null ? "" : MessageSanitizer.clean(raw, false, Integer.MAX_VALUE);
  }

  /**
   * Text that may span lines (a tool's text result, a resource's text): as described above, with
   * line feeds and tabs kept. {@code null} becomes "".
   */
  public static String text(@Nullable String raw) {
    return raw == null ? "" : MessageSanitizer.clean(raw, true, Integer.MAX_VALUE);
  }
}
