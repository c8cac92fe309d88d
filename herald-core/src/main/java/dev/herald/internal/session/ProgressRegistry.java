package dev.herald.internal.session;

import dev.herald.session.ProgressRecord;
import dev.herald.session.ProgressRejection;
import dev.herald.wire.ProgressNotificationParams;
import dev.herald.wire.ProgressToken;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import org.jspecify.annotations.Nullable;

/**
 * The receiver's registry of progress tokens for one session (seed 003, DESIGN "Progress, both
 * ends"). A token is registered when its request is sent and closed exactly once when the request
 * ends; a bounded set of tombstones then tells a late update from an unknown one. An update is
 * only ever applied to the row that owns its token.
 *
 * <p>Thread-safe: the active map is concurrent; tombstones are guarded by their own monitor.
 */
public final class ProgressRegistry {
  /** How many closed tokens are remembered to tell "late" from "unknown". */
  public static final int TOMBSTONES = 1024;

  private final ConcurrentHashMap<ProgressToken, ProgressTracker> active = new ConcurrentHashMap<>();
  // guarded by its own monitor (short, non-blocking sections: no ReentrantLock per session)
  private final LinkedHashMap<ProgressToken, Tombstone> tombstones =
      new LinkedHashMap<>(64, 0.75f, false) {
        @Override
        protected boolean removeEldestEntry(Map.Entry<ProgressToken, Tombstone> eldest) {
          return size() > TOMBSTONES;
        }
      };
  private volatile long unknown; // bumped through UNKNOWN: no counter object per session
  private volatile long late; // bumped through LATE
  private static final VarHandle UNKNOWN;
  private static final VarHandle LATE;

  static {
    try {
      UNKNOWN = MethodHandles.lookup().findVarHandle(ProgressRegistry.class, "unknown", long.class);
      LATE = MethodHandles.lookup().findVarHandle(ProgressRegistry.class, "late", long.class);
    } catch (ReflectiveOperationException e) {
      throw new ExceptionInInitializerError(e);
    }
  }

  /** What is kept of a closed token for a short diagnostic window. */
  record Tombstone(ProgressRecord.Terminal terminal, @Nullable Double finalProgress) {}

  /**
   * Registers a token for a request about to be sent.
   *
   * @throws IllegalStateException if the token is already active (tokens must be unique among active requests)
   */
  public void register(ProgressTracker tracker) {
    if (active.putIfAbsent(tracker.token(), tracker) != null) {
      throw new IllegalStateException("progress token already active: " + tracker.token());
    }
    synchronized (tombstones) {
      tombstones.remove(tracker.token());
    }
  }

  /** Routes an arriving update to the tracker that owns its token; empty when accepted. */
  public Optional<ProgressRejection> onProgress(ProgressNotificationParams params) {
    ProgressTracker tracker = active.get(params.progressToken());
    if (tracker == null) {
      boolean wasClosed;
      synchronized (tombstones) {
        wasClosed = tombstones.containsKey(params.progressToken());
      }
      (wasClosed ? LATE : UNKNOWN).getAndAdd(this, 1L);
      return Optional.of(wasClosed ? ProgressRejection.LATE : ProgressRejection.UNKNOWN);
    }
    Optional<ProgressRejection> verdict = tracker.accept(params);
    if (verdict.isPresent() && verdict.get() == ProgressRejection.LATE) {
      LATE.getAndAdd(this, 1L);
    }
    return verdict;
  }

  /** Closes a token once: final flush, then a tombstone. */
  public void close(ProgressTracker tracker, ProgressRecord.Terminal how) {
    if (!tracker.close(how)) {
      return;
    }
    synchronized (tombstones) {
      tombstones.put(tracker.token(), new Tombstone(how, tracker.lastValue()));
    }
    active.remove(tracker.token(), tracker);
  }

  boolean isActive(ProgressToken token) {
    return active.containsKey(token);
  }

  int activeCount() {
    return active.size();
  }

  long unknownCount() {
    return unknown;
  }

  long lateCount() {
    return late;
  }
}
