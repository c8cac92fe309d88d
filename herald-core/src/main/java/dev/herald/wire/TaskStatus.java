package dev.herald.wire;

import com.fasterxml.jackson.annotation.JsonCreator;
import com.fasterxml.jackson.annotation.JsonValue;
import java.util.Locale;
import java.util.Optional;

/**
 * The status of a task (MCP {@code TaskStatus}, 2025-11-25 core and the 2026-07-28 tasks
 * extension): {@code completed}, {@code failed} and {@code cancelled} are terminal.
 */
public enum TaskStatus {
  WORKING,
  INPUT_REQUIRED,
  COMPLETED,
  FAILED,
  CANCELLED;

  @JsonValue
  public String wire() {
    return name().toLowerCase(Locale.ROOT);
  }

  /** Whether no further status change may follow. */
  public boolean isTerminal() {
    return this == COMPLETED || this == FAILED || this == CANCELLED;
  }

  public static Optional<TaskStatus> parse(String wire) {
    for (TaskStatus s : values()) {
      if (s.wire().equals(wire)) {
        return Optional.of(s);
      }
    }
    return Optional.empty();
  }

  @JsonCreator
  static TaskStatus fromJson(String wire) {
    return parse(wire)
        .orElseThrow(() -> new IllegalArgumentException("unknown task status: " + wire));
  }
}
