package dev.herald.wire;

import com.fasterxml.jackson.annotation.JsonProperty;
import java.util.Map;
import org.jspecify.annotations.Nullable;
import tools.jackson.databind.node.ObjectNode;

/**
 * Params of {@code completion/complete}: the argument being typed and, since 2025-06-18, the
 * values of arguments already resolved ({@code context.arguments}).
 */
public record CompleteParams(
    CompletionReference ref,
    Argument argument,
    @Nullable Context context,
    @JsonProperty("_meta") @Nullable ObjectNode meta) {

  public CompleteParams {
    java.util.Objects.requireNonNull(ref, "ref");
    java.util.Objects.requireNonNull(argument, "argument");
  }

  /** {@code argument}: the name of the argument and its partial value. */
  public record Argument(String name, String value) {
    public Argument {
      java.util.Objects.requireNonNull(name, "name");
      java.util.Objects.requireNonNull(value, "value");
    }
  }

  /** {@code context}: previously resolved argument values. */
  public record Context(@Nullable Map<String, String> arguments) {
    public Context {
      arguments = arguments == null ? null : Map.copyOf(arguments);
    }
  }

  public static CompleteParams of(CompletionReference ref, String argumentName, String value) {
    return new CompleteParams(ref, new Argument(argumentName, value), null, null);
  }

  /** The already resolved arguments, empty when none were sent. */
  public Map<String, String> contextArguments() {
    return context == null || context.arguments() == null ? Map.of() : context.arguments();
  }
}
