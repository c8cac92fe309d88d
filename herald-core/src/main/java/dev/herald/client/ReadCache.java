package dev.herald.client;

import dev.herald.session.Ticker;
import dev.herald.wire.CacheScope;
import dev.herald.wire.ReadResourceResult;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import org.jspecify.annotations.Nullable;

/**
 * The client's cache of {@code resources/read} results (MCP 2026-07-28 server/utilities/caching):
 * a result is reused while {@code now < received + ttlMs} ({@code ttlMs} absent or negative: 0,
 * never reused); a {@code private} one only for the credential identity that read it (none: not
 * kept); a result reached through {@code input_required} rounds is never kept; {@code
 * notifications/resources/updated} for the uri drops it. Handshake-era results carry no hints and
 * are not kept.
 *
 * <p>Thread-safe (a concurrent map; two concurrent misses both read).
 */
final class ReadCache {
  private record Key(String uri, @Nullable String identity) {}

  private record Entry(ReadResourceResult result, long freshUntilNanos) {}

  private final Map<Key, Entry> entries = new ConcurrentHashMap<>();
  private final Ticker ticker;

  ReadCache(Ticker ticker) {
    this.ticker = ticker;
  }

  /** A fresh cached result for {@code uri}, or {@code null}. */
  @Nullable ReadResourceResult get(String uri, @Nullable String who) {
    Entry e = entries.get(new Key(uri, null));
    if (e == null && who != null) {
      e = entries.get(new Key(uri, who));
    }
    return e != null && ticker.nanos() - e.freshUntilNanos() < 0 ? e.result() : null;
  }

  /** Keeps a result read in one round, when its hints allow. */
  void put(String uri, @Nullable String who, ReadResourceResult result, long receivedNanos) {
    long ttl = result.effectiveTtlMs();
    if (ttl <= 0) {
      return;
    }
    Entry e = new Entry(result, receivedNanos + ttl * 1_000_000L);
    if (result.cacheScope() == CacheScope.PRIVATE) {
      if (who != null) {
        entries.put(new Key(uri, who), e);
      }
    } else {
      entries.put(new Key(uri, null), e);
    }
  }

  /** Drops every result for {@code uri} ({@code notifications/resources/updated}). */
  void invalidate(String uri) {
    entries.keySet().removeIf(k -> k.uri().equals(uri));
  }
}
