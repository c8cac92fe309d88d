package dev.herald.server;

import dev.herald.server.annotation.McpParam;
import dev.herald.wire.McpJson;
import java.util.HashSet;
import java.util.Set;
import java.util.regex.Pattern;
import java.util.regex.PatternSyntaxException;
import org.jspecify.annotations.Nullable;
import tools.jackson.core.JacksonException;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ArrayNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * The JSON Schema keywords an {@link McpParam} adds to a derived property schema ({@code minimum},
 * {@code maximum}, their exclusive forms, {@code minLength}, {@code maxLength}, {@code pattern},
 * {@code enum}, {@code default}, {@code x-mcp-header}), or the explicit schema it gives instead.
 *
 * <p>Design note. Each attribute is checked against the property it lands on (a bound on a number,
 * a length on a string, a default that conforms...) when the tool is registered, so a mistake
 * fails start-up with the argument's name and the reason instead of producing a schema that
 * refuses every call. Attributes left at their defaults add nothing, so a parameter without them
 * has exactly the schema {@link RecordSchema} derives from its type.
 */
final class ParamKeywords {
  private ParamKeywords() {}

  /** {@code 1*tchar} (RFC 9110 §5.6.2), what an {@code x-mcp-header} name must be. */
  private static final Pattern TOKEN = Pattern.compile("[!#$%&'*+.^_`|~0-9A-Za-z-]+");

  /** Whether {@code p} gives the argument's whole schema ({@link McpParam#schema()}). */
  static boolean explicit(@Nullable McpParam p) {
    return p != null && !p.schema().isBlank();
  }

  /** Whether {@code p} sets any schema attribute (everything but name, description, required). */
  static boolean any(McpParam p) {
    return explicit(p)
        || !Double.isNaN(p.minimum())
        || !Double.isNaN(p.maximum())
        || !Double.isNaN(p.exclusiveMinimum())
        || !Double.isNaN(p.exclusiveMaximum())
        || p.minLength() != -1
        || p.maxLength() != -1
        || !p.pattern().isEmpty()
        || p.allowedValues().length > 0
        || !p.defaultValue().isEmpty()
        || !p.header().isEmpty();
  }

  /**
   * The explicit schema of {@code p}, parsed and checked.
   *
   * @throws IllegalArgumentException if it is not a JSON object that is a valid JSON Schema, or
   *     another schema attribute is given beside it
   */
  static ObjectNode explicitSchema(McpParam p) {
    ObjectNode schema = parseSchema(p.schema(), "@McpParam(schema)");
    if (!Double.isNaN(p.minimum())
        || !Double.isNaN(p.maximum())
        || !Double.isNaN(p.exclusiveMinimum())
        || !Double.isNaN(p.exclusiveMaximum())
        || p.minLength() != -1
        || p.maxLength() != -1
        || !p.pattern().isEmpty()
        || p.allowedValues().length > 0
        || !p.defaultValue().isEmpty()
        || !p.header().isEmpty()) {
      throw new IllegalArgumentException(
          "@McpParam(schema) replaces the derived schema: say its other keywords in it");
    }
    return schema;
  }

  /**
   * {@code json} as a JSON Schema object.
   *
   * @throws IllegalArgumentException naming {@code what} if it is not JSON, not an object, or not
   *     a valid JSON Schema 2020-12
   */
  static ObjectNode parseSchema(String json, String what) {
    JsonNode node;
    try {
      node = McpJson.mapper().readTree(json);
    } catch (JacksonException e) {
      throw new IllegalArgumentException(
          what + " is not JSON: " + firstLine(e.getOriginalMessage()), e);
    }
    if (!(node instanceof ObjectNode o)) {
      throw new IllegalArgumentException(what + " is not a JSON object");
    }
    ToolSchema.metaSchemaProblems(o)
        .ifPresent(why -> {
          throw new IllegalArgumentException(what + " is not a valid JSON Schema: " + why);
        });
    return o;
  }

