package dev.herald.wire;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonProperty;
import com.fasterxml.jackson.annotation.JsonSubTypes;
import com.fasterxml.jackson.annotation.JsonTypeInfo;
import org.jspecify.annotations.Nullable;
import tools.jackson.databind.node.ObjectNode;

/**
 * Wire types of the {@code io.modelcontextprotocol/tasks} extension for 2026-07-28 (SEP-2663,
 * {@code ext-tasks} schema). Unlike the 2025-11-25 core tasks, results are flat, times use
 * {@code ttlMs}/{@code pollIntervalMs}, and a task's outcome is inlined in its {@link DetailedTask}.
 * {@code tasks/get} and {@code tasks/cancel} take {@link GetTaskParams} / {@link CancelTaskParams};
 * {@code tasks/update} and {@code tasks/cancel} answer with an {@link EmptyResult}.
 */
public final class TasksExtension {
  private TasksExtension() {}

  /** The extension identifier, a key of {@code capabilities.extensions}; its settings object is {@code {}}. */
  public static final String ID = "io.modelcontextprotocol/tasks";

  /** {@code tasks/get}: answered with a {@link DetailedTask} ({@code resultType: "complete"}). */
  public static final String TASKS_GET = McpMethods.TASKS_GET;

  /** {@code tasks/update}: {@link UpdateTaskParams}, answered with an {@link EmptyResult}. */
  public static final String TASKS_UPDATE = McpMethods.TASKS_UPDATE;

  /** {@code tasks/cancel}: answered with an {@link EmptyResult}. */
  public static final String TASKS_CANCEL = McpMethods.TASKS_CANCEL;

  /** {@code notifications/tasks}: a {@link DetailedTask} as params, on a listen stream filtered by {@code taskIds}. */
  public static final String NOTIFICATION = McpMethods.TASKS_EXT_STATUS;

  /**
   * {@code CreateTaskResult} ({@code resultType: "task"}): returned by {@code tools/call} instead of
   * a {@code CallToolResult}. {@code ttlMs} is always written ({@code null} = unlimited).
   */
  public record CreateTaskResult(
      String resultType,
      String taskId,
      TaskStatus status,
      @Nullable String statusMessage,
      String createdAt,
      String lastUpdatedAt,
      @JsonInclude(JsonInclude.Include.ALWAYS) @Nullable Long ttlMs,
      @Nullable Long pollIntervalMs,
      @JsonProperty("_meta") @Nullable ObjectNode meta) {

    public CreateTaskResult {
      resultType = resultType == null ? ResultType.TASK : resultType;
      if (!ResultType.TASK.equals(resultType)) {
        throw new IllegalArgumentException(
            "resultType must be \"task\", was \"" + resultType + "\"");
      }
      java.util.Objects.requireNonNull(taskId, "taskId");
      java.util.Objects.requireNonNull(status, "status");
      java.util.Objects.requireNonNull(createdAt, "createdAt");
      java.util.Objects.requireNonNull(lastUpdatedAt, "lastUpdatedAt");
    }

    public static CreateTaskResult of(
        String taskId,
        TaskStatus status,
        String createdAt,
        @Nullable Long ttlMs,
        @Nullable Long pollIntervalMs) {
      return new CreateTaskResult(
          ResultType.TASK, taskId, status, null, createdAt, createdAt, ttlMs, pollIntervalMs, null);
    }
  }

  /** Params of {@code tasks/update}: answers to the task's outstanding input requests. */
  public record UpdateTaskParams(
      String taskId,
      InputResponses inputResponses,
      @JsonProperty("_meta") @Nullable ObjectNode meta) {
    public UpdateTaskParams {
      java.util.Objects.requireNonNull(taskId, "taskId");
      java.util.Objects.requireNonNull(inputResponses, "inputResponses");
    }

    public static UpdateTaskParams of(String taskId, InputResponses inputResponses) {
      return new UpdateTaskParams(taskId, inputResponses, null);
    }
  }

  /**
   * {@code DetailedTask}, by {@code status}: the result of {@code tasks/get} and the params of
   * {@code notifications/tasks}. {@code ttlMs} is always written ({@code null} = unlimited).
   */
  @JsonTypeInfo(use = JsonTypeInfo.Id.NAME, property = "status", visible = false)
  @JsonSubTypes({
    @JsonSubTypes.Type(value = Working.class, name = "working"),
    @JsonSubTypes.Type(value = InputRequired.class, name = "input_required"),
    @JsonSubTypes.Type(value = Completed.class, name = "completed"),
    @JsonSubTypes.Type(value = Failed.class, name = "failed"),
    @JsonSubTypes.Type(value = Cancelled.class, name = "cancelled")
  })
  public sealed interface DetailedTask {
    String taskId();

