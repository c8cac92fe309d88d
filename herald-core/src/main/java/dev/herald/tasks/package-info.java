/**
 * Tasks at rest: what a task is once created ({@link dev.herald.tasks.StoredTask}), who may see it
 * ({@link dev.herald.tasks.TaskOwner}), and where it is kept ({@link dev.herald.tasks.TaskStore},
 * with the bounded {@link dev.herald.tasks.InMemoryTaskStore}). The server's task runtime drives a
 * store; a store shared by several nodes lets any node answer for a task.
 *
 * <p>Tasks are specified by MCP 2025-11-25 (basic/utilities/tasks, experimental) and, for
 * 2026-07-28, by the {@code io.modelcontextprotocol/tasks} extension. A store holds the union of
 * both models: status, times, TTL, poll interval, the outstanding input requests (2026-07-28) and
 * the outcome (the original result or JSON-RPC error).
 */
@NullMarked
package dev.herald.tasks;

import org.jspecify.annotations.NullMarked;
