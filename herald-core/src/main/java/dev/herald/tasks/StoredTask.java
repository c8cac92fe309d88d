package dev.herald.tasks;

import dev.herald.wire.InputRequest;
import dev.herald.wire.ProtocolVersion;
import dev.herald.wire.TaskStatus;
import java.time.Duration;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import org.jspecify.annotations.Nullable;

/**
 * One task as a store keeps it, and its status machine (MCP 2025-11-25 basic/utilities/tasks,
 * "Task Status Lifecycle"): a task starts {@code working}; {@code working} and {@code
 * input_required} may move to each other or to a terminal status; {@code completed}, {@code
 * failed} and {@code cancelled} never change again. Every change returns a new record with a
 * {@link #version()} one higher and a {@link #lastUpdatedAt()} never earlier than before; a change
 * the machine forbids, or one that would change nothing, returns empty, so a store that applies
 * changes atomically lets exactly one of two racing terminal changes win and tells its listeners
 * only about real changes.
 *
 * <p>Only {@code input_required} has input requests; only {@code completed} and {@code failed} have
 * an outcome. An idle task shares everything it can: the empty input map is {@link Map#of()}.
 *
 * @param taskId the task's id: 128 bits of randomness, never reused
 * @param owner who may see it
 * @param method the request that created it ({@code tools/call})
 * @param era the protocol era it was created in; the other era's methods do not see it
 * @param status where it is in the status machine
 * @param statusMessage a human-readable note on the status, or {@code null}
 * @param createdAt when it was created
 * @param lastUpdatedAt when anything about it last changed
 * @param ttl how long it is kept after creation, positive ({@code null}: no limit)
 * @param pollInterval how often a requestor should poll it
 * @param inputRequests the input requests still waiting for an answer (2026-07-28 {@code
 *     input_required}), by key; empty otherwise
 * @param outcome the result or error, once terminal ({@code null} for {@code cancelled})
 * @param version counts changes, starting at 1
 */
