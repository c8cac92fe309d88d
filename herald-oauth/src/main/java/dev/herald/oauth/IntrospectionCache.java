package dev.herald.oauth;

import dev.herald.auth.Principal;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.time.Duration;
import java.time.Instant;
import java.time.InstantSource;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.locks.ReentrantLock;
import org.jspecify.annotations.Nullable;

/**
 * Positive introspection answers, keyed by the token's SHA-256 digest (the token itself is never
 * kept), bounded in entries (least recently used first out) and each kept until the earlier of its
 * time to live and the token's expiry. Threading: {@link #lock} guards {@link #entries}; it is
 * held only for map operations, never across I/O.
 */
final class IntrospectionCache {
  private record Cached(Principal principal, Instant until) {}

  private final int maxEntries;
  private final Duration ttl;
  private final InstantSource clock;
  private final ReentrantLock lock = new ReentrantLock();
  private final LinkedHashMap<String, Cached> entries;

  IntrospectionCache(int maxEntries, Duration ttl, InstantSource clock) {
    this.maxEntries = maxEntries;
    this.ttl = ttl;
    this.clock = clock;
    this.entries =
        new LinkedHashMap<>(16, 0.75f, true) {
          private static final long serialVersionUID = 1L;

          @Override
          protected boolean removeEldestEntry(Map.Entry<String, Cached> eldest) {
            return size() > IntrospectionCache.this.maxEntries;
          }
        };
  }

  @Nullable Principal get(String token) {
    String key = digest(token);
    Instant now = clock.instant();
    lock.lock();
    try {
      Cached e = entries.get(key);
      if (e == null) {
        return null;
      }
      if (!now.isBefore(e.until())) {
        entries.remove(key);
        return null;
      }
      return e.principal();
    } finally {
      lock.unlock();
    }
  }

  void put(String token, Principal principal, @Nullable Instant exp) {
    Instant until = clock.instant().plus(ttl);
    if (exp != null && exp.isBefore(until)) {
      until = exp;
    }
    String key = digest(token);
    lock.lock();
    try {
      entries.put(key, new Cached(principal, until));
    } finally {
      lock.unlock();
    }
  }

  int size() {
    lock.lock();
    try {
      return entries.size();
    } finally {
      lock.unlock();
    }
  }

  private static String digest(String token) {
    try {
      return HexFormat.of()
          .formatHex(
              MessageDigest.getInstance("SHA-256").digest(token.getBytes(StandardCharsets.UTF_8)));
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException("SHA-256 is missing from this JDK", e);
    }
  }
}
