package dev.herald.tasks;

/**
 * A task store is full: too many tasks that are not terminal for one owner, or too many tasks in
 * all. The runtime answers the request that would have created the task with a JSON-RPC error and
 * creates nothing.
 */
public final class TaskLimitExceededException extends RuntimeException {
  private static final long serialVersionUID = 1L;

  public TaskLimitExceededException(String message) {
    super(message);
  }
}
