package dev.herald.server;

import dev.herald.server.annotation.McpPrompt;
import dev.herald.server.annotation.McpResource;
import dev.herald.server.annotation.McpResourceTemplate;
import dev.herald.server.annotation.McpTool;
import dev.herald.wire.Resource;
import dev.herald.wire.ResourceTemplate;
import java.lang.annotation.Annotation;
import java.lang.reflect.Method;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import tools.jackson.databind.json.JsonMapper;

/**
 * The tools, prompts, resources and resource templates of annotated objects, read all at once so
 * that every mistake is reported together.
 *
 * <p>Design note. A scan walks each object's class and its superclasses (so a subclass made by a
 * proxying framework still finds the annotations on the class it extends; an override is read
 * once, from the most derived class that annotates it), reads every annotated method, and
 * collects problems as {@code Class.method: reason}. If there is any, registration fails with one
 * {@link IllegalArgumentException} listing them all, and nothing is registered. Annotations on
 * interfaces are not read. Conflicts with entries the builder already holds are found when
 * registering, entry by entry: the builder is then to be discarded.
 */
final class AnnotatedEntries {
  private static final List<Class<? extends Annotation>> KINDS =
      List.of(McpTool.class, McpPrompt.class, McpResource.class, McpResourceTemplate.class);

  private final List<AnnotatedTool> tools = new ArrayList<>();
  private final List<AnnotatedPrompt> prompts = new ArrayList<>();
  private final List<AnnotatedResource> resources = new ArrayList<>();
  private final List<String> problems = new ArrayList<>();

  /** Binds arguments and writes results of the tools read ({@code McpServer.Builder.jsonMapper}). */
  private final JsonMapper mapper;

  private AnnotatedEntries(JsonMapper mapper) {
    this.mapper = mapper;
  }

  /**
   * Reads the annotated methods of {@code beans}.
   *
   * @throws IllegalArgumentException listing every problem found, each naming its class and method
   * @throws NullPointerException if a bean is null
   */
  static AnnotatedEntries scan(JsonMapper mapper, Object... beans) {
    AnnotatedEntries out = new AnnotatedEntries(mapper);
    for (Object bean : beans) {
      Objects.requireNonNull(bean, "bean");
      out.read(bean);
    }
    out.checkNamesOnce();
    out.throwIfProblems();
    return out;
  }

  /**
   * Registers everything on {@code b}.
   *
   * @throws IllegalArgumentException listing the entries {@code b} refused (a name already taken by
   *     an entry registered before, a schema that does not compile), each naming its method
   */
  void registerOn(McpServer.Builder b) {
    for (AnnotatedTool t : tools) {
      String name = t.tool().name();
      attempt(
          t.where(),
          () -> {
            if (t.mayRunAsTask()) {
              b.tool(t.tool(), t.taskStart(), t.handler());
            } else {
              b.tool(t.tool(), t.handler());
            }
            if (!t.scopes().isEmpty()) {
              b.toolScopes(name, t.scopes().toArray(String[]::new));
            }
          });
    }
    for (AnnotatedPrompt p : prompts) {
      attempt(
          p.where(),
          () -> {
            b.prompt(p.prompt(), p.handler());
            if (!p.scopes().isEmpty()) {
              b.promptScopes(p.prompt().name(), p.scopes().toArray(String[]::new));
            }
          });
    }
    for (AnnotatedResource r : resources) {
      Resource resource = r.resource();
      ResourceTemplate template = r.template();
      attempt(
          r.where(),
          () -> {
            String key;
            if (resource != null) {
              b.resource(resource, r.handler());
              key = resource.uri();
            } else {
              ResourceTemplate t = Objects.requireNonNull(template);
              b.resourceTemplate(t, r.handler());
              key = t.uriTemplate();
            }
            if (!r.scopes().isEmpty()) {
              b.resourceScopes(key, r.scopes().toArray(String[]::new));
            }
          });
    }
    throwIfProblems();
  }

