package dev.herald.server;

import dev.herald.wire.CacheScope;

/**
 * One area's caching hint: {@code ttlMs} (at least 0) and {@code cacheScope}.
 *
 * <p>The default, {@link #DEFAULT}, is {@code ttlMs: 0} and {@code cacheScope: "private"}. A TTL of
 * 0 means "stale at once" (2026-07-28 server/utilities/caching), which is exactly how clients
 * behaved before hints existed, so a server that changes its catalogs at run time is never served
 * from a stale cache when no {@code subscriptions/listen} stream tells the client. {@code private}
 * because a list may vary by the request's authorization (the resource access hook and
 * interceptors can filter it per principal) and Herald cannot know it does not: a {@code public}
 * entry could be shared by a gateway across users. A server whose catalogs are the same for
 * everyone and change rarely can say so with {@link McpServer.Builder#cacheHint}.
 */
record CacheHint(long ttlMs, CacheScope scope) {
  static final CacheHint DEFAULT = new CacheHint(0, CacheScope.PRIVATE);
}
