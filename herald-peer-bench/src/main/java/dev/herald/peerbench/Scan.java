package dev.herald.peerbench;

import java.nio.charset.StandardCharsets;

/**
 * The least JSON reading that the ceiling server and the load driver need: the raw value of a
 * member found by its name in compact JSON-RPC text, without building a tree. A value is returned
 * as it stands in the text (a string keeps its quotes and escapes), so it can be written back
 * unchanged. The first occurrence wins, so callers ask only for names that occur once.
 */
final class Scan {
  private Scan() {}

  /** The raw value of the first member {@code "name"}, or {@code null} when there is none. */
  static String raw(String json, String name) {
    int i = json.indexOf("\"" + name + "\"");
    if (i < 0) {
      return null;
    }
    i += name.length() + 2;
    while (i < json.length() && (json.charAt(i) == ' ' || json.charAt(i) == ':')) {
      i++;
    }
    if (i >= json.length()) {
      return null;
    }
    int start = i;
    if (json.charAt(i) == '"') {
      i++;
      while (i < json.length() && json.charAt(i) != '"') {
        i += json.charAt(i) == '\\' ? 2 : 1;
      }
      return json.substring(start, Math.min(json.length(), i + 1));
    }
    while (i < json.length() && ",}] \n".indexOf(json.charAt(i)) < 0) {
      i++;
    }
    return json.substring(start, i);
  }

  /** The value of string member {@code "name"} without its quotes (escapes kept), or null. */
  static String string(String json, String name) {
    String r = raw(json, name);
    return r == null || r.length() < 2 || r.charAt(0) != '"'
        ? null
        : r.substring(1, r.length() - 1);
  }

  /** How often {@code needle} occurs in {@code hay[0, length)}. */
  static int count(byte[] hay, int length, byte[] needle) {
    int n = 0;
    outer:
    for (int i = 0; i + needle.length <= length; i++) {
      for (int j = 0; j < needle.length; j++) {
        if (hay[i + j] != needle[j]) {
          continue outer;
        }
      }
      n++;
      i += needle.length - 1;
    }
    return n;
  }

  static byte[] ascii(String s) {
    return s.getBytes(StandardCharsets.US_ASCII);
  }
}
