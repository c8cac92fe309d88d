package dev.herald.wire;

import com.fasterxml.jackson.annotation.JsonValue;
import java.util.Locale;
import java.util.Optional;

/**
 * Whether a tool may run as a task (MCP 2025-11-25 basic/utilities/tasks, "Tool-Level
 * Negotiation": {@code execution.taskSupport}). In the 2026-07-28 era the field is not on the wire
 * (the {@code io.modelcontextprotocol/tasks} extension lets the server decide), but Herald keeps the
 * same three values to decide for itself: {@link #OPTIONAL} and {@link #REQUIRED} tools run as tasks
 * for a request that declared the extension; a {@link #REQUIRED} tool refuses a request that did not
 * with -32021.
 */
public enum TaskSupport {
  /** The tool never runs as a task (the default when {@code execution.taskSupport} is absent). */
  FORBIDDEN,
  /** The tool runs as a task when asked to, and as a plain call otherwise. */
  OPTIONAL,
  /** The tool runs only as a task. */
  REQUIRED;

  @JsonValue
  public String wire() {
    return name().toLowerCase(Locale.ROOT);
  }

  /** The value named by {@code wire}, or empty for an unknown name. */
  public static Optional<TaskSupport> parse(String wire) {
    for (TaskSupport s : values()) {
      if (s.wire().equals(wire)) {
        return Optional.of(s);
      }
    }
    return Optional.empty();
  }
}
