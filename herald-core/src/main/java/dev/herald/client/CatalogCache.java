package dev.herald.client;

import dev.herald.session.Ticker;
import dev.herald.wire.CacheScope;
import dev.herald.wire.ErrorCodes;
import dev.herald.wire.McpException;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.ReentrantLock;
import java.util.function.Supplier;
import org.jspecify.annotations.Nullable;

/**
 * One catalog area's cache on the client (docs/notifications.md, "List changes are hints, not
 * diffs"; MCP 2026-07-28 server/utilities/caching).
 *
 * <p>Design note. The list is cached page by page, each page under its cursor with its own
 * lifetime: a handshake-era page is fresh until the area's {@code list_changed} arrives; a
 * 2026-07-28 page is fresh while {@code now < received + ttlMs} ({@code ttlMs} absent or negative
 * counts as 0, so such a page is never reused). A use walks the pages from the first, reusing the
 * fresh ones and refetching the others; a refetched page whose {@code nextCursor} differs simply
 * leads to other cached pages or to fetches. A {@code private} page is kept under the credential
 * identity that fetched it and served only to that identity (none: not kept at all); a {@code
 * public} one is shared. The matching notification ({@code list_changed}) marks every page stale;
 * a change that arrives during a fetch leaves the fetched pages stale, so the next use fetches
 * again. Concurrent users of a stale list share one fetch.
 *
 * <p>Thread-safe: {@code lock} serializes fetches; readers of a fresh whole-list snapshot take no
 * lock.
 */
final class CatalogCache<T> {
  /** A page's lifetime that only a notification ends (the handshake era). */
  static final long UNTIL_CHANGED = -1;

  /** One page as the server sent it. */
  record Page<T>(
      List<T> items, @Nullable String nextCursor, long ttlMs, @Nullable CacheScope scope) {}

  /** Fetches one page. */
  @FunctionalInterface
  interface Fetcher<T> {
    Page<T> fetch(@Nullable String cursor) throws InterruptedException;
  }

  private record Key(@Nullable String cursor, @Nullable String identity) {}

  private record Entry<T>(Page<T> page, long generation, long receivedNanos) {}

  private record Snapshot<T>(
      long generation,
      List<T> items,
      long freshUntilNanos,
      boolean forever,
      @Nullable String identity) {}

  private final Fetcher<T> fetcher;
  private final Ticker ticker;
  private final Supplier<@Nullable String> identity;
  private final Map<Key, Entry<T>> pages = new ConcurrentHashMap<>();
  private final AtomicLong generation = new AtomicLong();
  private final AtomicLong fetches = new AtomicLong();
  private final AtomicLong pageFetches = new AtomicLong();
  private final ReentrantLock lock = new ReentrantLock();
  private volatile @Nullable Snapshot<T> snapshot;

  CatalogCache(Fetcher<T> fetcher, Ticker ticker, Supplier<@Nullable String> identity) {
    this.fetcher = fetcher;
    this.ticker = ticker;
    this.identity = identity;
  }

  /** The items last fetched, fresh or not, without asking the server; null if never fetched. */
  @Nullable List<T> peek() {
    Snapshot<T> s = snapshot;
    return s == null ? null : s.items();
  }

  /** The items of every page, each page reused while fresh and fetched otherwise. */
  List<T> get() throws InterruptedException {
    String who = identity.get();
    Snapshot<T> s = snapshot;
    if (s != null && fresh(s, who)) {
      return s.items();
    }
    lock.lockInterruptibly();
    try {
      s = snapshot;
      if (s != null && fresh(s, who)) {
        return s.items();
      }
      long g = generation.get();
      List<T> out = new ArrayList<>();
      Set<String> seen = new HashSet<>();
      boolean fetched = false;
      boolean forever = true;
      boolean anyPrivate = false;
      long freshUntil = Long.MAX_VALUE;
      String cursor = null;
      do {
        Entry<T> e = lookup(cursor, who, g);
        if (e == null) {
          Page<T> page = fetcher.fetch(cursor);
          pageFetches.incrementAndGet();
          fetched = true;
          e = new Entry<>(page, g, ticker.nanos());
          store(cursor, who, e);
        }
        Page<T> page = e.page();
        out.addAll(page.items());
        if (page.ttlMs() != UNTIL_CHANGED) {
          forever = false;
          freshUntil = Math.min(freshUntil, e.receivedNanos() + page.ttlMs() * 1_000_000L);
        }
        anyPrivate |= page.scope() == CacheScope.PRIVATE;
        String next = page.nextCursor();
        if (next != null && !seen.add(next)) {
          throw new McpException(
              ErrorCodes.INTERNAL_ERROR, "server repeated a pagination cursor (" + next + ")");
        }
        cursor = next;
      } while (cursor != null);
      if (fetched) {
        fetches.incrementAndGet();
      }
      List<T> items = List.copyOf(out);
      snapshot = new Snapshot<>(g, items, freshUntil, forever, anyPrivate ? who : null);
      if (anyPrivate && who == null) {
        snapshot = null; // no identity to keep private entries under
      }
      return items;
    } finally {
      lock.unlock();
    }
  }

  private boolean fresh(Snapshot<T> s, @Nullable String who) {
    if (s.generation() != generation.get()) {
      return false;
    }
    if (s.identity() != null && !s.identity().equals(who)) {
      return false;
    }
    return s.forever() || ticker.nanos() - s.freshUntilNanos() < 0;
  }

  private @Nullable Entry<T> lookup(@Nullable String cursor, @Nullable String who, long g) {
    Entry<T> e = pages.get(new Key(cursor, null));
    if (e == null && who != null) {
      e = pages.get(new Key(cursor, who));
    }
    if (e == null || e.generation() != g) {
      return null;
    }
    long ttl = e.page().ttlMs();
    if (ttl == UNTIL_CHANGED) {
      return e;
    }
    return ticker.nanos() - (e.receivedNanos() + ttl * 1_000_000L) < 0 ? e : null;
  }

  private void store(@Nullable String cursor, @Nullable String who, Entry<T> e) {
    if (e.page().scope() == CacheScope.PRIVATE) {
      if (who != null) {
        pages.put(new Key(cursor, who), e);
      }
      pages.remove(new Key(cursor, null));
    } else {
      pages.put(new Key(cursor, null), e);
    }
  }

  /** Marks every page stale (the area's {@code list_changed} arrived). */
  void invalidate() {
    generation.incrementAndGet();
    pages.clear();
  }

  boolean stale() {
    Snapshot<T> s = snapshot;
    return s == null || !fresh(s, identity.get());
  }

  /** How many times the list was fetched from the server (at least one page of it). */
  long fetchCount() {
    return fetches.get();
  }

  /** How many pages were fetched from the server. */
  long pageFetchCount() {
    return pageFetches.get();
  }

  static long ttlOf(boolean handshake, @Nullable Long ttlMs) {
    if (handshake) {
      return UNTIL_CHANGED;
    }
    return ttlMs == null || ttlMs < 0 ? 0 : ttlMs;
  }

  @Override
  public String toString() {
    return "CatalogCache[" + Objects.requireNonNullElse(snapshot, "empty") + "]";
  }
}
