package dev.herald.server.annotation;

import java.lang.annotation.Annotation;
import java.lang.reflect.Method;
import java.util.List;

/**
 * Questions about annotated classes, for code that registers objects in bulk (a dependency
 * injection container, for example) and passes only those that declare entries to {@link
 * dev.herald.server.McpServer.Builder#annotated(Object...)}, which refuses an object that declares
 * none.
 */
public final class McpAnnotations {
  private static final List<Class<? extends Annotation>> KINDS =
      List.of(McpTool.class, McpPrompt.class, McpResource.class, McpResourceTemplate.class);

  private McpAnnotations() {}

  /**
   * Whether {@code type} or one of its superclasses declares a method annotated {@link McpTool},
   * {@link McpPrompt}, {@link McpResource} or {@link McpResourceTemplate} (the methods {@code
   * annotated(...)} reads; interfaces are not read).
   */
  public static boolean declaresEntries(Class<?> type) {
    for (Class<?> k = type; k != null && k != Object.class; k = k.getSuperclass()) {
      for (Method m : k.getDeclaredMethods()) {
        for (Class<? extends Annotation> kind : KINDS) {
          if (m.isAnnotationPresent(kind)) {
            return true;
          }
        }
      }
    }
    return false;
  }
}
