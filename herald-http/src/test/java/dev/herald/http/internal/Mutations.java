package dev.herald.http.internal;

import java.util.Random;

/** Mutations of header values for the fuzzers of herald-http ({@code *FuzzTest}, jqwik). */
public final class Mutations {
  private Mutations() {}

  /** Character-level mutations: flips, cuts, insertions of separators and non-ASCII. */
  public static String mutateText(String input, long seed) {
    Random r = new Random(seed);
    StringBuilder s = new StringBuilder(input);
    String odd = "=?+/ \t\u0000\u007f\u00e9\ud800\u202eA0";
    for (int k = 1 + r.nextInt(3); k > 0; k--) {
      int at = s.isEmpty() ? 0 : r.nextInt(s.length() + 1);
      switch (r.nextInt(4)) {
        case 0 -> {
          if (at < s.length()) {
            s.setCharAt(at, (char) (s.charAt(at) ^ (1 << r.nextInt(7))));
          }
        }
        case 1 -> s.setLength(r.nextInt(s.length() + 1));
        case 2 -> s.insert(at, odd.charAt(r.nextInt(odd.length())));
        default -> {
          if (at < s.length()) {
            s.deleteCharAt(at);
          }
        }
      }
    }
    return s.toString();
  }

  public static boolean wellFormedUtf16(String s) {
    for (int i = 0; i < s.length(); i++) {
      char c = s.charAt(i);
      if (Character.isHighSurrogate(c)) {
        if (i + 1 >= s.length() || !Character.isLowSurrogate(s.charAt(i + 1))) {
          return false;
        }
        i++;
      } else if (Character.isLowSurrogate(c)) {
        return false;
      }
    }
    return true;
  }
}
