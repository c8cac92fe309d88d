package dev.herald.client;

import java.time.Duration;
import org.jspecify.annotations.Nullable;

/**
 * The builder's task settings, frozen at connect.
 *
 * @param extension whether 2026-07-28 requests declare the {@code io.modelcontextprotocol/tasks}
 *     extension in their per-request capabilities (so a server may answer {@code tools/call} with
 *     a task, which the client follows)
 * @param ttl the retention asked for in a 2025-11-25 task-augmented request ({@code params.task.ttl});
 *     null: none asked, the server decides
 * @param host whether the client declares {@code capabilities.tasks} for task-augmented {@code
 *     sampling/createMessage} and {@code elicitation/create} (2025-11-25) and runs them as tasks
 */
record ClientTasks(boolean extension, @Nullable Duration ttl, boolean host) {
  static final ClientTasks DEFAULTS = new ClientTasks(true, null, false);
}