  /**
   * Adds {@code p}'s attributes to {@code property}, the schema derived from the argument's type.
   *
   * @throws IllegalArgumentException saying which attribute does not fit the property, and why
   */
  static void apply(McpParam p, ObjectNode property) {
    String type = property.path("type").asString("");
    boolean number = type.equals("number") || type.equals("integer");
    bound(p.minimum(), "minimum", property, number);
    bound(p.maximum(), "maximum", property, number);
    bound(p.exclusiveMinimum(), "exclusiveMinimum", property, number);
    bound(p.exclusiveMaximum(), "exclusiveMaximum", property, number);
    double low = Math.max(lowest(p.minimum()), lowest(p.exclusiveMinimum()));
    double high = Math.min(highest(p.maximum()), highest(p.exclusiveMaximum()));
    if (low > high
        || (low == high
            && (!Double.isNaN(p.exclusiveMinimum()) || !Double.isNaN(p.exclusiveMaximum())))) {
      throw new IllegalArgumentException(
          "its bounds leave no value (the lower is above the upper)");
    }
    boolean string = type.equals("string");
    length(p.minLength(), "minLength", property, string);
    length(p.maxLength(), "maxLength", property, string);
    if (p.minLength() >= 0 && p.maxLength() >= 0 && p.minLength() > p.maxLength()) {
      throw new IllegalArgumentException(
          "minLength " + p.minLength() + " is above maxLength " + p.maxLength());
    }
    if (!p.pattern().isEmpty()) {
      requireType(string, "pattern", "a string", type);
      try {
        Pattern.compile(p.pattern());
      } catch (PatternSyntaxException e) {
        throw new IllegalArgumentException(
            "pattern is not a regular expression: " + firstLine(e.getMessage()), e);
      }
      property.put("pattern", p.pattern());
    }
    if (p.allowedValues().length > 0) {
      requireType(string, "allowedValues", "a string", type);
      if (property.has("enum")) {
        throw new IllegalArgumentException(
            "allowedValues on an enum argument: its constants are its values already");
      }
      Set<String> seen = new HashSet<>();
      ArrayNode values = property.putArray("enum");
      for (String v : p.allowedValues()) {
        if (!seen.add(v)) {
          throw new IllegalArgumentException("allowedValues lists \"" + v + "\" twice");
        }
        values.add(v);
      }
    }
    if (!p.header().isEmpty()) {
      requireType(
          type.equals("string") || type.equals("integer") || type.equals("boolean"),
          "header",
          "a string, integer or boolean",
          type);
      if (!TOKEN.matcher(p.header()).matches()) {
        throw new IllegalArgumentException(
            "header \""
                + p.header()
                + "\" is not an HTTP token (letters, digits and !#$%&'*+-.^_`|~)");
      }
      property.put("x-mcp-header", p.header());
    }
    if (!p.defaultValue().isEmpty()) {
      JsonNode value;
      try {
        value = McpJson.mapper().readTree(p.defaultValue());
      } catch (JacksonException e) {
        throw new IllegalArgumentException(
            "defaultValue is not JSON: " + firstLine(e.getOriginalMessage()), e);
      }
      ToolSchema.compile(property, "the argument's schema")
          .check(value)
          .ifPresent(why -> {
            throw new IllegalArgumentException(
                "defaultValue " + value + " does not conform to the argument's schema: " + why);
          });
      property.set("default", value);
    }
  }

  private static void bound(double value, String keyword, ObjectNode property, boolean number) {
    if (Double.isNaN(value)) {
      return;
    }
    requireType(number, keyword, "a number", property.path("type").asString(""));
    if (Double.isInfinite(value)) {
      throw new IllegalArgumentException(keyword + " must be finite");
    }
    // An int's own 32-bit bounds: a narrower bound replaces them, a wider one is refused.
    JsonNode min = property.get("minimum");
    JsonNode max = property.get("maximum");
    if ((min != null && min.isNumber() && value < min.asDouble())
        || (max != null && max.isNumber() && value > max.asDouble())) {
      throw new IllegalArgumentException(
          keyword + " " + format(value) + " is beyond what the parameter's type can hold");
    }
    if (value == Math.rint(value) && Math.abs(value) < 0x1p53) {
      long whole = (long) value;
      if (whole == (int) whole) {
        property.put(keyword, (int) whole);
      } else {
        property.put(keyword, whole);
      }
    } else {
      property.put(keyword, value);
    }
  }

  private static void length(int value, String keyword, ObjectNode property, boolean string) {
    if (value == -1) {
      return;
    }
    requireType(string, keyword, "a string", property.path("type").asString(""));
    if (value < 0) {
      throw new IllegalArgumentException(keyword + " must not be negative, was " + value);
    }
    property.put(keyword, value);
  }

  private static void requireType(boolean ok, String attribute, String needed, String type) {
    if (!ok) {
      throw new IllegalArgumentException(
          attribute
              + " applies to "
              + needed
              + " argument, not to "
              + (type.isEmpty() ? "this one" : "one of type " + type));
    }
  }

  private static double lowest(double bound) {
    return Double.isNaN(bound) ? Double.NEGATIVE_INFINITY : bound;
  }

  private static double highest(double bound) {
    return Double.isNaN(bound) ? Double.POSITIVE_INFINITY : bound;
  }

  private static String format(double v) {
    return v == Math.rint(v) && Math.abs(v) < 0x1p53 ? Long.toString((long) v) : Double.toString(v);
  }

  private static String firstLine(@Nullable String s) {
    if (s == null) {
      return "malformed";
    }
    int cut = s.indexOf('\n');
    return cut >= 0 ? s.substring(0, cut) : s;
  }
}
