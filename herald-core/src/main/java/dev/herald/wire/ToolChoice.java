package dev.herald.wire;

import com.fasterxml.jackson.annotation.JsonCreator;
import com.fasterxml.jackson.annotation.JsonValue;
import java.util.Locale;
import org.jspecify.annotations.Nullable;

/** How the model may use the tools offered in {@code sampling/createMessage} (MCP {@code ToolChoice}, 2025-11-25+). */
public record ToolChoice(@Nullable Mode mode) {

  /** {@code mode}: {@code auto} (default), {@code required} or {@code none}. */
  public enum Mode {
    AUTO,
    REQUIRED,
    NONE;

    @JsonValue
    public String wire() {
      return name().toLowerCase(Locale.ROOT);
    }

    @JsonCreator
    static Mode fromJson(String wire) {
      for (Mode m : values()) {
        if (m.wire().equals(wire)) {
          return m;
        }
      }
      throw new IllegalArgumentException("unknown toolChoice mode: " + wire);
    }
  }

  public static ToolChoice of(Mode mode) {
    return new ToolChoice(mode);
  }

  /** The mode to apply: {@code mode}, or {@code auto} when absent. */
  public Mode effectiveMode() {
    return mode == null ? Mode.AUTO : mode;
  }
}
