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

  public boolean isRequired() {
    return Boolean.TRUE.equals(required);
  }
}
