package dev.herald.wire;

import com.fasterxml.jackson.annotation.JsonCreator;
import com.fasterxml.jackson.annotation.JsonProperty;
import com.fasterxml.jackson.annotation.JsonValue;
import java.util.Locale;
import org.jspecify.annotations.Nullable;
import tools.jackson.databind.node.ObjectNode;

/**
 * Params of {@code elicitation/create} (2025-06-18+): form mode ({@code requestedSchema}, a flat
 * JSON Schema kept as a tree) or URL mode ({@code url}; {@code elicitationId} in 2025-11-25 only).
 * An absent {@code mode} means form. {@code task} is the 2025-11-25 task augmentation.
 */
public record ElicitParams(
    @Nullable Mode mode,
    String message,
    @Nullable ObjectNode requestedSchema,
    @Nullable String url,
    @Nullable String elicitationId,
    @Nullable TaskMetadata task,
    @JsonProperty("_meta") @Nullable ObjectNode meta) {

  public ElicitParams {
    java.util.Objects.requireNonNull(message, "message");
    if (mode == Mode.URL) {
      java.util.Objects.requireNonNull(url, "url");
    } else {
      java.util.Objects.requireNonNull(requestedSchema, "requestedSchema");
    }
  }

  /** {@code mode}: {@code form} or {@code url}. */
  public enum Mode {
    FORM,
    URL;

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
      throw new IllegalArgumentException("unknown elicitation mode: " + wire);
    }
  }

  /** A form-mode request (mode written explicitly). */
  public static ElicitParams form(String message, ObjectNode requestedSchema) {
    return new ElicitParams(Mode.FORM, message, requestedSchema, null, null, null, null);
  }

  /** A URL-mode request; {@code elicitationId} is required in 2025-11-25 and absent in 2026-07-28. */
  public static ElicitParams url(String message, String url, @Nullable String elicitationId) {
    return new ElicitParams(Mode.URL, message, null, url, elicitationId, null, null);
  }

  /** The mode to apply: {@code mode}, or form when absent. */
  public Mode effectiveMode() {
    return mode == null ? Mode.FORM : mode;
  }
}
