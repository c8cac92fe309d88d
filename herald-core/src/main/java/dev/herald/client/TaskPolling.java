package dev.herald.client;

import java.time.Duration;
import org.jspecify.annotations.Nullable;

/**
 * When the client polls a task it follows (MCP 2025-11-25 basic/utilities/tasks: requestors
 * SHOULD respect {@code pollInterval}; the 2026-07-28 tasks extension: {@code pollIntervalMs}):
 * at the receiver's suggested interval (1 s when it suggests none, never faster than 50 ms), and,
 * while polls see no change and no status notification arrives, half as often again after each
 * quiet poll, up to eight times the interval and at most 30 s (never less than the interval
 * itself). A change or a notification starts the interval over.
 *
 * <p>Pure arithmetic; not thread-safe on its own (the follower holds its lock).
 */
final class TaskPolling {
  static final Duration DEFAULT_INTERVAL = Duration.ofSeconds(1);
  static final Duration FLOOR = Duration.ofMillis(50);
  static final Duration CEILING = Duration.ofSeconds(30);
  static final int MAX_FACTOR = 8;

  private Duration interval = DEFAULT_INTERVAL;
  private int quiet;

  /** The receiver's latest suggestion (null: keep the current one). */
  void suggested(@Nullable Duration pollInterval) {
    if (pollInterval != null) {
      interval = pollInterval.compareTo(FLOOR) < 0 ? FLOOR : pollInterval;
    }
  }

  /** A poll saw nothing new. */
  void quietPoll() {
    quiet = Math.min(quiet + 1, 32);
  }

  /** Something new arrived (a poll saw a change, or a notification came). */
  void heard() {
    quiet = 0;
  }

  Duration interval() {
    return interval;
  }

  /** The delay before the next poll. */
  Duration next() {
    double factor = Math.min(Math.pow(1.5, quiet), MAX_FACTOR);
    Duration d = Duration.ofNanos((long) (interval.toNanos() * factor));
    Duration cap = interval.compareTo(CEILING) > 0 ? interval : CEILING;
    return d.compareTo(cap) > 0 ? cap : d;
  }
}
