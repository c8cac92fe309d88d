package dev.herald.session;

import org.jspecify.annotations.Nullable;

/**
 * Makes an untrusted progress or log message safe to show as plain text: control characters
 * (including ANSI escapes and bidirectional overrides) are removed, whitespace runs are folded, and
 * the length is capped.
 */
public final class MessageSanitizer {
  /** Longest message kept, in characters. */
  public static final int MAX_LENGTH = 200;

  private MessageSanitizer() {}

  public static @Nullable String sanitize(@Nullable String raw) {
    if (raw == null) {
      return null;
    }
    StringBuilder out = new StringBuilder(Math.min(raw.length(), MAX_LENGTH));
    boolean space = false;
    for (int i = 0; i < raw.length() && out.length() < MAX_LENGTH; ) {
      int cp = raw.codePointAt(i);
      i += Character.charCount(cp);
      if (Character.isWhitespace(cp) || Character.isSpaceChar(cp)) {
        space = out.length() > 0;
        continue;
      }
      if (Character.isISOControl(cp) || isInvisibleFormat(cp)) {
        continue;
      }
      if (space) {
        out.append(' ');
        space = false;
      }
      out.appendCodePoint(cp);
    }
    if (out.length() >= MAX_LENGTH) {
      out.setLength(MAX_LENGTH - 1);
      out.append('…');
    }
    return out.toString();
  }

  private static boolean isInvisibleFormat(int cp) {
    int type = Character.getType(cp);
    return type == Character.FORMAT || type == Character.PRIVATE_USE || type == Character.SURROGATE || type == Character.UNASSIGNED;
  }
}
