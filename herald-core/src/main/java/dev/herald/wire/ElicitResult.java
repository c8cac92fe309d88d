package dev.herald.wire;

import com.fasterxml.jackson.annotation.JsonCreator;
import com.fasterxml.jackson.annotation.JsonProperty;
import com.fasterxml.jackson.annotation.JsonValue;
import java.util.Locale;
import org.jspecify.annotations.Nullable;
import tools.jackson.databind.node.ObjectNode;

/**
 * Result of {@code elicitation/create}: the user's {@code action} and, on accept in form mode, the
 * submitted {@code content} (values are strings, numbers, booleans or string arrays).
 */
public record ElicitResult(
    Action action, @Nullable ObjectNode content, @JsonProperty("_meta") @Nullable ObjectNode meta) {

  public ElicitResult {
    java.util.Objects.requireNonNull(action, "action");
  }

  /** {@code action}: {@code accept}, {@code decline} or {@code cancel}. */
  public enum Action {
    ACCEPT,
    DECLINE,
    CANCEL;

    @JsonValue
    public String wire() {
      return name().toLowerCase(Locale.ROOT);
    }

    @JsonCreator
    static Action fromJson(String wire) {
      for (Action a : values()) {
        if (a.wire().equals(wire)) {
          return a;
        }
      }
      throw new IllegalArgumentException("unknown elicitation action: " + wire);
    }
  }

  public static ElicitResult accept(@Nullable ObjectNode content) {
    return new ElicitResult(Action.ACCEPT, content, null);
  }

  public static ElicitResult decline() {
    return new ElicitResult(Action.DECLINE, null, null);
  }

  public static ElicitResult cancel() {
    return new ElicitResult(Action.CANCEL, null, null);
  }

  public boolean accepted() {
    return action == Action.ACCEPT;
  }
}
