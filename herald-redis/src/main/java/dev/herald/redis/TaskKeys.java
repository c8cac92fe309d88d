package dev.herald.redis;

import dev.herald.tasks.StoredTask;
import dev.herald.tasks.TaskOwner;
import java.time.Instant;
import java.util.Optional;

/**
 * The task store's key layout, under the cluster's prefix {@code p}:
 *
 * <ul>
 *   <li>{@code p task:<id>}: one task, a hash: {@code j} its JSON, {@code v} its version, {@code n}
 *       the node that runs its handler, {@code a} 1 while it is not terminal;
 *   <li>{@code p tasks}: the set of every task id (the store's size);
 *   <li>{@code p task-expiry}: task ids by the millisecond their TTL runs out (purge);
 *   <li>{@code p task-owner:<kind>:<owner>}: an owner's tasks in listing order, a sorted set of
 *       {@link #position} strings read with {@code ZRANGEBYLEX};
 *   <li>{@code p task-active:<kind>:<owner>}: the owner's ids that are not terminal (its bound);
 *   <li>{@code p task-node:<node>}: the ids that are not terminal and whose handler runs on that
 *       node; {@code p task-nodes}: the nodes that have such a set (the sweep's list);
 *   <li>{@code p task-cursor-key}: the key that signs listing cursors, shared by the nodes;
 *   <li>channel {@code p task-changes}: every created or changed task's JSON, in commit order.
 * </ul>
 */
final class TaskKeys {
  private static final long MIN_SECOND = Instant.MIN.getEpochSecond();

  /** Beyond this many epoch seconds a millisecond score loses precision in a double. */
  private static final long MAX_SCORED_SECOND = 9_000_000_000_000L;

  private final String p;

  TaskKeys(String prefix) {
    this.p = prefix;
  }

  String task(String id) {
    return p + "task:" + id;
  }

  String taskPrefix() {
    return p + "task:";
  }

  String all() {
    return p + "tasks";
  }

  String expiry() {
    return p + "task-expiry";
  }

  String owner(TaskOwner o) {
    return p + "task-owner:" + o.kind().name().charAt(0) + ":" + o.id();
  }

  String active(TaskOwner o) {
    return p + "task-active:" + o.kind().name().charAt(0) + ":" + o.id();
  }

  String node(String nodeId) {
    return p + "task-node:" + nodeId;
  }

  String nodes() {
    return p + "task-nodes";
  }

  String cursorKey() {
    return p + "task-cursor-key";
  }

  String channel() {
    return p + "task-changes";
  }

  /**
   * A task's place in the listing order (creation time, then id) as a string whose byte order is
   * that order: 17 digits of seconds since {@link Instant#MIN}, 9 of nanoseconds, a colon, the id.
   */
  static String position(Instant createdAt, String taskId) {
    return String.format(
        "%017d%09d:%s", createdAt.getEpochSecond() - MIN_SECOND, createdAt.getNano(), taskId);
  }

  static String position(StoredTask t) {
    return position(t.createdAt(), t.taskId());
  }

  /** The id in a {@link #position}. */
  static String idOf(String position) {
    return position.substring(27);
  }

  /** Whether {@code s} has the shape of a {@link #position}. */
  static boolean isPosition(String s) {
    if (s.length() < 28 || s.charAt(26) != ':') {
      return false;
    }
    for (int i = 0; i < 26; i++) {
      if (s.charAt(i) < '0' || s.charAt(i) > '9') {
        return false;
      }
    }
    return true;
  }

  /** A task's expiry score: the millisecond its TTL runs out (rounded down), or empty. */
  static Optional<String> expiryScore(StoredTask t) {
    return t.expiresAt().map(TaskKeys::score);
  }

  /**
   * The score of an instant in milliseconds, rounded down ({@code +inf} far in the future): a task
   * that expired at {@code now} has a score at most {@code score(now)}.
   */
  static String score(Instant at) {
    if (at.getEpochSecond() > MAX_SCORED_SECOND) {
      return "+inf";
    }
    if (at.getEpochSecond() < -MAX_SCORED_SECOND) {
      return "-inf";
    }
    return Long.toString(at.getEpochSecond() * 1000 + at.getNano() / 1_000_000);
  }
}
