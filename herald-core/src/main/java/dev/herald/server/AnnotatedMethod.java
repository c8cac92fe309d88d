package dev.herald.server;

import dev.herald.server.annotation.McpParam;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.lang.reflect.Parameter;
import java.lang.reflect.ParameterizedType;
import java.lang.reflect.Type;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.Set;
import org.jspecify.annotations.Nullable;

/**
 * One annotated method of a registered object: where it is (for messages), its parameters read
 * as arguments and at most one context, and how to call it.
 *
 * <p>Design note. Everything that can be wrong with a method is found here, once, when the object
 * is registered, and added to the scan's problem list as {@code Class.method: reason}; calls then
 * only bind and invoke. An exception the method throws is unwrapped from {@link
 * InvocationTargetException}, so the caller's translation (tool error result, JSON-RPC error,
 * cancellation) sees exactly what a hand-written handler would have thrown.
 */
final class AnnotatedMethod {
  /** A parameter: the request context, or one named argument. */
  sealed interface Slot {}

  /** The {@link RequestContext} of the call. */
  record Context() implements Slot {}

  /**
   * A named argument: its declared type, that type without {@code Optional}, whether it is an
   * {@code Optional}, whether it must be present, and its description.
   */
  record Arg(
      String name,
      Type declared,
      Type type,
      boolean wrapped,
      boolean required,
      @Nullable String description,
      @Nullable McpParam param)
      implements Slot {
    /** The argument's value when it is absent: empty, or null. */
    @Nullable Object absent() {
      return wrapped ? Optional.empty() : null;
    }

    /** {@code value} as the parameter receives it ({@code Optional} wrapped when declared so). */
    @Nullable Object present(@Nullable Object value) {
      return wrapped ? Optional.ofNullable(value) : value;
    }

    RecordSchema.Property property() {
      return new RecordSchema.Property(name, type, required, description, param);
    }
  }

  final @Nullable Object target;
  final Method method;
  final String where;
  final List<Slot> slots;

  private AnnotatedMethod(@Nullable Object target, Method method, String where, List<Slot> slots) {
    this.target = target;
    this.method = method;
    this.where = where;
    this.slots = slots;
  }

  /**
   * Reads {@code method} of {@code target}, adding what is wrong with it to {@code problems}.
   *
   * @return the method, or null when a problem was found
   */
  static @Nullable AnnotatedMethod read(Object target, Method method, List<String> problems) {
    String where = where(method);
    int before = problems.size();
    if (!Modifier.isPublic(method.getModifiers())) {
      problems.add(where + ": is not public (annotated methods must be public)");
    } else if (!method.trySetAccessible()) {
      problems.add(
          where
              + ": cannot be called by Herald: make "
              + method.getDeclaringClass().getName()
              + " public in an exported package, or open its package to dev.herald.core");
    }
    List<Slot> slots = new ArrayList<>();
    Set<String> names = new HashSet<>();
    boolean context = false;
    for (Parameter p : method.getParameters()) {
      if (p.getType() == RequestContext.class) {
        if (context) {
          problems.add(where + ": takes the RequestContext twice (at most one context parameter)");
        }
        context = true;
        slots.add(new Context());
        continue;
      }
      McpParam param = p.getAnnotation(McpParam.class);
      String name;
      if (param != null && !param.name().isBlank()) {
        name = param.name();
      } else if (p.isNamePresent()) {
        name = p.getName();
      } else {
        problems.add(
            where
                + ": parameter "
                + p.getName()
                + " has no name: compile with javac -parameters, or name it with @McpParam(name = ...)");
        continue;
      }
      if (!names.add(name)) {
        problems.add(where + ": two parameters are named " + name);
      }
      Type declared = p.getParameterizedType();
      boolean wrapped =
          declared instanceof ParameterizedType pt && pt.getRawType() == Optional.class;
      boolean required = !RecordSchema.optional(declared, p, p.getAnnotatedType());
      if (!required && p.getType().isPrimitive()) {
        problems.add(
            where
                + ": parameter "
                + name
                + " is optional but of primitive type "
                + p.getType().getName()
                + " (use its box or Optional)");
      }
      slots.add(
          new Arg(
              name,
              declared,
              RecordSchema.unwrapOptional(declared),
              wrapped,
              required,
              RecordSchema.description(p),
              param));
    }
    if (problems.size() > before) {
      return null;
    }
    return new AnnotatedMethod(
        Modifier.isStatic(method.getModifiers()) ? null : target,
        method,
        where,
        List.copyOf(slots));
  }

  /** The arguments, in order, that are not the context. */
  List<Arg> args() {
    List<Arg> out = new ArrayList<>();
    for (Slot s : slots) {
      if (s instanceof Arg a) {
        out.add(a);
      }
    }
    return out;
  }

  /**
   * Calls the method; what it throws is thrown as is.
   *
   * @throws Exception whatever the method threw
   */
  @Nullable Object invoke(@Nullable Object[] args) throws Exception {
    try {
      return method.invoke(target, args);
    } catch (InvocationTargetException e) {
      Throwable cause = e.getCause();
      if (cause instanceof Exception ex) {
        throw ex;
      }
      if (cause instanceof Error err) {
        throw err;
      }
      throw e;
    }
  }

  /** {@code Class.method}, as messages name it. */
  static String where(Method method) {
    return method.getDeclaringClass().getName() + "." + method.getName();
  }

  /** The default name of an entry: the method's name in snake_case ({@code emitLogs} → {@code emit_logs}). */
  static String snakeCase(String name) {
    StringBuilder out = new StringBuilder(name.length() + 4);
    for (int i = 0; i < name.length(); i++) {
      char c = name.charAt(i);
      if (Character.isUpperCase(c) && i > 0) {
        char prev = name.charAt(i - 1);
        boolean nextLower = i + 1 < name.length() && Character.isLowerCase(name.charAt(i + 1));
        if (prev != '_' && (Character.isLowerCase(prev) || Character.isDigit(prev) || nextLower)) {
          out.append('_');
        }
      }
      out.append(c);
    }
    return out.toString().toLowerCase(Locale.ROOT);
  }

  /** {@code value}, or null when blank (an annotation attribute left at its default). */
  static @Nullable String orNull(String value) {
    return value.isBlank() ? null : value;
  }
}
