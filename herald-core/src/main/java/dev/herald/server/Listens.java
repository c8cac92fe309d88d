package dev.herald.server;

import dev.herald.tasks.StoredTask;
import dev.herald.tasks.TaskStore;
import dev.herald.wire.ErrorCodes;
import dev.herald.wire.McpException;
import dev.herald.wire.McpJson;
import dev.herald.wire.SubscriptionFilter;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Predicate;

/**
 * The server's open {@code subscriptions/listen} subscriptions, across all sessions (MCP 2026-07-28
 * basic/patterns/subscriptions), and the fan-out to them.
 *
 * <p>Design note. Catalogs do not vary per connection in the 2026-07-28 era, so a listen hears the
 * server's own catalog changes and {@link McpServer#notifyResourceUpdated} only, through the same
 * debounce as handshake-era sessions (one notification per burst per listen). The fan-out only
 * marks each matching {@link Listen} and signals it: it never writes, never blocks and never
 * encodes; each listen encodes and writes on its own thread. The number of open listens is capped
 * ({@link McpServer.Builder#maxListens}); one over the cap is refused before anything is sent on
 * it.
 *
 * <p>Thread-safe and lock-free: a concurrent set and a counter that reserves a place before the
 * listen is added.
 */
final class Listens {
  static final int DEFAULT_MAX = 1000;
  static final int DEFAULT_MAX_RESOURCE_SUBSCRIPTIONS = 100;

  private final int max;
  private final Set<Listen> open = ConcurrentHashMap.newKeySet();
  private final AtomicInteger count = new AtomicInteger();

  Listens(int max) {
    this.max = max;
  }

  /**
   * Adds a listen that is about to acknowledge.
   *
   * @throws McpException {@link ErrorCodes#LIMIT_EXCEEDED} when the server holds the maximum
   */
  void add(Listen listen) {
    if (count.incrementAndGet() > max) {
      count.decrementAndGet();
      throw new McpException(
          ErrorCodes.LIMIT_EXCEEDED,
          "Too many subscriptions/listen streams: this server already holds "
              + max
              + " (the limit); end one before opening another",
          McpJson.object().put("limit", max));
    }
    open.add(listen);
  }

  /** Removes an ended listen (cancelled, its session closed, or ended by the server). */
  void remove(Listen listen) {
    if (open.remove(listen)) {
      count.decrementAndGet();
    }
  }

  /** A server-wide catalog of {@code area} changed: every listen that asked for it is told. */
  void listChanged(CatalogArea area) {
    for (Listen l : open) {
      l.listChanged(area);
    }
  }

  /** {@code uri} changed: every listen subscribed to it is told; returns how many. */
  int resourceUpdated(String uri) {
    int told = 0;
    for (Listen l : open) {
      if (l.resourceUpdated(uri)) {
        told++;
      }
    }
    return told;
  }

  /**
   * A task changed ({@link TaskStore#listen}, the one source of status events, whichever node
   * made the change): every listen whose {@code taskIds} name it and that may see it is told;
   * returns how many. Never blocks and never throws (a store calls it on its own thread).
   */
  int taskChanged(StoredTask task) {
    int told = 0;
    for (Listen l : open) {
      if (l.taskChanged(task)) {
        told++;
      }
    }
    return told;
  }

  /** Ends, with a {@code complete} result, every listen whose honoured filter matches; returns how many. */
  int end(Predicate<SubscriptionFilter> which) {
    int ended = 0;
    for (Listen l : open) {
      if (which.test(l.honoured())) {
        l.end();
        ended++;
      }
    }
    return ended;
  }

  /** How many listens are open. */
  int size() {
    return open.size();
  }
}
