package dev.herald.server;

import dev.herald.server.annotation.McpPrompt;
import dev.herald.wire.GetPromptResult;
import dev.herald.wire.Prompt;
import dev.herald.wire.PromptArgument;
import dev.herald.wire.PromptMessage;
import java.lang.reflect.ParameterizedType;
import java.lang.reflect.Type;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import org.jspecify.annotations.Nullable;

/**
 * A prompt made from an {@link McpPrompt} method (MCP 2025-11-25 server/prompts): one argument per
 * {@code String} parameter, and a {@link PromptHandler} that passes the arguments and converts what
 * the method returns.
 */
record AnnotatedPrompt(Prompt prompt, PromptHandler handler, String where) {
  private enum Result {
    GET_PROMPT_RESULT,
    MESSAGES,
    MESSAGE,
    TEXT
  }

  /** The prompt of {@code m}, or null after adding its problems to {@code problems}. */
  static @Nullable AnnotatedPrompt of(AnnotatedMethod m, McpPrompt a, List<String> problems) {
    String name = a.name().isBlank() ? AnnotatedMethod.snakeCase(m.method.getName()) : a.name();
    int before = problems.size();
    List<PromptArgument> arguments = new ArrayList<>();
    for (AnnotatedMethod.Arg arg : m.args()) {
      if (arg.type() != String.class) {
        problems.add(
            m.where
                + ": parameter "
                + arg.name()
                + " is a "
                + arg.declared().getTypeName()
                + ", but prompt arguments are strings (use String, Optional<String> or RequestContext)");
      }
      arguments.add(PromptArgument.of(arg.name(), arg.description(), arg.required()));
    }
    Type returned = m.method.getGenericReturnType();
    Result result = resultOf(returned);
    if (result == null) {
      problems.add(
          m.where
              + ": cannot return "
              + returned.getTypeName()
              + " (return GetPromptResult, List<PromptMessage>, PromptMessage or String)");
    }
    if (problems.size() > before || result == null) {
      return null;
    }
    Prompt prompt =
        new Prompt(
            name,
            AnnotatedMethod.orNull(a.title()),
            AnnotatedMethod.orNull(a.description()),
            arguments,
            null,
            null);
    Result kind = result;
    PromptHandler handler =
        get -> {
          @Nullable Object[] values = new Object[m.slots.size()];
          for (int i = 0; i < values.length; i++) {
            if (m.slots.get(i) instanceof AnnotatedMethod.Arg arg) {
              String value = get.argument(arg.name());
              values[i] = value == null ? arg.absent() : arg.present(value);
            } else {
              values[i] = get.context();
            }
          }
          return convert(kind, m.invoke(values), name);
        };
    return new AnnotatedPrompt(prompt, handler, m.where);
  }

  private static @Nullable Result resultOf(Type t) {
    if (t == GetPromptResult.class) {
      return Result.GET_PROMPT_RESULT;
    }
    if (t == PromptMessage.class) {
      return Result.MESSAGE;
    }
    if (t == String.class) {
      return Result.TEXT;
    }
    if (t instanceof ParameterizedType p
        && p.getRawType() instanceof Class<?> raw
        && Collection.class.isAssignableFrom(raw)
        && p.getActualTypeArguments()[0] == PromptMessage.class) {
      return Result.MESSAGES;
    }
    return null;
  }

  private static GetPromptResult convert(Result kind, @Nullable Object value, String name) {
    if (value == null) {
      throw new IllegalStateException("prompt " + name + " returned null");
    }
    return switch (kind) {
      case GET_PROMPT_RESULT -> (GetPromptResult) value;
      case MESSAGE -> GetPromptResult.of(null, List.of((PromptMessage) value));
      case TEXT -> GetPromptResult.of(null, List.of(PromptMessage.user((String) value)));
      case MESSAGES -> {
        List<PromptMessage> messages = new ArrayList<>();
        for (Object o : (Collection<?>) value) {
          messages.add((PromptMessage) o);
        }
        yield GetPromptResult.of(null, messages);
      }
    };
  }
}
