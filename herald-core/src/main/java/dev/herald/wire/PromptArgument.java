package dev.herald.wire;

import org.jspecify.annotations.Nullable;

/** An argument a prompt template accepts (MCP {@code PromptArgument}). */
public record PromptArgument(
    String name, @Nullable String title, @Nullable String description, @Nullable Boolean required) {

  public PromptArgument {
    java.util.Objects.requireNonNull(name, "name");
  }

  public static PromptArgument of(String name, @Nullable String description, boolean required) {
    return new PromptArgument(name, null, description, required);
  }

  /** Whether the argument must be given ({@code required}, false when absent). */
  public boolean requiredOrFalse() {
    return Boolean.TRUE.equals(required);
  }
}
