package dev.herald.server;

import java.util.Map;
import org.jspecify.annotations.Nullable;

/**
 * One {@code prompts/get}.
 *
 * @param name the prompt's name
 * @param arguments the arguments sent (empty when none)
 * @param context cancellation, logging, reverse calls and the session
 */
public record PromptGet(String name, Map<String, String> arguments, RequestContext context) {
  public PromptGet {
    arguments = Map.copyOf(arguments);
  }

  /** An argument, or {@code null} when absent. */
  public @Nullable String argument(String key) {
    return arguments.get(key);
  }

  /** An argument, or {@code fallback} when absent. */
  public String argument(String key, String fallback) {
    return arguments.getOrDefault(key, fallback);
  }
}
