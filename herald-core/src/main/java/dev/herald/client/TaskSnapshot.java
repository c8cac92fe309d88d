package dev.herald.client;

import dev.herald.wire.GetTaskResult;
import dev.herald.wire.Task;
import dev.herald.wire.TaskStatus;
import dev.herald.wire.TasksExtension;
import java.time.Duration;
import java.time.Instant;
import java.time.format.DateTimeParseException;
import java.util.Objects;
import org.jspecify.annotations.Nullable;

/**
 * One look at a task, the same in both protocol eras: the 2025-11-25 {@code Task} (MCP 2025-11-25
 * basic/utilities/tasks; {@code ttl} and {@code pollInterval} in ms) and the 2026-07-28 tasks
 * extension's {@code CreateTaskResult} and {@code DetailedTask} ({@code ttlMs}, {@code
 * pollIntervalMs}) all read as this.
 *
 * @param taskId the id the receiver minted
 * @param status the status at {@code lastUpdatedAt}
 * @param statusMessage the receiver's human-readable message, or {@code null}
 * @param createdAt when the task was created ({@link Instant#EPOCH} when the receiver sent an
 *     unreadable time)
 * @param lastUpdatedAt when the status last changed (same rule)
 * @param ttl how long the receiver keeps the task from its creation; {@code null}: unlimited
 * @param pollInterval how often the receiver suggests polling, or {@code null}
 */
public record TaskSnapshot(
    String taskId,
    TaskStatus status,
    @Nullable String statusMessage,
    Instant createdAt,
    Instant lastUpdatedAt,
    @Nullable Duration ttl,
    @Nullable Duration pollInterval) {

  public TaskSnapshot {
    Objects.requireNonNull(taskId, "taskId");
    Objects.requireNonNull(status, "status");
    Objects.requireNonNull(createdAt, "createdAt");
    Objects.requireNonNull(lastUpdatedAt, "lastUpdatedAt");
  }

  /** Whether no further status change may follow ({@code completed}, {@code failed}, {@code cancelled}). */
  public boolean terminal() {
    return status.isTerminal();
  }

  /** A 2025-11-25 task. */
  public static TaskSnapshot of(Task t) {
    return new TaskSnapshot(
        t.taskId(),
        t.status(),
        t.statusMessage(),
        instant(t.createdAt()),
        instant(t.lastUpdatedAt()),
        millis(t.ttl()),
        millis(t.pollInterval()));
  }

  /** A 2025-11-25 {@code tasks/get} result. */
  public static TaskSnapshot of(GetTaskResult t) {
    return of(t.task());
  }

  /** A 2026-07-28 {@code CreateTaskResult} (tasks extension). */
  public static TaskSnapshot of(TasksExtension.CreateTaskResult t) {
    return new TaskSnapshot(
        t.taskId(),
        t.status(),
        t.statusMessage(),
        instant(t.createdAt()),
        instant(t.lastUpdatedAt()),
        millis(t.ttlMs()),
        millis(t.pollIntervalMs()));
  }

  /** A 2026-07-28 {@code DetailedTask} (tasks extension), without its inlined payload. */
  public static TaskSnapshot of(TasksExtension.DetailedTask t) {
    return new TaskSnapshot(
        t.taskId(),
        t.status(),
        t.statusMessage(),
        instant(t.createdAt()),
        instant(t.lastUpdatedAt()),
        millis(t.ttlMs()),
        millis(t.pollIntervalMs()));
  }

  private static @Nullable Duration millis(@Nullable Long ms) {
    return ms == null || ms < 0 ? null : Duration.ofMillis(ms);
  }

  private static Instant instant(String iso) {
    try {
      return Instant.parse(iso);
    } catch (DateTimeParseException e) {
      try {
        return java.time.OffsetDateTime.parse(iso).toInstant();
      } catch (DateTimeParseException again) {
        return Instant.EPOCH;
      }
    }
  }
}
