package dev.herald.redis;

import dev.herald.tasks.TaskOwner;
import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.security.MessageDigest;
import java.security.SecureRandom;
import java.util.Arrays;
import java.util.Base64;
import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;

/**
 * Listing cursors: a position ({@link TaskKeys#position}) and an HMAC of it and its owner under a
 * key shared by the nodes of a cluster. A forged, garbled or borrowed cursor is refused; only the
 * canonical spelling of an issued cursor is accepted.
 */
final class Cursors {
  private static final String MAC = "HmacSHA256";
  private static final int TAG_BYTES = 16;

  private final byte[] key;

  Cursors(byte[] key) {
    this.key = key.clone();
  }

  static byte[] newKey() {
    byte[] k = new byte[32];
    new SecureRandom().nextBytes(k);
    return k;
  }

  String encode(TaskOwner owner, String position) {
    byte[] body = position.getBytes(StandardCharsets.UTF_8);
    Base64.Encoder b64 = Base64.getUrlEncoder().withoutPadding();
    return b64.encodeToString(body) + "." + b64.encodeToString(tag(owner, body));
  }

  /**
   * The position in {@code cursor}.
   *
   * @throws IllegalArgumentException if this cluster did not make it for {@code owner}
   */
  String decode(TaskOwner owner, String cursor) {
    try {
      int dot = cursor.indexOf('.');
      if (dot < 0) {
        throw new IllegalArgumentException("no tag");
      }
      Base64.Decoder b64 = Base64.getUrlDecoder();
      byte[] body = b64.decode(cursor.substring(0, dot));
      byte[] tag = b64.decode(cursor.substring(dot + 1));
      if (!MessageDigest.isEqual(tag, tag(owner, body))) {
        throw new IllegalArgumentException("bad tag");
      }
      Base64.Encoder canonical = Base64.getUrlEncoder().withoutPadding();
      if (!cursor.equals(canonical.encodeToString(body) + "." + canonical.encodeToString(tag))) {
        throw new IllegalArgumentException("not canonical");
      }
      String position = new String(body, StandardCharsets.UTF_8);
      if (!TaskKeys.isPosition(position)) {
        throw new IllegalArgumentException("not a position");
      }
      return position;
    } catch (RuntimeException e) {
      throw new IllegalArgumentException("Invalid cursor", e);
    }
  }

  private byte[] tag(TaskOwner owner, byte[] body) {
    try {
      Mac mac = Mac.getInstance(MAC);
      mac.init(new SecretKeySpec(key, MAC));
      mac.update(owner.kind().name().getBytes(StandardCharsets.UTF_8));
      mac.update((byte) 0);
      mac.update(owner.id().getBytes(StandardCharsets.UTF_8));
      mac.update((byte) 0);
      return Arrays.copyOf(mac.doFinal(body), TAG_BYTES);
    } catch (GeneralSecurityException e) {
      throw new IllegalStateException("HmacSHA256 is missing from this JDK", e);
    }
  }
}
