package dev.herald.server;

import java.math.BigDecimal;
import java.util.Map;
import org.jspecify.annotations.Nullable;
import tools.jackson.databind.JsonNode;

/**
 * Says, for the usual tool schema and arguments, that the arguments certainly conform, so the
 * JSON Schema validator need not run (it allocates a context, a configuration and collections per
 * call, a good part of a tool call's CPU).
 *
 * <p>Design note (MCP 2025-11-25 server/tools, "Tool": arguments are validated against {@code
 * inputSchema}; JSON Schema 2020-12). It reads a few keywords only: {@code type}, {@code
 * properties}, {@code required}, {@code additionalProperties}, {@code items}, {@code enum} of
 * strings, booleans and null, {@code minLength}/{@code maxLength}, {@code minimum}/{@code
 * maximum} and their exclusive forms, and the annotations ({@code title}, {@code description},
 * {@code default}, {@code examples}, {@code $comment}, {@code deprecated}, {@code readOnly},
 * {@code writeOnly}, {@code x-} extensions). It answers {@code true} only when every keyword of
 * every subschema that applies is one of these and holds; anything else, a failure included, is
 * "not sure", and the validator decides and words the failure. So it can make a call cheaper,
 * never change its outcome. An integer given as a decimal ({@code 1.0}) is "not sure" too.
 *
 * <p>Stateless.
 */
final class SchemaShortcut {
  private SchemaShortcut() {}

  private static final String DIALECT_2020_12 = "https://json-schema.org/draft/2020-12/schema";

  /** Deeper than this is left to the validator. */
  private static final int MAX_DEPTH = 16;

  /** Whether the shortcut may be asked about {@code schema} (a 2020-12 object schema). */
  static boolean applies(JsonNode schema) {
    if (!schema.isObject()) {
      return false;
    }
    JsonNode dialect = schema.get("$schema");
    return dialect == null || (dialect.isString() && DIALECT_2020_12.equals(dialect.stringValue()));
  }

  /** True if {@code instance} certainly conforms to {@code schema}; false if not sure. */
  static boolean accepts(JsonNode schema, JsonNode instance) {
    return accepts(schema, instance, 0, true);
  }

  private static boolean accepts(JsonNode schema, JsonNode instance, int depth, boolean top) {
    if (schema.isBoolean()) {
      return schema.booleanValue();
    }
    if (!schema.isObject() || depth > MAX_DEPTH) {
      return false;
    }
    @Nullable JsonNode properties = null;
    @Nullable JsonNode additional = null;
    for (Map.Entry<String, JsonNode> field : schema.properties()) {
      String keyword = field.getKey();
      JsonNode v = field.getValue();
      boolean holds =
          switch (keyword) {
            case "type" -> type(v, instance);
            case "properties" -> {
              properties = v;
              yield properties(v, instance, depth);
            }
            case "additionalProperties" -> {
              additional = v;
              yield true; // checked below, once "properties" is known
            }
            case "required" -> required(v, instance);
            case "items" -> items(v, instance, depth);
            case "enum" -> inEnum(v, instance);
            case "minLength" -> length(v, instance, true);
            case "maxLength" -> length(v, instance, false);
            case "minimum" -> bound(v, instance, 1, true);
            case "exclusiveMinimum" -> bound(v, instance, 1, false);
            case "maximum" -> bound(v, instance, -1, true);
            case "exclusiveMaximum" -> bound(v, instance, -1, false);
            case "title", "description", "$comment" -> v.isString();
            case "default", "examples" -> true;
            case "deprecated", "readOnly", "writeOnly" -> v.isBoolean();
            case "$schema" -> top; // checked by applies(): only the document's own
            default -> keyword.startsWith("x-");
          };
      if (!holds) {
        return false;
      }
    }
    return additional == null || additional(additional, properties, instance, depth);
  }

  private static boolean type(JsonNode type, JsonNode instance) {
    if (type.isString()) {
      return isType(type.stringValue(), instance);
    }
    if (!type.isArray() || type.isEmpty()) {
      return false;
    }
    for (JsonNode t : type) {
      if (t.isString() && isType(t.stringValue(), instance)) {
        return true;
      }
    }
    return false;
  }

