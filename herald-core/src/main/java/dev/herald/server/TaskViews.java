package dev.herald.server;

import dev.herald.tasks.StoredTask;
import dev.herald.tasks.TaskOutcome;
import dev.herald.wire.ErrorCodes;
import dev.herald.wire.InputRequests;
import dev.herald.wire.JsonRpcMessage;
import dev.herald.wire.McpJson;
import dev.herald.wire.MetaKeys;
import dev.herald.wire.ResultType;
import dev.herald.wire.TasksExtension;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import org.jspecify.annotations.Nullable;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * How a task at rest ({@link StoredTask}) looks on the wire, in both task models. Pure functions:
 * no store, no session, no clock.
 *
 * <ul>
 *   <li>2026-07-28 {@code io.modelcontextprotocol/tasks} extension (SEP-2663, {@code ext-tasks}
 *       schema): {@link #created} is the flat {@code CreateTaskResult} ({@code resultType: "task"},
 *       {@code ttlMs}, {@code pollIntervalMs}, never {@code requestState}, {@code inputRequests},
 *       {@code result} or {@code error}); {@link #detailed} is the {@code DetailedTask} of {@code
 *       tasks/get} and {@code notifications/tasks}: every outstanding input request while {@code
 *       input_required}, the original result inlined when {@code completed} (a tool result with
 *       {@code isError: true} included, without the 2025-11-25 related-task {@code _meta}), the
 *       JSON-RPC error when {@code failed}; {@link #getResult} is that with {@code resultType:
 *       "complete"}.
 *   <li>2025-11-25 core tasks: the flat {@code Task} ({@code ttl}, {@code pollInterval}) is
 *       {@link LegacyTasks#task}, the one view the handshake-era wire uses.
 * </ul>
 *
 * Times are ISO 8601 instants in UTC with millisecond precision; durations are integer
 * milliseconds ({@code ttlMs} {@code null} for a task kept without limit, a poll
 * interval at least 1).
 */
final class TaskViews {
  private TaskViews() {}

  /** The 2026-07-28 {@code CreateTaskResult} answering the request that created {@code task}. */
  static TasksExtension.CreateTaskResult created(StoredTask task) {
    return new TasksExtension.CreateTaskResult(
        ResultType.TASK,
        task.taskId(),
        task.status(),
        task.statusMessage(),
        time(task.createdAt()),
        time(task.lastUpdatedAt()),
        ttl(task),
        pollInterval(task),
        null);
  }

  /** The 2026-07-28 {@code DetailedTask} of {@code task}, by status. */
  static TasksExtension.DetailedTask detailed(StoredTask task) {
    String id = task.taskId();
    String message = task.statusMessage();
    String created = time(task.createdAt());
    String updated = time(task.lastUpdatedAt());
    Long ttl = ttl(task);
    Long poll = pollInterval(task);
    return switch (task.status()) {
      case WORKING -> new TasksExtension.Working(id, message, created, updated, ttl, poll, null);
      case INPUT_REQUIRED ->
          new TasksExtension.InputRequired(
              id,
              message,
              created,
              updated,
              ttl,
              poll,
              InputRequests.of(task.inputRequests()),
              null);
      case COMPLETED ->
          switch (task.outcome()) {
            case TaskOutcome.Result r ->
                new TasksExtension.Completed(
                    id, message, created, updated, ttl, poll, inlined(r.result()), null);
            case TaskOutcome.Error e ->
                new TasksExtension.Failed(
                    id, message, created, updated, ttl, poll, e.error(), null);
            case null ->
                new TasksExtension.Completed(
                    id, message, created, updated, ttl, poll, emptyToolResult(), null);
          };
      case FAILED ->
          new TasksExtension.Failed(
              id, message, created, updated, ttl, poll, failure(task.outcome()), null);
      case CANCELLED ->
          new TasksExtension.Cancelled(id, message, created, updated, ttl, poll, null);
    };
  }

  /** The result of a 2026-07-28 {@code tasks/get}: {@link #detailed} with {@code resultType: "complete"}. */
  static ObjectNode getResult(StoredTask task) {
    ObjectNode tree = (ObjectNode) McpJson.toTree(detailed(task));
    ResultType.stamp(tree, ResultType.COMPLETE);
    return tree;
  }

  /** An ISO 8601 instant, UTC, milliseconds. */
  static String time(Instant at) {
    return at.truncatedTo(ChronoUnit.MILLIS).toString();
  }

  private static @Nullable Long ttl(StoredTask task) {
    Duration ttl = task.ttl();
    return ttl == null ? null : ttl.toMillis();
  }

  private static Long pollInterval(StoredTask task) {
    return Math.max(1, task.pollInterval().toMillis());
  }

  /**
   * The original result as the extension inlines it: a copy without the 2025-11-25 related-task
   * {@code _meta} (the task id is at the root already), and without an emptied {@code _meta}.
   */
  private static ObjectNode inlined(ObjectNode result) {
    ObjectNode copy = result.deepCopy();
    if (copy.get("_meta") instanceof ObjectNode meta && meta.has(MetaKeys.RELATED_TASK)) {
      meta.remove(MetaKeys.RELATED_TASK);
      if (meta.isEmpty()) {
        copy.remove("_meta");
      }
    }
    return copy;
  }

  private static ObjectNode emptyToolResult() {
    ObjectNode r = McpJson.object();
    r.putArray("content");
    return r;
  }

  /**
   * The error of a failed task. A failed task ends with a JSON-RPC error; a 2025-11-25 task that
   * failed with a tool result ({@code isError}) has none, so it is described as an internal error
   * carrying that result.
   */
  private static JsonRpcMessage.ErrorObject failure(@Nullable TaskOutcome outcome) {
    return switch (outcome) {
      case TaskOutcome.Error e -> e.error();
      case TaskOutcome.Result r ->
          new JsonRpcMessage.ErrorObject(
              ErrorCodes.INTERNAL_ERROR, "Internal error: the tool reported an error", r.result());
      case null ->
          new JsonRpcMessage.ErrorObject(
              ErrorCodes.INTERNAL_ERROR, "Internal error: the task failed", (JsonNode) null);
    };
  }
}
