package dev.herald.server;

import dev.herald.wire.ErrorCodes;
import dev.herald.wire.McpException;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.locks.ReentrantLock;

/**
 * Resource subscriptions, per (session, uri), legacy era ({@code resources/subscribe}; MCP
 * 2025-11-25 server/resources, "Subscriptions"): {@code resources/updated} goes only to the
 * subscribers of that uri (docs/notifications.md, "Routing").
 *
 * <p>Design note. Two indexes under one lock: by session (for the per-session cap and for dropping
 * everything when the session ends) and by uri (for fan-out). The lock guards only map updates;
 * notifications are written after it is released, to a snapshot of the subscribers. A session that
 * ends while subscribing is dropped again right after, so no subscription outlives its session.
 *
 * <p>Thread-safe.
 */
final class Subscriptions {
  static final int DEFAULT_MAX_PER_SESSION = 100;

  private final int maxPerSession;
  private final ReentrantLock lock = new ReentrantLock();
  private final Map<ServerSession, Set<String>> bySession = new HashMap<>(); // guarded by lock
  private final Map<String, Set<ServerSession>> byUri = new HashMap<>(); // guarded by lock

  Subscriptions(int maxPerSession) {
    this.maxPerSession = maxPerSession;
  }

  /**
   * Subscribes; subscribing twice to one uri is one subscription.
   *
   * @throws McpException {@link ErrorCodes#LIMIT_EXCEEDED} when the session holds the maximum
   */
  void subscribe(ServerSession session, String uri) {
    lock.lock();
    try {
      Set<String> uris = bySession.computeIfAbsent(session, s -> new LinkedHashSet<>());
      if (!uris.contains(uri)) {
        if (uris.size() >= maxPerSession) {
          throw new McpException(
              ErrorCodes.LIMIT_EXCEEDED,
              "Too many subscriptions: this session already holds "
                  + uris.size()
                  + " (the limit is "
                  + maxPerSession
                  + "); unsubscribe from one first");
        }
        uris.add(uri);
        byUri.computeIfAbsent(uri, u -> new LinkedHashSet<>()).add(session);
      }
    } finally {
      lock.unlock();
    }
    if (!session.engine().isOpen()) {
      drop(session);
    }
  }

  /** Returns false if the session held no subscription to {@code uri}. */
  boolean unsubscribe(ServerSession session, String uri) {
    lock.lock();
    try {
      Set<String> uris = bySession.get(session);
      if (uris == null || !uris.remove(uri)) {
        return false;
      }
      if (uris.isEmpty()) {
        bySession.remove(session);
      }
      removeFromUri(uri, session);
      return true;
    } finally {
      lock.unlock();
    }
  }

  /** Drops every subscription of a session (it ended). */
  void drop(ServerSession session) {
    lock.lock();
    try {
      Set<String> uris = bySession.remove(session);
      if (uris != null) {
        for (String uri : uris) {
          removeFromUri(uri, session);
        }
      }
    } finally {
      lock.unlock();
    }
  }

  List<ServerSession> subscribers(String uri) {
    lock.lock();
    try {
      Set<ServerSession> s = byUri.get(uri);
      return s == null ? List.of() : List.copyOf(s);
    } finally {
      lock.unlock();
    }
  }

  boolean isSubscribed(ServerSession session, String uri) {
    lock.lock();
    try {
      Set<String> uris = bySession.get(session);
      return uris != null && uris.contains(uri);
    } finally {
      lock.unlock();
    }
  }

  Set<String> of(ServerSession session) {
    lock.lock();
    try {
      Set<String> uris = bySession.get(session);
      return uris == null ? Set.of() : Set.copyOf(uris);
    } finally {
      lock.unlock();
    }
  }

  private void removeFromUri(String uri, ServerSession session) {
    Set<ServerSession> sessions = byUri.get(uri);
    if (sessions != null) {
      sessions.remove(session);
      if (sessions.isEmpty()) {
        byUri.remove(uri);
      }
    }
  }
}
