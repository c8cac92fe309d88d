package dev.herald.client;

/**
 * Told each status change of a task the client follows (MCP 2025-11-25 basic/utilities/tasks
 * {@code notifications/tasks/status} and {@code tasks/get}; the 2026-07-28 tasks extension's
 * {@code notifications/tasks} and {@code tasks/get}): each change once, in order, whichever
 * channel brought it first; a change of status message within a status counts as a change; never
 * anything after a terminal status, never a snapshot older than one already told. Called on the
 * client's listener thread, never on the transport's reader; must not block for long.
 */
@FunctionalInterface
public interface TaskListener {
  void onStatus(TaskSnapshot task);

  TaskListener NONE = t -> {};
}