  private static boolean isType(String name, JsonNode instance) {
    return switch (name) {
      case "object" -> instance.isObject();
      case "array" -> instance.isArray();
      case "string" -> instance.isString();
      case "boolean" -> instance.isBoolean();
      case "null" -> instance.isNull();
      case "number" -> instance.isNumber();
      case "integer" -> instance.isIntegralNumber(); // 1.0 is an integer too: the validator's call
      default -> false;
    };
  }

  private static boolean properties(JsonNode properties, JsonNode instance, int depth) {
    if (!properties.isObject()) {
      return false;
    }
    if (!instance.isObject()) {
      return true; // applies to objects only
    }
    for (Map.Entry<String, JsonNode> p : properties.properties()) {
      JsonNode value = instance.get(p.getKey());
      if (value != null && !accepts(p.getValue(), value, depth + 1, false)) {
        return false;
      }
    }
    return true;
  }

  private static boolean additional(
      JsonNode additional, @Nullable JsonNode properties, JsonNode instance, int depth) {
    if (properties != null && !properties.isObject()) {
      return false;
    }
    if (!instance.isObject()) {
      return additional.isBoolean() || additional.isObject();
    }
    for (Map.Entry<String, JsonNode> member : instance.properties()) {
      if (properties != null && properties.has(member.getKey())) {
        continue;
      }
      if (!accepts(additional, member.getValue(), depth + 1, false)) {
        return false;
      }
    }
    return true;
  }

  private static boolean required(JsonNode required, JsonNode instance) {
    if (!required.isArray()) {
      return false;
    }
    for (JsonNode name : required) {
      if (!name.isString() || (instance.isObject() && !instance.has(name.stringValue()))) {
        return false;
      }
    }
    return true;
  }

  private static boolean items(JsonNode items, JsonNode instance, int depth) {
    if (!items.isObject() && !items.isBoolean()) {
      return false;
    }
    if (!instance.isArray()) {
      return true;
    }
    for (JsonNode item : instance) {
      if (!accepts(items, item, depth + 1, false)) {
        return false;
      }
    }
    return true;
  }

  /** Only strings, booleans and null are compared here (numbers compare by value in JSON Schema). */
  private static boolean inEnum(JsonNode values, JsonNode instance) {
    if (!values.isArray()
        || values.isEmpty()
        || !(instance.isString() || instance.isBoolean() || instance.isNull())) {
      return false;
    }
    for (JsonNode v : values) {
      if (v.equals(instance)) {
        return true;
      }
    }
    return false;
  }

  private static boolean length(JsonNode bound, JsonNode instance, boolean min) {
    if (!bound.isIntegralNumber() || !bound.canConvertToInt() || bound.intValue() < 0) {
      return false;
    }
    if (!instance.isString()) {
      return true;
    }
    String s = instance.stringValue();
    int b = bound.intValue();
    // both counts must agree with the bound, whichever the validator uses
    int units = s.length();
    int points = s.codePointCount(0, units);
    return min ? units >= b && points >= b : units <= b && points <= b;
  }

  /**
   * {@code sign} 1 for a lower bound, -1 for an upper one; {@code inclusive} whether equal passes.
   */
  private static boolean bound(JsonNode bound, JsonNode instance, int sign, boolean inclusive) {
    if (!exactNumber(bound)) {
      return false;
    }
    if (!instance.isNumber()) {
      return true; // applies to numbers only
    }
    if (!exactNumber(instance)) {
      return false;
    }
    BigDecimal i = instance.decimalValue();
    BigDecimal b = bound.decimalValue();
    int c = Integer.signum(i.compareTo(b)) * sign;
    return inclusive ? c >= 0 : c > 0;
  }

  /** A number whose decimal value is exact: an integer node or a decimal one (never a double). */
  private static boolean exactNumber(JsonNode n) {
    return n.isIntegralNumber() || n.isBigDecimal();
  }
}
