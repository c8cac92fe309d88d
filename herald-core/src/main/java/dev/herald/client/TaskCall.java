package dev.herald.client;

import dev.herald.session.CallOptions;
import dev.herald.session.ProgressRecord;
import dev.herald.wire.CreateTaskResult;
import dev.herald.wire.McpJson;
import dev.herald.wire.ResultType;
import dev.herald.wire.TasksExtension;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import org.jspecify.annotations.Nullable;
import tools.jackson.databind.JsonNode;

/**
 * A {@code tools/call} that may become a task: the request (with its {@code input_required}
 * rounds) until the server answers, then, when the answer is a task (a 2025-11-25 {@code
 * CreateTaskResult} {@code {task}}, or {@code resultType: "task"} of the 2026-07-28 extension), a
 * {@link TaskFollower} to the final result. Cancelling before the task exists cancels the request
 * ({@code notifications/cancelled}: there is no task yet); after, it is {@code tasks/cancel}.
 *
 * <p>Thread-safe.
 */
final class TaskCall {
  private final McpClient client;
  private final InputRounds rounds;
  private final boolean modern;
  private final @Nullable TaskListener listener;
  private final @Nullable CallOptions options;
  private final long startedAt;
  private final CompletableFuture<JsonNode> result = new CompletableFuture<>();
  private final CompletableFuture<@Nullable TaskFollower> created = new CompletableFuture<>();
  private volatile @Nullable TaskFollower follower;
  private volatile @Nullable String cancelledFor;

  TaskCall(
      McpClient client,
      InputRounds rounds,
      boolean modern,
      @Nullable TaskListener listener,
      @Nullable CallOptions options,
      long startedAt) {
    this.client = client;
    this.rounds = rounds;
    this.modern = modern;
    this.listener = listener;
    this.options = options;
    this.startedAt = startedAt;
    rounds.result().whenComplete(this::answered);
  }

  /** Whether a result is a task's creation, in {@code modern} or handshake era. */
  static boolean isTask(JsonNode node, boolean modern) {
    if (modern) {
      return ResultType.TASK.equals(ResultType.of(node));
    }
    return node.get("task") instanceof tools.jackson.databind.node.ObjectNode t
        && t.has("taskId")
        && !node.has("content");
  }

  InputRounds rounds() {
    return rounds;
  }

  CompletableFuture<JsonNode> result() {
    return result;
  }

  /** Completes with the follower once the server answered: null when it answered without a task. */
  CompletableFuture<@Nullable TaskFollower> created() {
    return created;
  }

  Optional<String> taskId() {
    TaskFollower f = follower;
    return f == null ? Optional.empty() : Optional.of(f.taskId());
  }

  private void answered(@Nullable JsonNode node, @Nullable Throwable error) {
    if (error != null) {
      Throwable cause =
          error instanceof CompletionException ce && ce.getCause() != null ? ce.getCause() : error;
      created.completeExceptionally(cause);
      result.completeExceptionally(cause);
      return;
    }
    if (node == null || !isTask(node, modern)) {
      created.complete(null);
      result.complete(node);
      return;
    }
    TaskFollower f;
    TaskSnapshot first;
    try {
      String id;
      if (modern) {
        TasksExtension.CreateTaskResult c =
            McpJson.resultFromTree(node, TasksExtension.CreateTaskResult.class);
        first = TaskSnapshot.of(c);
        id = c.taskId();
      } else {
        CreateTaskResult c = McpJson.resultFromTree(node, CreateTaskResult.class);
        first = TaskSnapshot.of(c.task());
        id = c.task().taskId();
      }
      f =
          new TaskFollower(
              client, id, modern, listener, rounds.keptProgress().orElse(null), options, startedAt);
    } catch (RuntimeException e) {
      rounds.keptProgress().ifPresent(l -> l.close(ProgressRecord.Terminal.ERROR));
      created.completeExceptionally(e);
      result.completeExceptionally(e);
      return;
    }
    follower = f;
    f.result()
        .whenComplete((value, failure) -> {
          if (failure != null) {
            result.completeExceptionally(
                failure instanceof CompletionException ce && ce.getCause() != null
                    ? ce.getCause()
                    : failure);
          } else {
            result.complete(value);
          }
        });
    f.start(first, null);
    created.complete(f);
    String why = cancelledFor;
    if (why != null) {
      f.cancel(why); // cancelled while the creation was on its way
    }
  }

  boolean cancel(String reason) {
    TaskFollower f = follower;
    if (f != null) {
      return f.cancel(reason);
    }
    cancelledFor = reason;
    f = follower;
    if (f != null) {
      return f.cancel(reason);
    }
    return rounds.cancel(reason);
  }

  Optional<ProgressRecord> progressRecord() {
    TaskFollower f = follower;
    return f != null ? f.progressRecord() : rounds.progressRecord();
  }
}
