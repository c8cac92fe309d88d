package dev.herald.server;

import dev.herald.internal.session.InboundCall;
import dev.herald.wire.ProtocolVersion;
import dev.herald.wire.TaskSupport;

/**
 * A 2026-07-28 {@code tools/call} of a tool that may run as a task (MCP 2026-07-28 {@code
 * io.modelcontextprotocol/tasks} extension, SEP-2663 "Task Creation"): the server decides, on what
 * this request declared.
 *
 * <ul>
 *   <li>Declared (per request, or by the handshake-era session): the call runs as a task and is
 *       answered with the flat {@code CreateTaskResult} once the task is in the store (durable
 *       creation). {@link TaskStart#AT_ONCE}: at once, the whole handler runs as the task. {@link
 *       TaskStart#WHEN_HANDLER_STARTS_IT}: the handler runs as the request first, so its asks are
 *       ordinary input rounds ({@code InputRequiredResult}, no task id, the request's own signed
 *       {@code requestState}); when it calls {@link RequestContext#startTask()} the round is
 *       answered with the {@code CreateTaskResult} (never with a {@code requestState}) and the
 *       handler goes on as the task, its later asks through {@link ModernTaskInput}; a handler
 *       that returns without starting the task answers directly.
 *   <li>Not declared: an optional tool runs as a plain call; a required one is -32021 with {@code
 *       data.requiredCapabilities.extensions["io.modelcontextprotocol/tasks"]}, before its
 *       handler runs.
 * </ul>
 *
 * The 2025-11-25 {@code params.task} plays no part here (tolerated, never promotes a call).
 */
final class ModernTaskCalls {
  private ModernTaskCalls() {}

  /** The handler of one call, on whatever context it runs with. */
  @FunctionalInterface
  interface Handler {
    Object run(RequestContext context) throws Exception;
  }

  /** Whether this 2026-07-28 call is one the extension may turn into a task. */
  static boolean applies(InboundCall call, RegisteredTool tool) {
    return ModernTasks.modern(call) && tool.tool().taskSupport() != TaskSupport.FORBIDDEN;
  }

  /**
   * Serves the call: a {@code CreateTaskResult}, an {@code InputRequiredResult} round, or the
   * tool's own result.
   *
   * @throws dev.herald.wire.McpException -32021 for a required tool without the extension; -32603
   *     when the task store is full
   */
  static Object call(
      ServerSession session,
      InboundCall call,
      RegisteredTool tool,
      InputRounds.Target target,
      Handler handler)
      throws Exception {
    if (!ModernTasks.declared(session, call)) {
      if (tool.tool().taskSupport() == TaskSupport.REQUIRED) {
        throw ModernTasks.missingExtension("tools/call of " + tool.name());
      }
      return InputRounds.serve(session, call, target, handler::run);
    }
    TaskRuntime runtime = session.server().taskRuntime;
    TaskRuntime.Spec spec =
        new TaskRuntime.Spec(
            session,
            call,
            runtime.owner(session, call),
            ProtocolVersion.Era.MODERN,
            runtime.ttl(null),
            ModernTaskInput.factory(runtime));
    if (tool.taskStart() == TaskStart.AT_ONCE) {
      return runtime.runAtOnce(
          new CallContext(session, call), spec, handler::run, TaskViews::created);
    }
    return InputRounds.serve(
        session,
        call,
        target,
        before ->
            java.util.Objects.requireNonNull(
                runtime.runUntilStarted(before, spec, handler::run, TaskViews::created)));
  }
}
