package dev.herald.client;

import dev.herald.internal.session.InboundCall;
import dev.herald.internal.session.SessionEngine;
import dev.herald.session.CancellationToken;
import dev.herald.session.ProgressReporter;
import dev.herald.wire.CreateTaskResult;
import dev.herald.wire.ErrorCodes;
import dev.herald.wire.GetTaskResult;
import dev.herald.wire.ListTasksResult;
import dev.herald.wire.McpException;
import dev.herald.wire.McpJson;
import dev.herald.wire.McpMethods;
import dev.herald.wire.MetaKeys;
import dev.herald.wire.RelatedTaskMetadata;
import dev.herald.wire.RequestId;
import dev.herald.wire.Task;
import dev.herald.wire.TaskMetadata;
import dev.herald.wire.TaskStatus;
import dev.herald.wire.TaskStatusNotificationParams;
import java.security.SecureRandom;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.locks.ReentrantLock;
import org.jspecify.annotations.Nullable;
import tools.jackson.databind.node.ObjectNode;

/**
 * The tasks this client runs for its server (MCP 2025-11-25 basic/utilities/tasks, the client as
 * receiver of a task-augmented {@code sampling/createMessage} or {@code elicitation/create}).
 *
 * <p>Design note. A task-augmented request is answered at once with a {@code CreateTaskResult}
 * (the task is in the table before the answer leaves, so a {@code tasks/get} for it succeeds);
 * the host's handler runs on a virtual thread of its own. The task moves {@code working} to
 * {@code completed} (the handler's result), {@code failed} (its JSON-RPC error) or {@code
 * cancelled} ({@code tasks/cancel}, which trips the handler's cancellation token first); each
 * change is sent as {@code notifications/tasks/status}. {@code tasks/result} blocks until the
 * task is terminal and answers the original result with related-task meta, or the original
 * error. Ids are 128-bit random; at most {@link #MAX_TASKS} tasks are kept (the oldest terminal
 * ones go first; none fit: -32603), each for its {@code ttl} (asked, at most {@link #MAX_TTL};
 * default {@link #DEFAULT_TTL}), then purged and unknown (-32602). The requestor is the one
 * server of the session, so {@code tasks/list} lists them all.
 *
 * <p>Thread-safe: each task's state is guarded by its own lock.
 */
final class HostedTasks {
  static final int MAX_TASKS = 64;
  static final Duration DEFAULT_TTL = Duration.ofMinutes(10);
  static final Duration MAX_TTL = Duration.ofHours(1);
  static final Duration POLL_INTERVAL = Duration.ofMillis(500);
  private static final SecureRandom RANDOM = new SecureRandom();

  /** The host's work for one task: the handler's result as a wire object. */
  @FunctionalInterface
  interface Work {
    Object run(ClientRequestContext context) throws Exception;
  }

  private final Map<String, Hosted> tasks = new ConcurrentHashMap<>();

  /** Creates a task for {@code call}, starts {@code work} and answers with the task at once. */
  CreateTaskResult create(InboundCall call, TaskMetadata asked, Work work) {
    purge();
    if (tasks.size() >= MAX_TASKS) {
      evictOneTerminal();
      if (tasks.size() >= MAX_TASKS) {
        throw new McpException(
            ErrorCodes.INTERNAL_ERROR, "this client runs " + MAX_TASKS + " tasks already");
      }
    }
    long ttl =
        asked.ttl() == null || asked.ttl() <= 0
            ? DEFAULT_TTL.toMillis()
            : Math.min(asked.ttl(), MAX_TTL.toMillis());
    String id = HexFormat.of().formatHex(bytes());
    Hosted h = new Hosted(id, ttl, call.session());
    tasks.put(id, h);
    Task first = h.task();
    Thread.ofVirtual().name("herald-hosted-task").start(() -> h.run(call.id(), work));
    return CreateTaskResult.of(first);
  }

  private static byte[] bytes() {
    byte[] b = new byte[16];
    RANDOM.nextBytes(b);
    return b;
  }

  GetTaskResult get(String taskId) {
    return GetTaskResult.of(find(taskId).task());
  }

  /** Blocks until the task is terminal: the original result with related-task meta, or its error. */
  ObjectNode result(String taskId) throws InterruptedException {
    Hosted h = find(taskId);
    try {
      ObjectNode out = h.outcome.get().deepCopy();
      ObjectNode meta = out.get("_meta") instanceof ObjectNode m ? m : out.putObject("_meta");
      meta.set(MetaKeys.RELATED_TASK, McpJson.toTree(RelatedTaskMetadata.of(taskId)));
      return out;
    } catch (ExecutionException e) {
      if (e.getCause() instanceof McpException m) {
        throw m;
      }
      throw McpException.internal(String.valueOf(e.getCause()));
    }
  }

