package dev.herald.server;

import dev.herald.wire.McpException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.security.MessageDigest;
import java.security.SecureRandom;
import java.util.Base64;
import java.util.List;
import java.util.concurrent.locks.ReentrantLock;
import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;
import org.jspecify.annotations.Nullable;

/**
 * Opaque cursors for every list method (MCP 2025-11-25 server/utilities/pagination).
 *
 * <p>Design note. A cursor is base64url of a 4-byte offset followed by the first 12 bytes of an
 * HMAC-SHA256 over the list's name and that offset, keyed by 32 random bytes drawn once per
 * server. So a client cannot parse or forge a cursor, a cursor from {@code prompts/list} is
 * refused by {@code tools/list}, and a cursor from another server (or another run) is refused;
 * each refusal is -32602. An offset beyond the end (the catalog shrank) gives an empty last page.
 * Cursors stay valid for the server's lifetime, as the spec asks.
 *
 * <p>The key is drawn when the first cursor is made or read, not when the server is built: a list
 * that fits in one page never needs it, and seeding a {@link SecureRandom} is start-up time a
 * server spawned on demand would spend before answering {@code initialize}.
 *
 * <p>Thread-safe: the key, once drawn, is immutable and each call builds its own {@link Mac}.
 */
final class Pagination {
  static final int DEFAULT_PAGE_SIZE = 50;
  private static final int MAC_BYTES = 12;
  private static final Base64.Encoder ENCODER = Base64.getUrlEncoder().withoutPadding();
  private static final Base64.Decoder DECODER = Base64.getUrlDecoder();

  private final ReentrantLock drawing = new ReentrantLock();
  private volatile @Nullable SecretKeySpec key;
  private final int pageSize;

  /** One page of a list and the cursor of the next, or {@code null} at the end. */
  record Page<T>(List<T> items, @Nullable String nextCursor) {}

  Pagination(int pageSize) {
    if (pageSize < 1) {
      throw new IllegalArgumentException("pageSize must be at least 1, was " + pageSize);
    }
    this.pageSize = pageSize;
  }

  Pagination(int pageSize, SecureRandom random) {
    this(pageSize);
    this.key = draw(random);
  }

  private static SecretKeySpec draw(SecureRandom random) {
    byte[] k = new byte[32];
    random.nextBytes(k);
    return new SecretKeySpec(k, "HmacSHA256");
  }

  private SecretKeySpec key() {
    SecretKeySpec k = key;
    if (k != null) {
      return k;
    }
    drawing.lock();
    try {
      k = key;
      if (k == null) {
        k = draw(new SecureRandom());
        key = k;
      }
      return k;
    } finally {
      drawing.unlock();
    }
  }

  int pageSize() {
    return pageSize;
  }

  /**
   * The page of {@code all} that {@code cursor} points at.
   *
   * @param list the list's method name, bound into the cursor
   * @throws McpException -32602 for a cursor this server did not issue for this list
   */
  <T> Page<T> page(String list, List<T> all, @Nullable String cursor) {
    int offset = cursor == null ? 0 : decode(list, cursor);
    if (offset >= all.size()) {
      return new Page<>(List.of(), null);
    }
    int end = (int) Math.min((long) offset + pageSize, all.size());
    String next = end < all.size() ? encode(list, end) : null;
    return new Page<>(List.copyOf(all.subList(offset, end)), next);
  }

  String encode(String list, int offset) {
    ByteBuffer buf = ByteBuffer.allocate(4 + MAC_BYTES);
    buf.putInt(offset);
    buf.put(mac(list, offset), 0, MAC_BYTES);
    return ENCODER.encodeToString(buf.array());
  }

  int decode(String list, String cursor) {
    byte[] raw;
    try {
      raw = DECODER.decode(cursor);
    } catch (IllegalArgumentException e) {
      throw invalid();
    }
    // only the canonical form: base64 leaves spare bits in the last character (and allows
    // padding), and a cursor differing from the issued one in any character is not one we issued
    if (raw.length != 4 + MAC_BYTES || !ENCODER.encodeToString(raw).equals(cursor)) {
      throw invalid();
    }
    ByteBuffer buf = ByteBuffer.wrap(raw);
    int offset = buf.getInt();
    byte[] given = new byte[MAC_BYTES];
    buf.get(given);
    byte[] expected = java.util.Arrays.copyOf(mac(list, offset), MAC_BYTES);
    if (offset < 0 || !MessageDigest.isEqual(given, expected)) {
      throw invalid();
    }
    return offset;
  }

  private byte[] mac(String list, int offset) {
    try {
      Mac mac = Mac.getInstance("HmacSHA256");
      mac.init(key());
      mac.update(list.getBytes(StandardCharsets.UTF_8));
      mac.update((byte) 0);
      mac.update(ByteBuffer.allocate(4).putInt(offset).array());
      return mac.doFinal();
    } catch (GeneralSecurityException e) {
      throw new IllegalStateException("HmacSHA256 is not available", e);
    }
  }

  private static McpException invalid() {
    return McpException.invalidParams("Invalid params: invalid cursor");
  }
}
