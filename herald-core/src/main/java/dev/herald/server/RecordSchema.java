package dev.herald.server;

import dev.herald.server.annotation.McpParam;
import dev.herald.wire.McpJson;
import java.lang.annotation.Annotation;
import java.lang.reflect.AnnotatedElement;
import java.lang.reflect.AnnotatedType;
import java.lang.reflect.ParameterizedType;
import java.lang.reflect.RecordComponent;
import java.lang.reflect.Type;
import java.lang.reflect.WildcardType;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Deque;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.jspecify.annotations.Nullable;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.ObjectMapper;
import tools.jackson.databind.node.ArrayNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * Derives a tool's input schema (JSON Schema 2020-12) from a record's components.
 *
 * <p>Design note (after the MCP Go SDK's {@code jsonschema.For}). Each component
 * becomes a property of the same name. Supported types: {@code String} (and {@code char}),
 * integral numbers ({@code int}, {@code long}, {@code short}, {@code byte}, their boxes,
 * {@code BigInteger}), other numbers ({@code double}, {@code float}, their boxes,
 * {@code BigDecimal}), {@code boolean}, enums (by the name Jackson reads: a {@code @JsonValue}, else the constant's), {@code List}/{@code Set}/{@code
 * Collection} and arrays of a supported type, {@code Map<String, T>}, and nested records. A
 * component is required unless it is {@code Optional<T>} or annotated with any annotation named
 * {@code Nullable} (JSpecify's type-use one included), or {@code @McpParam(required = false)}; a
 * component's {@code @McpParam} description becomes its property's {@code description}. Objects forbid unknown properties, so a
 * misspelt argument fails validation instead of being ignored. {@code int} components carry their
 * 32-bit bounds. Anything else, and recursive records, are refused at registration.
 */
final class RecordSchema {
  private RecordSchema() {}

  /**
   * One property of a derived object schema: its name, its Java type ({@code Optional} already
   * unwrapped), whether it is required, and its {@code description} if any.
   */
  record Property(
      String name,
      Type type,
      boolean required,
      @Nullable String description,
      @Nullable McpParam param) {}

  /**
   * The schema of {@code type}.
   *
   * @throws IllegalArgumentException naming the component whose type cannot be described
   */
  static ObjectNode of(Class<? extends Record> type, ObjectMapper mapper) {
    return objectSchema(type, new ArrayDeque<>(), mapper);
  }

  /**
   * The object schema of the given properties, in order (an annotated method's parameters);
   * {@code closed} adds {@code additionalProperties: false}.
   *
   * @throws IllegalArgumentException naming the property whose type cannot be described
   */
  static ObjectNode of(List<Property> properties, boolean closed, ObjectMapper mapper) {
    return objectSchema(properties, closed, new ArrayDeque<>(), "", mapper);
  }

  /** The schema of one value of {@code type} (a property's, or an annotated method's result). */
  static ObjectNode valueSchema(Type type, ObjectMapper mapper) {
    return schemaOf(type, new ArrayDeque<>(), mapper);
  }

  /**
   * Whether a property of declared type {@code t} on {@code element} may be absent: {@code
   * Optional<T>}, any annotation named {@code Nullable} (declaration or type-use), or {@code
   * McpParam(required = false)}.
   */
  static boolean optional(Type t, AnnotatedElement element, AnnotatedType annotated) {
    McpParam param = element.getAnnotation(McpParam.class);
    return (t instanceof ParameterizedType p && p.getRawType() == Optional.class)
        || nullable(element)
        || nullable(annotated)
        || (param != null && !param.required());
  }

  /** {@code t} without an outer {@code Optional}. */
  static Type unwrapOptional(Type t) {
    return t instanceof ParameterizedType p && p.getRawType() == Optional.class
        ? p.getActualTypeArguments()[0]
        : t;
  }

  /** The {@link McpParam} description on {@code element}, or null when none or blank. */
  static @Nullable String description(AnnotatedElement element) {
    McpParam param = element.getAnnotation(McpParam.class);
    return param == null || param.description().isBlank() ? null : param.description();
  }

  private static ObjectNode objectSchema(Class<?> type, Deque<Class<?>> path, ObjectMapper mapper) {
    if (path.contains(type)) {
      throw new IllegalArgumentException(
          "record "
              + type.getName()
              + " refers to itself; recursive argument types are not supported");
    }
    path.push(type);
    List<Property> properties = new ArrayList<>();
    Map<String, String> names = JsonNames.of(type, mapper);
    for (RecordComponent c : type.getRecordComponents()) {
      McpParam param = c.getAnnotation(McpParam.class);
      if (param != null && !param.name().isBlank()) {
        throw new IllegalArgumentException(
            type.getSimpleName()
                + "."
                + c.getName()
                + ": @McpParam(name) is for method parameters; a component's name is its property's");
      }
      Type t = c.getGenericType();
      properties.add(
          new Property(
              names.getOrDefault(c.getName(), c.getName()),
              unwrapOptional(t),
              !optional(t, c, c.getAnnotatedType()),
              description(c),
              param));
    }
    ObjectNode schema = objectSchema(properties, true, path, type.getSimpleName() + ".", mapper);
    path.pop();
    return schema;
  }

  private static ObjectNode objectSchema(
      List<Property> properties,
      boolean closed,
      Deque<Class<?>> path,
      String owner,
      ObjectMapper mapper) {
    ObjectNode schema = McpJson.object().put("type", "object");
    ObjectNode props = schema.putObject("properties");
    ArrayNode required = McpJson.mapper().createArrayNode();
    for (Property p : properties) {
      ObjectNode property;
      McpParam param = p.param();
      try {
        if (param != null && ParamKeywords.explicit(param)) {
          property = ParamKeywords.explicitSchema(param);
        } else {
          property = schemaOf(p.type(), path, mapper);
          if (param != null) {
            ParamKeywords.apply(param, property);
          }
        }
      } catch (IllegalArgumentException e) {
        throw new IllegalArgumentException(owner + p.name() + ": " + e.getMessage(), e);
      }
      if (p.description() != null) {
        property.put("description", p.description());
      }
      props.set(p.name(), property);
      if (p.required()) {
        required.add(p.name());
      }
    }
    if (!required.isEmpty()) {
      schema.set("required", required);
    }
    if (closed) {
      schema.put("additionalProperties", false);
    }
    return schema;
  }

  private static ObjectNode schemaOf(Type t, Deque<Class<?>> path, ObjectMapper mapper) {
    if (t instanceof WildcardType w) {
      return schemaOf(w.getUpperBounds()[0], path, mapper);
    }
    if (t instanceof ParameterizedType p) {
      Class<?> raw = (Class<?>) p.getRawType();
      Type[] args = p.getActualTypeArguments();
      if (Collection.class.isAssignableFrom(raw)) {
        ObjectNode s = McpJson.object().put("type", "array");
        s.set("items", schemaOf(args[0], path, mapper));
        return s;
      }
      if (Map.class.isAssignableFrom(raw) && args[0] == String.class) {
        ObjectNode s = McpJson.object().put("type", "object");
        s.set("additionalProperties", schemaOf(args[1], path, mapper));
        return s;
      }
      if (raw == Optional.class) {
        return schemaOf(args[0], path, mapper);
      }
      throw new IllegalArgumentException("unsupported type " + t.getTypeName());
    }
    if (!(t instanceof Class<?> c)) {
      throw new IllegalArgumentException("unsupported type " + t.getTypeName());
    }
    if (c == String.class || c == char.class || c == Character.class) {
      return McpJson.object().put("type", "string");
    }
    if (c == int.class || c == Integer.class) {
      return McpJson.object()
          .put("type", "integer")
          .put("minimum", Integer.MIN_VALUE)
          .put("maximum", Integer.MAX_VALUE);
    }
    if (c == long.class
        || c == Long.class
        || c == short.class
        || c == Short.class
        || c == byte.class
        || c == Byte.class
        || c == BigInteger.class) {
      return McpJson.object().put("type", "integer");
    }
    if (c == double.class
        || c == Double.class
        || c == float.class
        || c == Float.class
        || c == BigDecimal.class) {
      return McpJson.object().put("type", "number");
    }
    if (c == boolean.class || c == Boolean.class) {
      return McpJson.object().put("type", "boolean");
    }
    if (c.isEnum()) {
      ObjectNode s = McpJson.object().put("type", "string");
      ArrayNode values = s.putArray("enum");
      for (Object constant : c.getEnumConstants()) {
        // the value Jackson reads and writes (a @JsonValue wire name, else the constant's name)
        JsonNode wire = mapper.valueToTree(constant);
        values.add(wire.isString() ? wire.stringValue() : ((Enum<?>) constant).name());
      }
      return s;
    }
    if (c.isArray() && c != byte[].class) {
      ObjectNode s = McpJson.object().put("type", "array");
      s.set("items", schemaOf(c.getComponentType(), path, mapper));
      return s;
    }
    if (c.isRecord()) {
      return objectSchema(c, path, mapper);
    }
    throw new IllegalArgumentException(
        "unsupported type "
            + c.getName()
            + " (use String, a number, boolean, an enum, a List, a Map with String keys or a record)");
  }

  private static boolean nullable(AnnotatedElement e) {
    for (Annotation a : e.getAnnotations()) {
      if (a.annotationType().getSimpleName().equals("Nullable")) {
        return true;
      }
    }
    return false;
  }
}