public record StoredTask(
    String taskId,
    TaskOwner owner,
    String method,
    ProtocolVersion.Era era,
    TaskStatus status,
    @Nullable String statusMessage,
    Instant createdAt,
    Instant lastUpdatedAt,
    @Nullable Duration ttl,
    Duration pollInterval,
    Map<String, InputRequest> inputRequests,
    @Nullable TaskOutcome outcome,
    long version) {

  public StoredTask {
    Objects.requireNonNull(taskId, "taskId");
    Objects.requireNonNull(owner, "owner");
    Objects.requireNonNull(method, "method");
    Objects.requireNonNull(era, "era");
    Objects.requireNonNull(status, "status");
    Objects.requireNonNull(createdAt, "createdAt");
    Objects.requireNonNull(lastUpdatedAt, "lastUpdatedAt");
    Objects.requireNonNull(pollInterval, "pollInterval");
    inputRequests = Map.copyOf(inputRequests);
    if (outcome != null && status != TaskStatus.COMPLETED && status != TaskStatus.FAILED) {
      throw new IllegalArgumentException("only a completed or failed task has an outcome");
    }
    if (!inputRequests.isEmpty() && status != TaskStatus.INPUT_REQUIRED) {
      throw new IllegalArgumentException("only an input_required task has input requests");
    }
    if (ttl != null && (ttl.isNegative() || ttl.isZero())) {
      throw new IllegalArgumentException("ttl must be positive (or null: no limit), was " + ttl);
    }
    if (pollInterval.isNegative()) {
      throw new IllegalArgumentException("pollInterval must not be negative, was " + pollInterval);
    }
    if (version < 1) {
      throw new IllegalArgumentException("version starts at 1, was " + version);
    }
    if (lastUpdatedAt.isBefore(createdAt)) {
      throw new IllegalArgumentException("lastUpdatedAt is before createdAt");
    }
  }

  /** A new task, {@code working}, version 1. */
  public static StoredTask create(
      String taskId,
      TaskOwner owner,
      String method,
      ProtocolVersion.Era era,
      Instant now,
      @Nullable Duration ttl,
      Duration pollInterval) {
    return new StoredTask(
        taskId,
        owner,
        method,
        era,
        TaskStatus.WORKING,
        null,
        now,
        now,
        ttl,
        pollInterval,
        Map.of(),
        null,
        1);
  }

  /** Whether the status is terminal. */
  public boolean terminal() {
    return status.isTerminal();
  }

  /** When the store may forget it ({@code createdAt + ttl}), or empty when it has no TTL. */
  public Optional<Instant> expiresAt() {
    return ttl == null ? Optional.empty() : Optional.of(end(ttl));
  }

  /** Whether its TTL has run out at {@code now}. */
  public boolean expired(Instant now) {
    return ttl != null && !now.isBefore(end(ttl));
  }

  /** {@code createdAt + ttl}, or {@link Instant#MAX} when that lies beyond it. */
  private Instant end(Duration ttl) {
    return ttl.compareTo(Duration.between(createdAt, Instant.MAX)) >= 0
        ? Instant.MAX
        : createdAt.plus(ttl);
  }

  /**
   * A new status message, the status unchanged; empty once terminal or when the message is the
   * current one.
   */
  public Optional<StoredTask> withMessage(@Nullable String message, Instant now) {
    if (terminal() || Objects.equals(message, statusMessage)) {
      return Optional.empty();
    }
    return Optional.of(next(status, message, inputRequests, null, now));
  }

  /**
   * {@code input_required} with {@code requests} added to the outstanding ones (keys are unique
   * over the task's life); empty once terminal or when the task is already {@code input_required}
   * with these requests and this message.
   */
  public Optional<StoredTask> needInput(
      Map<String, ? extends InputRequest> requests, @Nullable String message, Instant now) {
    if (terminal()) {
      return Optional.empty();
    }
    Map<String, InputRequest> all = new LinkedHashMap<>(inputRequests);
    all.putAll(requests);
    if (status == TaskStatus.INPUT_REQUIRED
        && all.equals(inputRequests)
        && Objects.equals(message, statusMessage)) {
      return Optional.empty();
    }
    return Optional.of(next(TaskStatus.INPUT_REQUIRED, message, all, null, now));
  }

  /**
   * The answered {@code keys} removed from the outstanding input requests; back to {@code working}
   * once none is left. Unknown or already answered keys are ignored (2026-07-28 tasks extension,
   * {@code tasks/update}); empty once terminal or when none of {@code keys} is outstanding.
   */
  public Optional<StoredTask> answered(Set<String> keys, Instant now) {
    if (terminal() || keys.stream().noneMatch(inputRequests::containsKey)) {
      return Optional.empty();
    }
    Map<String, InputRequest> left = new LinkedHashMap<>(inputRequests);
    left.keySet().removeAll(keys);
    TaskStatus s = left.isEmpty() ? TaskStatus.WORKING : TaskStatus.INPUT_REQUIRED;
    return Optional.of(next(s, left.isEmpty() ? null : statusMessage, left, null, now));
  }

  /**
   * {@code working} with {@code message}, dropping any outstanding input requests (from {@code
   * input_required}, or a new message while {@code working}); empty once terminal or when already
   * {@code working} with that message.
   */
  public Optional<StoredTask> working(@Nullable String message, Instant now) {
    if (terminal() || (status == TaskStatus.WORKING && Objects.equals(message, statusMessage))) {
      return Optional.empty();
    }
    return Optional.of(next(TaskStatus.WORKING, message, Map.of(), null, now));
  }

  /**
   * Terminal with {@code outcome}: {@code failed} for an error; for a result {@code completed},
   * except that in the 2025-11-25 era a tool result with {@code isError: true} is {@code failed}
   * (2025-11-25 basic/utilities/tasks; the 2026-07-28 extension keeps it {@code completed}).
   * Empty once terminal.
   */
  public Optional<StoredTask> complete(TaskOutcome outcome, Instant now) {
    if (terminal()) {
      return Optional.empty();
    }
    TaskStatus s =
        switch (outcome) {
          case TaskOutcome.Error e -> TaskStatus.FAILED;
          case TaskOutcome.Result r ->
              era == ProtocolVersion.Era.LEGACY && isToolError(r)
                  ? TaskStatus.FAILED
                  : TaskStatus.COMPLETED;
        };
    return Optional.of(next(s, statusMessage, Map.of(), outcome, now));
  }

  /** {@code cancelled}; empty once terminal. */
  public Optional<StoredTask> cancel(@Nullable String message, Instant now) {
    if (terminal()) {
      return Optional.empty();
    }
    return Optional.of(next(TaskStatus.CANCELLED, message, Map.of(), null, now));
  }

  private static boolean isToolError(TaskOutcome.Result r) {
    var e = r.result().get("isError");
    return e != null && e.isBoolean() && e.booleanValue();
  }

  private StoredTask next(
      TaskStatus s,
      @Nullable String message,
      Map<String, InputRequest> inputs,
      @Nullable TaskOutcome out,
      Instant now) {
    Instant at = now.isBefore(lastUpdatedAt) ? lastUpdatedAt : now;
    return new StoredTask(
        taskId,
        owner,
        method,
        era,
        s,
        message,
        createdAt,
        at,
        ttl,
        pollInterval,
        inputs,
        out,
        version + 1);
  }
}
