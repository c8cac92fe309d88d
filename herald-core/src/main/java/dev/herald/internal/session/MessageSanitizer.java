package dev.herald.internal.session;

import org.jspecify.annotations.Nullable;

/**
 * Makes an untrusted progress or log message safe to show as plain text: escape sequences (ANSI
 * CSI such as colours, OSC such as hyperlinks and titles) are removed whole; other control
 * characters and invisible format characters (bidirectional overrides) are removed; whitespace runs
 * are folded; and the length is capped.
 */
public final class MessageSanitizer {
  /** Longest message kept, in characters. */
  public static final int MAX_LENGTH = 200;

  private MessageSanitizer() {}

  public static @Nullable String sanitize(@Nullable String raw) {
    return raw == null ? null : clean(raw, false, MAX_LENGTH);
  }

  /**
   * Makes untrusted text safe to write to a terminal: escape sequences removed whole, every other
   * control character (C0 and C1, including CR, BEL and DEL) and invisible format character
   * (bidirectional overrides) removed. With {@code multiline}, line feeds and tabs are kept and
   * other whitespace is kept as it is (a CR LF line end becomes LF); without it, whitespace runs
   * (line feeds too) are folded to one space and the text is trimmed. No more than {@code
   * maxLength} characters are kept (the last one then an ellipsis).
   */
  public static String clean(String raw, boolean multiline, int maxLength) {
    StringBuilder out = new StringBuilder(Math.min(raw.length(), Math.min(maxLength, 1 << 16)));
    boolean space = false;
    for (int i = 0; i < raw.length() && out.length() < maxLength; ) {
      int cp = raw.codePointAt(i);
      i += Character.charCount(cp);
      if (cp == ESC || cp == C1_CSI || isC1StringStart(cp)) {
        i = skipEscape(raw, cp, i);
        continue;
      }
      if (multiline) {
        if (cp == '\n' || cp == '\t' || cp == ' ') {
          out.appendCodePoint(cp);
          continue;
        }
        if (cp == '\r') {
          continue; // CR returns the cursor to overwrite what was printed: never kept
        }
        if (Character.isWhitespace(cp) || Character.isSpaceChar(cp)) {
          out.append(' '); // vertical tab, form feed, line and paragraph separators, odd spaces
          continue;
        }
      } else if (Character.isWhitespace(cp) || Character.isSpaceChar(cp)) {
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
    if (out.length() >= maxLength) {
      out.setLength(maxLength - 1);
      out.append('…');
    }
    return out.toString();
  }

  private static final int ESC = 0x1B;
  private static final int BEL = 0x07;
  private static final int C1_CSI = 0x9B;
  private static final int C1_ST = 0x9C;

  /**
   * Skips a whole escape sequence (ECMA-48), not just its introducer, so that no "[31m" or OSC
   * payload (a hyperlink's URL, a window title) is left behind as text. {@code i} is the index
   * after the introducer {@code cp}; returns the index after the sequence.
   */
  private static int skipEscape(String s, int cp, int i) {
    int n = s.length();
    if (cp == ESC) {
      if (i >= n) {
        return i;
      }
      char next = s.charAt(i);
      if (next == '[') {
        return skipCsi(s, i + 1);
      }
      if (next == ']' || next == 'P' || next == 'X' || next == '^' || next == '_') {
        return skipControlString(s, i + 1);
      }
      while (i < n && s.charAt(i) >= 0x20 && s.charAt(i) <= 0x2F) {
        i++; // intermediate bytes
      }
      return i < n && s.charAt(i) >= 0x30 && s.charAt(i) <= 0x7E ? i + 1 : i;
    }
    return cp == C1_CSI ? skipCsi(s, i) : skipControlString(s, i);
  }

  /** Parameter bytes 0x30-0x3F, intermediate bytes 0x20-0x2F, one final byte 0x40-0x7E. */
  private static int skipCsi(String s, int i) {
    int n = s.length();
    while (i < n && s.charAt(i) >= 0x20 && s.charAt(i) <= 0x3F) {
      i++;
    }
    return i < n && s.charAt(i) >= 0x40 && s.charAt(i) <= 0x7E ? i + 1 : i;
  }

  /** OSC, DCS, SOS, PM, APC: everything up to BEL, ESC \ or ST (or the end). */
  private static int skipControlString(String s, int i) {
    int n = s.length();
    while (i < n) {
      char c = s.charAt(i++);
      if (c == BEL || c == C1_ST) {
        return i;
      }
      if (c == ESC) {
        return i < n && s.charAt(i) == '\\' ? i + 1 : i;
      }
    }
    return i;
  }

  private static boolean isC1StringStart(int cp) {
    return cp == 0x90 || cp == 0x98 || cp == 0x9D || cp == 0x9E || cp == 0x9F;
  }

  private static boolean isInvisibleFormat(int cp) {
    int type = Character.getType(cp);
    return type == Character.FORMAT
        || type == Character.PRIVATE_USE
        || type == Character.SURROGATE
        || type == Character.UNASSIGNED;
  }
}