  private void attempt(String where, Runnable register) {
    try {
      register.run();
    } catch (IllegalArgumentException e) {
      problems.add(where + ": " + e.getMessage());
    }
  }

  private void read(Object bean) {
    Class<?> type = bean.getClass();
    Set<String> seen = new HashSet<>();
    boolean any = false;
    for (Class<?> k = type; k != null && k != Object.class; k = k.getSuperclass()) {
      Method[] methods = k.getDeclaredMethods();
      Arrays.sort(methods, Comparator.comparing(Method::getName).thenComparing(Method::toString));
      for (Method m : methods) {
        List<Annotation> kinds = kinds(m);
        if (kinds.isEmpty() || m.isBridge() || m.isSynthetic()) {
          continue;
        }
        if (!seen.add(m.getName() + Arrays.toString(m.getParameterTypes()))) {
          continue; // overridden: the most derived annotated declaration counts
        }
        any = true;
        read(bean, m, kinds);
      }
    }
    if (!any) {
      problems.add(
          type.getName()
              + ": has no method annotated @McpTool, @McpPrompt, @McpResource or @McpResourceTemplate");
    }
  }

  private void read(Object bean, Method method, List<Annotation> kinds) {
    if (kinds.size() > 1) {
      problems.add(
          AnnotatedMethod.where(method)
              + ": has "
              + kinds.stream().map(k -> "@" + k.annotationType().getSimpleName()).toList()
              + " (one method is one entry)");
      return;
    }
    AnnotatedMethod m = AnnotatedMethod.read(bean, method, problems);
    if (m == null) {
      return;
    }
    switch (kinds.get(0)) {
      case McpTool a -> add(tools, AnnotatedTool.of(m, a, problems, mapper));
      case McpPrompt a -> add(prompts, AnnotatedPrompt.of(m, a, problems));
      case McpResource a -> add(resources, AnnotatedResource.of(m, a, problems));
      case McpResourceTemplate a -> add(resources, AnnotatedResource.of(m, a, problems, mapper));
      default -> throw new AssertionError(kinds.get(0));
    }
  }

  private static <T> void add(List<T> list, @org.jspecify.annotations.Nullable T entry) {
    if (entry != null) {
      list.add(entry);
    }
  }

  private static List<Annotation> kinds(Method m) {
    List<Annotation> found = new ArrayList<>(1);
    for (Class<? extends Annotation> kind : KINDS) {
      Annotation a = m.getAnnotation(kind);
      if (a != null) {
        found.add(a);
      }
    }
    return found;
  }

  /** Two entries of one kind with the same name (or uri) among the scanned objects. */
  private void checkNamesOnce() {
    Map<String, String> owners = new HashMap<>();
    for (AnnotatedTool t : tools) {
      once(owners, "tool " + t.tool().name(), t.where());
    }
    for (AnnotatedPrompt p : prompts) {
      once(owners, "prompt " + p.prompt().name(), p.where());
    }
    for (AnnotatedResource r : resources) {
      if (r.resource() != null) {
        once(owners, "resource " + r.resource().uri(), r.where());
      } else if (r.template() != null) {
        once(owners, "resource template " + r.template().uriTemplate(), r.where());
      }
    }
  }

  private void once(Map<String, String> owners, String key, String where) {
    String first = owners.putIfAbsent(key, where);
    if (first != null) {
      problems.add(where + ": " + key + " is already declared by " + first);
    }
  }

  private void throwIfProblems() {
    if (problems.isEmpty()) {
      return;
    }
    StringBuilder msg =
        new StringBuilder("annotated entries cannot be registered (")
            .append(problems.size())
            .append(problems.size() == 1 ? " problem)" : " problems)");
    for (String p : problems) {
      msg.append("\n  - ").append(p);
    }
    throw new IllegalArgumentException(msg.toString());
  }
}
