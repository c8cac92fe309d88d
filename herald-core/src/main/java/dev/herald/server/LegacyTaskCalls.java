package dev.herald.server;

import dev.herald.internal.session.InboundCall;
import dev.herald.tasks.StoredTask;
import dev.herald.tasks.TaskOutcome;
import dev.herald.wire.CallToolParams;
import dev.herald.wire.CallToolResult;
import dev.herald.wire.CreateTaskResult;
import dev.herald.wire.ErrorCodes;
import dev.herald.wire.McpException;
import dev.herald.wire.McpJson;
import dev.herald.wire.ProtocolVersion;
import dev.herald.wire.TaskMetadata;
import dev.herald.wire.TaskSupport;
import java.time.Instant;
import org.jspecify.annotations.Nullable;
import tools.jackson.databind.node.ObjectNode;

/**
 * A task-augmented {@code tools/call} of the handshake era (MCP 2025-11-25 basic/utilities/tasks,
 * "Tool-Level Negotiation"), for a session to which the server declared {@code tasks}: {@code
 * params.task} on a tool whose {@code taskSupport} is optional or required runs it as a task and
 * answers with {@code CreateTaskResult} once the task is stored; {@code params.task} on a forbidden
 * tool, or a required tool called without it, is -32601. The requested {@code ttl} is capped at
 * {@link TaskSettings#maxTtl}. Arguments are validated inside the task, so invalid ones make a
 * task that ends {@code failed} with the tool error result, as the plain call would return it.
 */
final class LegacyTaskCalls {
  private LegacyTaskCalls() {}

  /**
   * The answer to a call that is a task ({@code CreateTaskResult}), or {@code null} when the call
   * is a plain one.
   *
   * @throws McpException -32601 when the call and the tool's task support disagree; -32603 when
   *     the task store is full (nothing is created)
   */
  static @Nullable Object call(
      ServerSession session,
      InboundCall call,
      RegisteredTool tool,
      CallToolParams p,
      ObjectNode args)
      throws Exception {
    TaskSupport support = tool.tool().taskSupport();
    if (p.task() == null) {
      if (support == TaskSupport.REQUIRED) {
        throw new McpException(
            ErrorCodes.METHOD_NOT_FOUND,
            "Tool " + p.name() + " must be called as a task (its taskSupport is required)");
      }
      return null;
    }
    if (support == TaskSupport.FORBIDDEN) {
      throw new McpException(
          ErrorCodes.METHOD_NOT_FOUND,
          "Tool " + p.name() + " cannot be called as a task (its taskSupport is forbidden)");
    }
    TaskMetadata meta;
    try {
      meta = p.taskMetadata();
    } catch (McpException e) {
      throw McpException.invalidParams("Invalid params: task must be {ttl?: number}");
    }
    TaskRuntime runtime = session.server().taskRuntime;
    TaskRuntime.Spec spec =
        new TaskRuntime.Spec(
            session,
            call,
            runtime.owner(session, call),
            ProtocolVersion.Era.LEGACY,
            runtime.ttl(meta == null ? null : meta.ttl()),
            task -> new ReverseTaskInput(runtime, task));
    CallContext before = new CallContext(session, call);
    TaskBody body =
        context -> {
          var invalid = tool.input().check(args);
          if (invalid.isPresent()) {
            return CallToolResult.error(
                "Invalid arguments for tool " + p.name() + ": " + invalid.get());
          }
          return ToolMethods.run(tool, p.name(), args, context, call);
        };
    if (tool.taskStart() == TaskStart.AT_ONCE) {
      return runtime.runAtOnce(before, spec, body, LegacyTaskCalls::created);
    }
    Object answer = runtime.runUntilStarted(before, spec, body, LegacyTaskCalls::created);
    if (answer instanceof CreateTaskResult) {
      return answer;
    }
    // The handler answered without starting its task: the client asked for a task, so it gets one,
    // already terminal with that result.
    return created(completedAtOnce(runtime, spec, answer));
  }

  private static StoredTask completedAtOnce(
      TaskRuntime runtime, TaskRuntime.Spec spec, @Nullable Object result) {
    StoredTask created = runtime.create(spec);
    ObjectNode tree = McpJson.toObject(result);
    TaskOutcome outcome = new TaskOutcome.Result(tree == null ? McpJson.object() : tree);
    Instant now = runtime.now();
    return runtime
        .store()
        .update(created.taskId(), now, t -> t.complete(outcome, now))
        .map(c -> c.after())
        .orElse(created);
  }

  private static Object created(StoredTask task) {
    return CreateTaskResult.of(LegacyTasks.task(task));
  }
}
