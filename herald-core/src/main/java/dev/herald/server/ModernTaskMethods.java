package dev.herald.server;

import dev.herald.internal.session.InboundCall;
import dev.herald.tasks.StoredTask;
import dev.herald.tasks.TaskOwner;
import dev.herald.wire.CancelTaskParams;
import dev.herald.wire.GetTaskParams;
import dev.herald.wire.McpException;
import dev.herald.wire.McpJson;
import dev.herald.wire.ProtocolVersion;
import dev.herald.wire.TasksExtension;
import java.time.Instant;
import java.util.Map;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * {@code tasks/get}, {@code tasks/update} and {@code tasks/cancel} of the 2026-07-28 {@code
 * io.modelcontextprotocol/tasks} extension (SEP-2663): rows of {@link ServerMethods} that exist in
 * the 2026-07-28 era only, beside the 2025-11-25 rows of the same names. {@code tasks/result} and
 * {@code tasks/list} have no 2026-07-28 row, so they are -32601 there.
 *
 * <ul>
 *   <li>A request that did not declare the extension gets -32021 naming it, before anything else.
 *   <li>A task that is unknown, expired, another owner's or of the 2025-11-25 era is -32602 "Unknown
 *       task", all alike.
 *   <li>{@code tasks/get}: the {@code DetailedTask} with {@code resultType: "complete"} ({@link
 *       TaskViews#getResult}), never a {@code requestState}. It accepts the optional {@code
 *       requestState} of a status notification ({@link TaskRequestStates}); one that does not
 *       verify for this task and principal is -32602.
 *   <li>{@code tasks/update}: answers the task's outstanding input requests ({@link
 *       ModernTaskInput}); unknown and answered keys are ignored, a subset is fine (the task stays
 *       {@code input_required} with the rest); an empty acknowledgement.
 *   <li>{@code tasks/cancel}: moves the task to {@code cancelled} and stops its handler; an empty
 *       acknowledgement, also for a task that is terminal already (idempotent in the extension,
 *       unlike 2025-11-25's -32602).
 * </ul>
 *
 * Runs on the request's virtual thread.
 */
final class ModernTaskMethods {
  private ModernTaskMethods() {}

  /** Where the methods exist: the eras without a handshake. */
  static boolean exists(ProtocolVersion v) {
    return !v.handshake();
  }

  static ObjectNode get(ServerSession session, GetTaskParams p, InboundCall call) {
    ModernTasks.requireDeclared(session, call);
    TaskRuntime runtime = session.server().taskRuntime;
    JsonNode state = call.params() == null ? null : call.params().get("requestState");
    if (state != null && !state.isNull()) {
      if (!state.isString()) {
        throw RequestStateCodec.invalid("requestState must be a string");
      }
      new TaskRequestStates(session.server().requestStates)
          .verify(
              state.stringValue(),
              p.taskId(),
              InputRounds.principal(session.server().requestStates, session, call));
    }
    return TaskViews.getResult(visible(runtime, runtime.owner(session, call), p.taskId()));
  }

  static ObjectNode update(
      ServerSession session, TasksExtension.UpdateTaskParams p, InboundCall call) {
    ModernTasks.requireDeclared(session, call);
    TaskRuntime runtime = session.server().taskRuntime;
    TaskOwner owner = runtime.owner(session, call);
    visible(runtime, owner, p.taskId());
    RunningTask running = runtime.running(p.taskId()).orElse(null);
    if (running != null && running.input() instanceof ModernTaskInput input) {
      Map<String, ModernTaskInput.Claimed> claimed = input.take(p.inputResponses());
      if (!claimed.isEmpty()) {
        Instant now = runtime.now();
        runtime.update(owner, p.taskId(), t -> t.answered(claimed.keySet(), now));
        ModernTaskInput.deliver(claimed);
      }
    }
    return McpJson.object();
  }

  static ObjectNode cancel(ServerSession session, CancelTaskParams p, InboundCall call) {
    ModernTasks.requireDeclared(session, call);
    TaskRuntime runtime = session.server().taskRuntime;
    TaskOwner owner = runtime.owner(session, call);
    StoredTask task = visible(runtime, owner, p.taskId());
    if (!task.terminal()) {
      runtime.cancel(owner, p.taskId(), null);
    }
    return McpJson.object();
  }

  /**
   * The task, if {@code owner} may see it in this era.
   *
   * @throws McpException -32602 otherwise
   */
  private static StoredTask visible(TaskRuntime runtime, TaskOwner owner, String taskId) {
    StoredTask task = runtime.require(owner, taskId);
    if (task.era() != ProtocolVersion.Era.MODERN) {
      throw TaskRuntime.unknown(taskId);
    }
    return task;
  }
}
