package dev.herald.wire;

import org.jspecify.annotations.Nullable;

/** A model name hint for sampling (MCP {@code ModelHint}); clients may match it as a substring. */
public record ModelHint(@Nullable String name) {
  public static ModelHint of(String name) {
    return new ModelHint(name);
  }
}