    TaskStatus status();

    @Nullable String statusMessage();

    String createdAt();

    String lastUpdatedAt();

    @Nullable Long ttlMs();

    @Nullable Long pollIntervalMs();

    @Nullable ObjectNode meta();
  }

  /** {@code status: "working"}. */
  public record Working(
      String taskId,
      @Nullable String statusMessage,
      String createdAt,
      String lastUpdatedAt,
      @JsonInclude(JsonInclude.Include.ALWAYS) @Nullable Long ttlMs,
      @Nullable Long pollIntervalMs,
      @JsonProperty("_meta") @Nullable ObjectNode meta)
      implements DetailedTask {
    public Working {
      requireCommon(taskId, createdAt, lastUpdatedAt);
    }

    @Override
    public TaskStatus status() {
      return TaskStatus.WORKING;
    }
  }

  /** {@code status: "input_required"}: every outstanding input request. */
  public record InputRequired(
      String taskId,
      @Nullable String statusMessage,
      String createdAt,
      String lastUpdatedAt,
      @JsonInclude(JsonInclude.Include.ALWAYS) @Nullable Long ttlMs,
      @Nullable Long pollIntervalMs,
      InputRequests inputRequests,
      @JsonProperty("_meta") @Nullable ObjectNode meta)
      implements DetailedTask {
    public InputRequired {
      requireCommon(taskId, createdAt, lastUpdatedAt);
      java.util.Objects.requireNonNull(inputRequests, "inputRequests");
    }

    @Override
    public TaskStatus status() {
      return TaskStatus.INPUT_REQUIRED;
    }
  }

  /** {@code status: "completed"}: the original request's result, whole (including {@code isError} tool results). */
  public record Completed(
      String taskId,
      @Nullable String statusMessage,
      String createdAt,
      String lastUpdatedAt,
      @JsonInclude(JsonInclude.Include.ALWAYS) @Nullable Long ttlMs,
      @Nullable Long pollIntervalMs,
      ObjectNode result,
      @JsonProperty("_meta") @Nullable ObjectNode meta)
      implements DetailedTask {
    public Completed {
      requireCommon(taskId, createdAt, lastUpdatedAt);
      java.util.Objects.requireNonNull(result, "result");
    }

    @Override
    public TaskStatus status() {
      return TaskStatus.COMPLETED;
    }

    /**
     * The result as a typed record, e.g. {@code resultAs(CallToolResult.class)}.
     *
     * @throws McpException with {@link ErrorCodes#INTERNAL_ERROR} when it does not fit
     */
    public <T> T resultAs(Class<T> type) {
      return McpJson.resultFromTree(result, type);
    }
  }

  /** {@code status: "failed"}: the JSON-RPC error the original request ended with. */
  public record Failed(
      String taskId,
      @Nullable String statusMessage,
      String createdAt,
      String lastUpdatedAt,
      @JsonInclude(JsonInclude.Include.ALWAYS) @Nullable Long ttlMs,
      @Nullable Long pollIntervalMs,
      JsonRpcMessage.ErrorObject error,
      @JsonProperty("_meta") @Nullable ObjectNode meta)
      implements DetailedTask {
    public Failed {
      requireCommon(taskId, createdAt, lastUpdatedAt);
      java.util.Objects.requireNonNull(error, "error");
    }

    @Override
    public TaskStatus status() {
      return TaskStatus.FAILED;
    }
  }

  /** {@code status: "cancelled"}. */
  public record Cancelled(
      String taskId,
      @Nullable String statusMessage,
      String createdAt,
      String lastUpdatedAt,
      @JsonInclude(JsonInclude.Include.ALWAYS) @Nullable Long ttlMs,
      @Nullable Long pollIntervalMs,
      @JsonProperty("_meta") @Nullable ObjectNode meta)
      implements DetailedTask {
    public Cancelled {
      requireCommon(taskId, createdAt, lastUpdatedAt);
    }

    @Override
    public TaskStatus status() {
      return TaskStatus.CANCELLED;
    }
  }

  private static void requireCommon(String taskId, String createdAt, String lastUpdatedAt) {
    java.util.Objects.requireNonNull(taskId, "taskId");
    java.util.Objects.requireNonNull(createdAt, "createdAt");
    java.util.Objects.requireNonNull(lastUpdatedAt, "lastUpdatedAt");
  }
}