  ListTasksResult list() {
    purge();
    List<Task> all = new ArrayList<>();
    tasks.values().stream()
        .sorted((a, b) -> a.createdAt.compareTo(b.createdAt))
        .forEach(h -> all.add(h.task()));
    return ListTasksResult.of(all, null);
  }

  /** Moves the task to cancelled before answering (-32602 when it is already terminal). */
  GetTaskResult cancel(String taskId) {
    Hosted h = find(taskId);
    if (!h.end(TaskStatus.CANCELLED, null, cancelledError(), "cancelled by the requestor")) {
      throw new McpException(
          ErrorCodes.INVALID_PARAMS, "task " + taskId + " is already " + h.task().status().wire());
    }
    return GetTaskResult.of(h.task());
  }

  private static McpException cancelledError() {
    return new McpException(ErrorCodes.INTERNAL_ERROR, "the task was cancelled");
  }

  private Hosted find(String taskId) {
    purge();
    Hosted h = tasks.get(taskId);
    if (h == null) {
      throw new McpException(ErrorCodes.INVALID_PARAMS, "unknown task: " + taskId);
    }
    return h;
  }

  private void purge() {
    Instant now = Instant.now();
    tasks.values().removeIf(h -> h.createdAt.plusMillis(h.ttlMs).isBefore(now));
  }

  private void evictOneTerminal() {
    tasks.values().stream()
        .filter(h -> h.task().terminal())
        .min((a, b) -> a.createdAt.compareTo(b.createdAt))
        .ifPresent(h -> tasks.remove(h.id, h));
  }

  /** How many tasks the client keeps (for tests). */
  int size() {
    return tasks.size();
  }

  /** One task the client runs. */
  private static final class Hosted {
    final String id;
    final long ttlMs;
    final Instant createdAt = Instant.now();
    final SessionEngine session;
    final CompletableFuture<ObjectNode> outcome = new CompletableFuture<>();
    final Token token = new Token();
    private final ReentrantLock lock = new ReentrantLock();
    // guarded by lock
    private TaskStatus status = TaskStatus.WORKING;
    private @Nullable String message;
    private Instant updatedAt = createdAt;

    Hosted(String id, long ttlMs, SessionEngine session) {
      this.id = id;
      this.ttlMs = ttlMs;
      this.session = session;
    }

    Task task() {
      lock.lock();
      try {
        return new Task(
            id,
            status,
            message,
            createdAt.toString(),
            updatedAt.toString(),
            ttlMs,
            POLL_INTERVAL.toMillis());
      } finally {
        lock.unlock();
      }
    }

    void run(RequestId request, Work work) {
      ClientRequestContext context =
          new ClientRequestContext() {
            @Override
            public RequestId requestId() {
              return request;
            }

            @Override
            public CancellationToken cancellation() {
              return token;
            }

            @Override
            public ProgressReporter progress() {
              return ProgressReporter.NONE;
            }
          };
      try {
        Object result = work.run(context);
        ObjectNode tree = McpJson.toObject(result);
        end(TaskStatus.COMPLETED, tree == null ? McpJson.object() : tree, null, null);
      } catch (McpException e) {
        end(TaskStatus.FAILED, null, e, e.getMessage());
      } catch (Exception e) {
        end(TaskStatus.FAILED, null, McpException.internal(String.valueOf(e)), String.valueOf(e));
      }
    }

    /** Moves to a terminal status once; false if it already was terminal. */
    boolean end(
        TaskStatus to,
        @Nullable ObjectNode result,
        @Nullable McpException error,
        @Nullable String why) {
      Task now;
      lock.lock();
      try {
        if (status.isTerminal()) {
          return false;
        }
        status = to;
        message = why;
        updatedAt = Instant.now();
      } finally {
        lock.unlock();
      }
      if (to == TaskStatus.CANCELLED) {
        token.cancelNow("cancelled by the requestor");
      }
      if (result != null) {
        outcome.complete(result);
      } else {
        outcome.completeExceptionally(error == null ? McpException.internal("no result") : error);
      }
      now = task();
      try {
        session.notify(
            McpMethods.TASKS_STATUS, McpJson.toObject(TaskStatusNotificationParams.of(now)), null);
      } catch (RuntimeException e) {
        // the session ended: the status stays readable for tasks/get while the client lives
      }
      return true;
    }
  }

  /** The handler's cancellation, tripped by {@code tasks/cancel}. */
  private static final class Token extends CancellationToken {
    void cancelNow(String reason) {
      cancel(reason);
    }
  }
}
