package dev.herald.server;

/**
 * When a call of a tool that may run as a task becomes one.
 *
 * <ul>
 *   <li>{@link #AT_ONCE}: the task is created before the handler runs and the request is answered
 *       with it ({@code CreateTaskResult}) straight away; the whole handler runs as the task.
 *   <li>{@link #WHEN_HANDLER_STARTS_IT}: the handler first runs as part of the request, so what it
 *       asks for input before then comes through the request itself (a server-to-client request in
 *       the handshake era, an {@code InputRequiredResult} round in the 2026-07-28 era); it calls
 *       {@link RequestContext#startTask()} when it is ready to go on in the background, and the
 *       request is answered with the task then (MCP 2026-07-28 tasks extension: input exchanges
 *       should finish before the {@code CreateTaskResult} is returned). A handler that returns
 *       without starting the task answers the request directly, where the era allows it.
 * </ul>
 */
public enum TaskStart {
  AT_ONCE,
  WHEN_HANDLER_STARTS_IT
}
