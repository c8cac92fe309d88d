package dev.herald.wire;

import com.fasterxml.jackson.annotation.JsonCreator;
import com.fasterxml.jackson.annotation.JsonValue;
import java.util.Locale;
import java.util.Optional;

/** Log levels in RFC 5424 order, least severe first. */
public enum LoggingLevel {
  DEBUG,
  INFO,
  NOTICE,
  WARNING,
  ERROR,
  CRITICAL,
  ALERT,
  EMERGENCY;

  @JsonValue
  public String wire() {
    return name().toLowerCase(Locale.ROOT);
  }

  /** Whether a message at this level passes a session whose threshold is {@code threshold}. */
  public boolean admittedBy(LoggingLevel threshold) {
    return compareTo(threshold) >= 0;
  }

  public static Optional<LoggingLevel> parse(String wire) {
    for (LoggingLevel l : values()) {
      if (l.wire().equals(wire)) {
        return Optional.of(l);
      }
    }
    return Optional.empty();
  }

  @JsonCreator
  static LoggingLevel fromJson(String wire) {
    return parse(wire)
        .orElseThrow(() -> new IllegalArgumentException("unknown logging level: " + wire));
  }
}
