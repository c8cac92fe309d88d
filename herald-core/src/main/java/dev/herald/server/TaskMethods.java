package dev.herald.server;

import dev.herald.internal.session.InboundCall;
import dev.herald.tasks.StoredTask;
import dev.herald.tasks.TaskOutcome;
import dev.herald.tasks.TaskOwner;
import dev.herald.tasks.TaskStore;
import dev.herald.wire.CancelTaskParams;
import dev.herald.wire.CancelTaskResult;
import dev.herald.wire.GetTaskParams;
import dev.herald.wire.GetTaskPayloadParams;
import dev.herald.wire.GetTaskPayloadResult;
import dev.herald.wire.GetTaskResult;
import dev.herald.wire.ListTasksResult;
import dev.herald.wire.McpException;
import dev.herald.wire.McpMethods;
import dev.herald.wire.PaginatedParams;
import dev.herald.wire.ProtocolVersion;
import dev.herald.wire.Task;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import org.jspecify.annotations.Nullable;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * {@code tasks/get}, {@code tasks/result}, {@code tasks/list} and {@code tasks/cancel} of the
 * handshake era (MCP 2025-11-25 basic/utilities/tasks). Only the requestor's tasks exist for it
 * (its session, or its principal): another's, an expired or a 2026-07-28 task is -32602 exactly as
 * an unknown id. Runs on the request's virtual thread; {@code tasks/result} and a held-open {@code
 * tasks/get} block it until the task is terminal (cancelling the request frees it).
 *
 * <p>A {@code tasks/get} whose {@code _meta["dev.herald/follow"]} is {@code true} is held open: each
 * status change of the task is sent on this request's own stream as {@code
 * notifications/tasks/status} (related to the request, so on stdio too), and the request is
 * answered with the task once it is terminal. The session's standing stream gets the
 * notifications as well ({@link LegacyTasks}).
 *
 * <p>The 2026-07-28 {@code tasks/get} and {@code tasks/cancel} share these rows: a stateless
 * request is answered by the tasks extension, not here.
 */
final class TaskMethods {
  private TaskMethods() {}

  /** The {@code _meta} key that asks a {@code tasks/get} to be held open until the task ends. */
  static final String FOLLOW = "dev.herald/follow";

  static GetTaskResult get(ServerSession session, GetTaskParams p, InboundCall call)
      throws InterruptedException {
    TaskRuntime runtime = session.server().taskRuntime;
    TaskOwner owner = runtime.owner(session, call);
    StoredTask now = require(runtime, owner, p.taskId());
    if (!follows(p.meta()) || now.terminal()) {
      return GetTaskResult.of(LegacyTasks.task(now));
    }
    return GetTaskResult.of(LegacyTasks.task(follow(runtime, owner, now, call)));
  }

  private static boolean follows(@Nullable ObjectNode meta) {
    JsonNode f = meta == null ? null : meta.get(FOLLOW);
    return f != null && f.isBoolean() && f.booleanValue();
  }

  /** Sends every change of the task on this request's stream until it is terminal. */
  private static StoredTask follow(
      TaskRuntime runtime, TaskOwner owner, StoredTask start, InboundCall call)
      throws InterruptedException {
    LinkedBlockingQueue<StoredTask> changes = new LinkedBlockingQueue<>();
    String id = start.taskId();
    AutoCloseable handle =
        runtime.observe(t -> {
          if (t.taskId().equals(id)) {
            changes.add(t);
          }
        });
    try {
      StoredTask current = require(runtime, owner, id); // changes from here on are queued
      long pollMillis = Math.max(100, current.pollInterval().toMillis());
      while (!current.terminal()) {
        StoredTask next = changes.poll(pollMillis, TimeUnit.MILLISECONDS);
        if (next == null) {
          next = require(runtime, owner, id); // it may have expired
          if (next.version() <= current.version()) {
            continue;
          }
        } else if (next.version() <= current.version()) {
          continue;
        }
        call.notify(McpMethods.TASKS_STATUS, LegacyTasks.statusParams(next));
        current = next;
      }
      return current;
    } finally {
      try {
        handle.close();
      } catch (Exception e) {
        // removing an observer cannot fail
      }
    }
  }

  static GetTaskPayloadResult result(
      ServerSession session, GetTaskPayloadParams p, InboundCall call) throws InterruptedException {
    TaskRuntime runtime = session.server().taskRuntime;
    TaskOwner owner = runtime.owner(session, call);
    require(runtime, owner, p.taskId());
    StoredTask done;
    try {
      done = runtime.whenTerminal(owner, p.taskId()).get();
    } catch (ExecutionException e) {
      if (e.getCause() instanceof McpException m) {
        throw m;
      }
      throw McpException.internal("Internal error");
    }
    return switch (done.outcome()) {
      case TaskOutcome.Result r -> GetTaskPayloadResult.of(r.result(), done.taskId());
      case TaskOutcome.Error e -> throw McpException.fromError(e.error());
      case null ->
          throw McpException.invalidParams(
              "Task " + done.taskId() + " was cancelled: it has no result");
    };
  }

  static ListTasksResult list(ServerSession session, PaginatedParams p, InboundCall call) {
    TaskRuntime runtime = session.server().taskRuntime;
    TaskOwner owner = runtime.owner(session, call);
    TaskStore.Page page;
    try {
      page =
          runtime
              .store()
              .list(owner, p.cursor(), session.server().pagination.pageSize(), runtime.now());
    } catch (IllegalArgumentException e) {
      throw McpException.invalidParams("Invalid cursor");
    }
    List<Task> tasks = new ArrayList<>(page.tasks().size());
    for (StoredTask t : page.tasks()) {
      if (t.era() == ProtocolVersion.Era.LEGACY) {
        tasks.add(LegacyTasks.task(t));
      }
    }
    return ListTasksResult.of(tasks, page.nextCursor());
  }

  static CancelTaskResult cancel(ServerSession session, CancelTaskParams p, InboundCall call) {
    TaskRuntime runtime = session.server().taskRuntime;
    TaskOwner owner = runtime.owner(session, call);
    require(runtime, owner, p.taskId());
    TaskStore.Change change = runtime.cancel(owner, p.taskId(), "Cancelled by the client");
    if (!change.changed()) {
      throw McpException.invalidParams(
          "Task "
              + p.taskId()
              + " is already "
              + change.after().status().wire()
              + " and cannot be cancelled");
    }
    return CancelTaskResult.of(LegacyTasks.task(change.after()));
  }

  /** The requestor's handshake-era task, or -32602 as for an unknown id. */
  private static StoredTask require(TaskRuntime runtime, TaskOwner owner, String taskId) {
    StoredTask t = runtime.require(owner, taskId);
    if (t.era() != ProtocolVersion.Era.LEGACY) {
      throw TaskRuntime.unknown(taskId);
    }
    return t;
  }
}
