package dev.herald.wire;

import org.jspecify.annotations.Nullable;

/**
 * A result that carries the 2026-07-28 caching hints {@code ttlMs} and {@code cacheScope}
 * ({@code CacheableResult}: discover, the four list results and {@code resources/read}). Both are
 * absent in legacy-era results; a client treats an absent or negative {@code ttlMs} as 0.
 */
public interface CacheableResult {

  /** Freshness lifetime in milliseconds, as sent; {@code null} when absent. */
  @Nullable Long ttlMs();

  /** Who may share a cached copy; {@code null} when absent. */
  @Nullable CacheScope cacheScope();

  /** The lifetime a client should use: {@code ttlMs}, or 0 when absent or negative. */
  default long effectiveTtlMs() {
    Long ttl = ttlMs();
    return ttl == null || ttl < 0 ? 0 : ttl;
  }
}
