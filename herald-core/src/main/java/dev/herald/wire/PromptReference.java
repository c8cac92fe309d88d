package dev.herald.wire;

import org.jspecify.annotations.Nullable;

/** {@code type: "ref/prompt"}: a completion reference to a prompt by name (MCP {@code PromptReference}). */
public record PromptReference(String name, @Nullable String title) implements CompletionReference {
  public PromptReference {
    java.util.Objects.requireNonNull(name, "name");
  }

  public static PromptReference of(String name) {
    return new PromptReference(name, null);
  }
}
