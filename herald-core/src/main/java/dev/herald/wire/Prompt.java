package dev.herald.wire;

import com.fasterxml.jackson.annotation.JsonProperty;
import java.util.List;
import org.jspecify.annotations.Nullable;
import tools.jackson.databind.node.ObjectNode;

/** A prompt or prompt template, as listed by {@code prompts/list} (MCP {@code Prompt}). */
public record Prompt(
    String name,
    @Nullable String title,
    @Nullable String description,
    @Nullable List<PromptArgument> arguments,
    @Nullable List<Icon> icons,
    @JsonProperty("_meta") @Nullable ObjectNode meta) {

  public Prompt {
    java.util.Objects.requireNonNull(name, "name");
    arguments = arguments == null ? null : List.copyOf(arguments);
    icons = icons == null ? null : List.copyOf(icons);
  }

  public static Prompt of(
      String name, @Nullable String description, List<PromptArgument> arguments) {
    return new Prompt(name, null, description, arguments, null, null);
  }

  /** The name a UI shows: {@code title}, then {@code name}. */
  public String displayName() {
    return title != null ? title : name;
  }
}
