package dev.herald.server;

import dev.herald.server.annotation.McpResource;
import dev.herald.server.annotation.McpResourceTemplate;
import dev.herald.wire.McpJson;
import dev.herald.wire.ReadResourceResult;
import dev.herald.wire.Resource;
import dev.herald.wire.ResourceContents;
import dev.herald.wire.ResourceTemplate;
import java.lang.reflect.ParameterizedType;
import java.lang.reflect.Type;
import java.util.ArrayList;
import java.util.Base64;
import java.util.Collection;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import org.jspecify.annotations.Nullable;
import tools.jackson.core.JacksonException;
import tools.jackson.databind.json.JsonMapper;
import tools.jackson.databind.node.StringNode;

/**
 * A resource or resource template made from an {@link McpResource} or {@link McpResourceTemplate}
 * method (MCP 2025-11-25 server/resources): its definition, and a {@link ResourceHandler} that
 * binds the template's variables to the parameters and converts what the method returns.
 *
 * @param resource the fixed resource, or null for a template
 * @param template the template, or null for a fixed resource
 * @param scopes the OAuth scopes it needs (none: empty)
 */
record AnnotatedResource(
    @Nullable Resource resource,
    @Nullable ResourceTemplate template,
    ResourceHandler handler,
    String where,
    List<String> scopes) {
  private enum Result {
    READ_RESOURCE_RESULT,
    CONTENTS,
    CONTENTS_LIST,
    TEXT,
    BYTES
  }

  /** The resource of {@code m}, or null after adding its problems to {@code problems}. */
  static @Nullable AnnotatedResource of(AnnotatedMethod m, McpResource a, List<String> problems) {
    int before = problems.size();
    for (AnnotatedMethod.Arg arg : m.args()) {
      problems.add(
          m.where
              + ": parameter "
              + arg.name()
              + " has nothing to bind to: a resource with a fixed uri takes only a RequestContext"
              + " (use @McpResourceTemplate for variables)");
    }
    if (a.uri().isBlank()) {
      problems.add(m.where + ": @McpResource has a blank uri");
    }
    String mimeType = AnnotatedMethod.orNull(a.mimeType());
    Result result = result(m, problems);
    if (problems.size() > before || result == null) {
      return null;
    }
    Resource resource =
        new Resource(
            a.uri(),
            name(a.name(), m),
            AnnotatedMethod.orNull(a.title()),
            AnnotatedMethod.orNull(a.description()),
            mimeType,
            null,
            null,
            null,
            null);
    return new AnnotatedResource(
        resource,
        null,
        handler(m, result, mimeType, McpJson.mapper()),
        m.where,
        List.of(a.scopes()));
  }

  /** The template of {@code m}, or null after adding its problems to {@code problems}. */
  static @Nullable AnnotatedResource of(
      AnnotatedMethod m, McpResourceTemplate a, List<String> problems, JsonMapper mapper) {
    int before = problems.size();
    List<String> variables = List.of();
    try {
      variables = UriTemplate.parse(a.uriTemplate()).variables();
    } catch (IllegalArgumentException e) {
      problems.add(m.where + ": " + e.getMessage());
    }
    Set<String> unbound = new LinkedHashSet<>(variables);
    for (AnnotatedMethod.Arg arg : m.args()) {
      if (!unbound.remove(arg.name())) {
        problems.add(
            m.where
                + ": parameter "
                + arg.name()
                + " is not a variable of "
                + a.uriTemplate()
                + " (variables: "
                + variables
                + ")");
      } else if (!VariableType.supports(arg.type())) {
        problems.add(
            m.where
                + ": parameter "
                + arg.name()
                + " is a "
                + arg.declared().getTypeName()
                + " (template variables bind to String, int, long, their boxes or an enum)");
      }
    }
    for (String v : unbound) {
      problems.add(
          m.where + ": template variable {" + v + "} of " + a.uriTemplate() + " has no parameter");
    }
    String mimeType = AnnotatedMethod.orNull(a.mimeType());
    Result result = result(m, problems);
    if (problems.size() > before || result == null) {
      return null;
    }
    ResourceTemplate template =
        new ResourceTemplate(
            a.uriTemplate(),
            name(a.name(), m),
            AnnotatedMethod.orNull(a.title()),
            AnnotatedMethod.orNull(a.description()),
            mimeType,
            null,
            null,
            null);
    return new AnnotatedResource(
        null, template, handler(m, result, mimeType, mapper), m.where, List.of(a.scopes()));
  }

  private static String name(String given, AnnotatedMethod m) {
    return given.isBlank() ? AnnotatedMethod.snakeCase(m.method.getName()) : given;
  }

  private static ResourceHandler handler(
      AnnotatedMethod m, Result kind, @Nullable String mimeType, JsonMapper mapper) {
    return read -> {
      @Nullable Object[] values = new Object[m.slots.size()];
      for (int i = 0; i < values.length; i++) {
        if (m.slots.get(i) instanceof AnnotatedMethod.Arg arg) {
          String raw = read.variable(arg.name());
          if (raw == null) {
            throw ResourceHandler.notFound(read.uri());
          }
          Object value = VariableType.parse(arg.type(), raw, mapper);
          if (value == null) {
            throw ResourceHandler.notFound(read.uri()); // not a number where one is expected
          }
          values[i] = arg.present(value);
        } else {
          values[i] = read.context();
        }
      }
      return convert(kind, m.invoke(values), read.uri(), mimeType, m.where);
    };
  }

  private static @Nullable Result result(AnnotatedMethod m, List<String> problems) {
    Type t = m.method.getGenericReturnType();
    Result r = null;
    if (t == ReadResourceResult.class) {
      r = Result.READ_RESOURCE_RESULT;
    } else if (t instanceof Class<?> c && ResourceContents.class.isAssignableFrom(c)) {
      r = Result.CONTENTS;
    } else if (t == String.class) {
      r = Result.TEXT;
    } else if (t == byte[].class) {
      r = Result.BYTES;
    } else if (t instanceof ParameterizedType p
        && p.getRawType() instanceof Class<?> raw
        && Collection.class.isAssignableFrom(raw)
        && p.getActualTypeArguments()[0] instanceof Class<?> e
        && ResourceContents.class.isAssignableFrom(e)) {
      r = Result.CONTENTS_LIST;
    }
    if (r == null) {
      problems.add(
          m.where
              + ": cannot return "
              + t.getTypeName()
              + " (return ReadResourceResult, ResourceContents, List<ResourceContents>, String or byte[])");
    }
    return r;
  }

  private static ReadResourceResult convert(
      Result kind, @Nullable Object value, String uri, @Nullable String mimeType, String where) {
    if (value == null) {
      throw new IllegalStateException(where + " returned null for " + uri);
    }
    return switch (kind) {
      case READ_RESOURCE_RESULT -> (ReadResourceResult) value;
      case CONTENTS -> ReadResourceResult.of((ResourceContents) value);
      case TEXT -> ReadResourceResult.of(ResourceContents.text(uri, mimeType, (String) value));
      case BYTES ->
          ReadResourceResult.of(
              ResourceContents.blob(
                  uri, mimeType, Base64.getEncoder().encodeToString((byte[]) value)));
      case CONTENTS_LIST -> {
        List<ResourceContents> contents = new ArrayList<>();
        for (Object o : (Collection<?>) value) {
          contents.add((ResourceContents) o);
        }
        yield ReadResourceResult.of(contents);
      }
    };
  }

  /** The types a template variable binds to, and parsing them. */
  private static final class VariableType {
    private VariableType() {}

    static boolean supports(Type t) {
      return t == String.class
          || t == int.class
          || t == Integer.class
          || t == long.class
          || t == Long.class
          || (t instanceof Class<?> c && c.isEnum());
    }

    /** {@code raw} as {@code t}, or null when it is not a number where one is expected. */
    static @Nullable Object parse(Type t, String raw, JsonMapper mapper) {
      if (t instanceof Class<?> c && c.isEnum()) {
        try {
          // by the name the server's mapper reads (a @JsonValue, its enum naming, else the
          // constant's)
          return mapper.treeToValue(StringNode.valueOf(raw), c);
        } catch (JacksonException e) {
          return null;
        }
      }
      try {
        if (t == int.class || t == Integer.class) {
          return Integer.parseInt(raw);
        }
        if (t == long.class || t == Long.class) {
          return Long.parseLong(raw);
        }
      } catch (NumberFormatException e) {
        return null;
      }
      return raw;
    }
  }
}
