package dev.herald.client.auth;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * Reads {@code WWW-Authenticate} challenges (RFC 9110 §11.6.1: {@code scheme token68} or {@code
 * scheme name=value, name="quoted, value"}, several challenges separated by commas).
 *
 * <p>Design note. The header comes from a server we are about to trust with a flow, so the
 * reader is lenient and bounded: it never throws, skips what it cannot read, keeps the first
 * value of a repeated parameter, lower-cases scheme and parameter names, and reads at most {@link
 * #MAX_LENGTH} characters.
 */
final class WwwAuthenticate {
  static final int MAX_LENGTH = 16 * 1024;

  /** One challenge: its scheme (lower case) and parameters (names lower case). */
  record Parsed(String scheme, Map<String, String> params) {}

  private final String s;
  private int pos;

  private WwwAuthenticate(String s) {
    this.s = s.length() > MAX_LENGTH ? s.substring(0, MAX_LENGTH) : s;
  }

  /** Every challenge in {@code header}, in order; empty for a blank or unreadable header. */
  static List<Parsed> parse(String header) {
    return new WwwAuthenticate(header).challenges();
  }

  /** The parameters of the first {@code Bearer} challenge, or an empty map. */
  static Map<String, String> bearer(String header) {
    for (Parsed p : parse(header)) {
      if (p.scheme().equals("bearer")) {
        return p.params();
      }
    }
    return Map.of();
  }

  private List<Parsed> challenges() {
    List<Parsed> out = new ArrayList<>();
    String scheme = null;
    Map<String, String> params = new LinkedHashMap<>();
    while (pos < s.length()) {
      char c = s.charAt(pos);
      if (c == ',' || c == ' ' || c == '\t') {
        pos++;
        continue;
      }
      if (!isTchar(c)) {
        pos++; // garbage: skip it
        continue;
      }
      String token = token();
      skipSpaces();
      if (pos < s.length() && s.charAt(pos) == '=') {
        pos++;
        skipSpaces();
        if (pos < s.length() && s.charAt(pos) == '=') {
          // the tail of a token68 ("abc==="): nothing to keep
          while (pos < s.length() && s.charAt(pos) == '=') {
            pos++;
          }
          continue;
        }
        String value = value();
        if (scheme != null) {
          params.putIfAbsent(token.toLowerCase(Locale.ROOT), value);
        }
        continue;
      }
      if (scheme != null) {
        out.add(new Parsed(scheme, Map.copyOf(params)));
      }
      scheme = token.toLowerCase(Locale.ROOT);
      params = new LinkedHashMap<>();
    }
    if (scheme != null) {
      out.add(new Parsed(scheme, Map.copyOf(params)));
    }
    return out;
  }

  private String token() {
    int start = pos;
    while (pos < s.length() && isTchar(s.charAt(pos))) {
      pos++;
    }
    return s.substring(start, pos);
  }

  private String value() {
    if (pos < s.length() && s.charAt(pos) == '"') {
      pos++;
      StringBuilder b = new StringBuilder();
      while (pos < s.length()) {
        char c = s.charAt(pos++);
        if (c == '\\' && pos < s.length()) {
          b.append(s.charAt(pos++));
        } else if (c == '"') {
          return b.toString();
        } else {
          b.append(c);
        }
      }
      return b.toString(); // unterminated: what there was
    }
    // a bare token (lenient: up to the next comma or space)
    int start = pos;
    while (pos < s.length() && s.charAt(pos) != ',' && s.charAt(pos) != ' ') {
      pos++;
    }
    return s.substring(start, pos);
  }

  private void skipSpaces() {
    while (pos < s.length() && (s.charAt(pos) == ' ' || s.charAt(pos) == '\t')) {
      pos++;
    }
  }

  /** RFC 9110 tchar. */
  private static boolean isTchar(char c) {
    return (c >= 'a' && c <= 'z')
        || (c >= 'A' && c <= 'Z')
        || (c >= '0' && c <= '9')
        || "!#$%&'*+-.^_`|~".indexOf(c) >= 0;
  }
}
