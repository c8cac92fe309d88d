package dev.herald.tasks;

import java.util.Objects;

/**
 * Who may see a task: only the requestor that created it (MCP 2025-11-25 basic/utilities/tasks,
 * "Security Considerations": bind tasks to the authorization context when there is one). A task is
 * looked up with its owner; another owner's lookup finds nothing, exactly as for an unknown id.
 *
 * @param kind what {@code id} names
 * @param id the session id, a digest of the principal, or empty for {@link #anyone()}
 */
public record TaskOwner(Kind kind, String id) {

  /** What a task is bound to. */
  public enum Kind {
    /** A handshake-era session without an authenticated principal. */
    SESSION,
    /** An authenticated principal, in either era: the task follows it across sessions. */
    PRINCIPAL,
    /**
     * No binding (a 2026-07-28 request without an authenticated principal): whoever holds the
     * 128-bit random task id.
     */
    ANYONE
  }

  private static final TaskOwner ANYONE = new TaskOwner(Kind.ANYONE, "");

  public TaskOwner {
    Objects.requireNonNull(kind, "kind");
    Objects.requireNonNull(id, "id");
    if (kind == Kind.ANYONE ? !id.isEmpty() : id.isEmpty()) {
      throw new IllegalArgumentException(
          kind == Kind.ANYONE ? "ANYONE has no id" : kind + " needs a non-empty id");
    }
  }

  public static TaskOwner session(String sessionId) {
    return new TaskOwner(Kind.SESSION, sessionId);
  }

  /** A principal; {@code digest} should be a digest of its identifier, never a credential. */
  public static TaskOwner principal(String digest) {
    return new TaskOwner(Kind.PRINCIPAL, digest);
  }

  public static TaskOwner anyone() {
    return ANYONE;
  }
}
