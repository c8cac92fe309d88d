package dev.herald.wire;

import java.util.List;
import org.jspecify.annotations.Nullable;

/** The server's model preferences for {@code sampling/createMessage}; priorities are 0..1 (MCP {@code ModelPreferences}). */
public record ModelPreferences(
    @Nullable List<ModelHint> hints,
    @Nullable Double costPriority,
    @Nullable Double speedPriority,
    @Nullable Double intelligencePriority) {

  public ModelPreferences {
    hints = hints == null ? null : List.copyOf(hints);
  }
}
