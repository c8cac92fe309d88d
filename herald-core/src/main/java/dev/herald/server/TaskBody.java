package dev.herald.server;

import org.jspecify.annotations.Nullable;

/**
 * The handler a task runs: the same handler as a plain call, given a {@link RequestContext} that
 * reports progress, asks for input and sees cancellation for the task. Its result (a {@code
 * CallToolResult}) becomes the task's result; an {@link dev.herald.wire.McpException} it throws
 * becomes the task's error.
 */
@FunctionalInterface
interface TaskBody {
  @Nullable Object run(RequestContext context) throws Exception;
}
