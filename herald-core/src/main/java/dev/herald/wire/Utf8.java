package dev.herald.wire;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.ByteOrder;

/**
 * Strict UTF-8 validation of a frame before it is parsed.
 *
 * <p>Design note (MCP 2025-11-25 basic, "JSON-RPC messages MUST be UTF-8 encoded"; RFC 8259 §8.1;
 * RFC 3629 §3). A JSON parser that decodes leniently turns an overlong {@code C0 AE} into {@code
 * .}, so a filter that reads the bytes and a handler that reads the parsed text would disagree.
 * Every frame is therefore checked first: only the shortest form of each code point, no encoded
 * surrogates, nothing above U+10FFFF, no truncated sequence. A raw NUL byte is refused too: JSON
 * never contains one outside a string and never inside one unescaped, and UTF-16 and UTF-32 text
 * (which a parser would otherwise detect and accept) always does. The UTF-16 byte order marks
 * ({@code FE FF}, {@code FF FE}) are never valid UTF-8.
 *
 * <p>Allocation-free; ASCII is checked eight bytes at a time.
 */
final class Utf8 {
  private static final VarHandle LONGS =
      MethodHandles.byteArrayViewVarHandle(long[].class, ByteOrder.LITTLE_ENDIAN);
  private static final long HIGH_BITS = 0x8080808080808080L;
  private static final long LOW_BITS = 0x0101010101010101L;

  private Utf8() {}

  /**
   * The offset of the first byte that makes {@code bytes[offset, offset + length)} invalid, or
   * {@code -1} when the slice is well-formed UTF-8 with no NUL byte.
   */
  static int firstInvalid(byte[] bytes, int offset, int length) {
    int i = offset;
    int end = offset + length;
    while (i < end) {
      // eight ASCII bytes at a time: no high bit set and no zero byte
      while (i + 8 <= end) {
        long w = (long) LONGS.get(bytes, i);
        if ((w & HIGH_BITS) != 0 || ((w - LOW_BITS) & ~w & HIGH_BITS) != 0) {
          break;
        }
        i += 8;
      }
      if (i >= end) {
        break;
      }
      int b = bytes[i];
      if (b > 0) { // ASCII other than NUL
        i++;
        continue;
      }
      if (b == 0) {
        return i;
      }
      int lead = b & 0xFF;
      if (lead < 0xC2 || lead > 0xF4) {
        return i; // a continuation byte, an overlong two-byte lead (C0, C1), or F5..FF
      }
      int need = lead < 0xE0 ? 1 : lead < 0xF0 ? 2 : 3;
      if (i + need >= end) {
        return i; // truncated at the end of the frame
      }
      int b1 = bytes[i + 1] & 0xFF;
      // The second byte's range depends on the lead (RFC 3629 §4): this is what refuses
      // overlong forms (E0 80..9F, F0 80..8F), surrogates (ED A0..BF) and > U+10FFFF (F4 90..).
      int lo =
          switch (lead) {
            case 0xE0 -> 0xA0;
            case 0xF0 -> 0x90;
            default -> 0x80;
          };
      int hi =
          switch (lead) {
            case 0xED -> 0x9F;
            case 0xF4 -> 0x8F;
            default -> 0xBF;
          };
      if (b1 < lo || b1 > hi) {
        return i;
      }
      for (int k = 2; k <= need; k++) {
        if ((bytes[i + k] & 0xC0) != 0x80) {
          return i;
        }
      }
      i += need + 1;
    }
    return -1;
  }
}
