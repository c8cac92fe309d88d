package dev.herald.internal.session;

import dev.herald.session.ProgressRecord;
import dev.herald.session.ProgressRejection;
import dev.herald.wire.ProgressNotificationParams;
import dev.herald.wire.ProgressToken;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import org.jspecify.annotations.Nullable;

/**
 * The receiver's registry of progress tokens for one session (docs/notifications.md, "The
 * receiver's rules"; MCP 2025-11-25 basic/utilities/progress). A token is registered when its
 * request is sent and closed exactly once when the request ends; a bounded set of tombstones then
 * tells a late update from an unknown one. An update is
 * only ever applied to the row that owns its token.
 *
 * <p>Thread-safe: the active map is concurrent; it and the tombstones (both made on first use)
 * are changed under the registry's own monitor, which nothing outside this class takes.
 */
public final class ProgressRegistry {
  /** How many closed tokens are remembered to tell "late" from "unknown". */
  public static final int TOMBSTONES = 1024;

  // Made on the first registration (under this registry's monitor), since most sessions never
  // send a request with a token; volatile, so updates read it without the monitor.
  private volatile @Nullable ConcurrentHashMap<ProgressToken, ProgressTracker> active;
  // Guarded by this registry's monitor (short, non-blocking sections: no ReentrantLock per
  // session); made on the first close.
  private @Nullable LinkedHashMap<ProgressToken, Tombstone> tombstones;

  /** What is kept of a closed token for a short diagnostic window. */
  record Tombstone(ProgressRecord.Terminal terminal, @Nullable Double finalProgress) {}

  /**
   * Registers a token for a request about to be sent.
   *
   * @throws IllegalStateException if the token is already active (tokens must be unique among active requests)
   */
  public void register(ProgressTracker tracker) {
    // under the registry's monitor, so that an update looking for its token's tombstone sees
    // the token either still closed or already taken up again, never neither (see onProgress)
    synchronized (this) {
      ConcurrentHashMap<ProgressToken, ProgressTracker> a = active;
      if (a == null) {
        a = new ConcurrentHashMap<>(2);
        active = a;
      }
      if (a.putIfAbsent(tracker.token(), tracker) != null) {
        throw new IllegalStateException("progress token already active: " + tracker.token());
      }
      if (tombstones != null) {
        tombstones.remove(tracker.token());
      }
    }
  }

  /**
   * Routes an arriving update to the tracker that owns its token; empty when accepted. The
   * session reports the verdict to its {@link EventListener}.
   */
  public Optional<ProgressRejection> onProgress(ProgressNotificationParams params) {
    ConcurrentHashMap<ProgressToken, ProgressTracker> a = active;
    ProgressTracker tracker = a == null ? null : a.get(params.progressToken());
    if (tracker == null) {
      synchronized (this) {
        // Looked up again: a request may have taken the token up (and removed its tombstone)
        // since the first look, and this update then belongs to it (neither late nor unknown).
        a = active;
        tracker = a == null ? null : a.get(params.progressToken());
        if (tracker == null) {
          return Optional.of(
              tombstones != null && tombstones.containsKey(params.progressToken())
                  ? ProgressRejection.LATE
                  : ProgressRejection.UNKNOWN);
        }
      }
    }
    return tracker.accept(params);
  }

  /** Closes a token once: final flush, then a tombstone. */
  public void close(ProgressTracker tracker, ProgressRecord.Terminal how) {
    if (!tracker.close(how)) {
      return;
    }
    synchronized (this) {
      if (tombstones == null) {
        tombstones =
            new LinkedHashMap<>(64, 0.75f, false) {
              @Override
              protected boolean removeEldestEntry(Map.Entry<ProgressToken, Tombstone> eldest) {
                return size() > TOMBSTONES;
              }
            };
      }
      tombstones.put(tracker.token(), new Tombstone(how, tracker.lastValue()));
    }
    ConcurrentHashMap<ProgressToken, ProgressTracker> a = active;
    if (a != null) {
      a.remove(tracker.token(), tracker);
    }
  }

  boolean isActive(ProgressToken token) {
    ConcurrentHashMap<ProgressToken, ProgressTracker> a = active;
    return a != null && a.containsKey(token);
  }

  int activeCount() {
    ConcurrentHashMap<ProgressToken, ProgressTracker> a = active;
    return a == null ? 0 : a.size();
  }
}
