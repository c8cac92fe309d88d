package dev.herald.server;

import java.math.BigDecimal;
import java.util.List;
import org.jspecify.annotations.Nullable;
import tools.jackson.databind.JsonNode;

/**
 * Finds numbers in a tool's arguments that no handler can hold: beyond the range of a double
 * anywhere, and an integer beyond the range of a long where the schema asks for an integer.
 *
 * <p>Design note (MCP 2025-11-25 server/tools, "Tool": arguments are validated against {@code
 * inputSchema}). JSON Schema's {@code integer} and {@code number} are unbounded, so {@code
 * 1e999999999} conforms to {@code {"type": "integer"}}, yet a handler reading it gets a default
 * or infinity. Such values are refused as invalid arguments, the same way as a schema failure.
 * Magnitudes are read from the decimal's precision and scale, never by expanding the number, so
 * a huge exponent costs nothing.
 *
 * <p>Stateless.
 */
final class NumberRange {
  private static final int MAX_REPORTED = ToolSchema.MAX_REPORTED;

  private NumberRange() {}

  /**
   * Whether every number in {@code value} fits: the common case, answered without building a
   * path ({@link #check} then finds nothing).
   */
  static boolean allFit(@Nullable JsonNode schema, JsonNode value) {
    if (value.isNumber()) {
      return fitsDouble(value) && !(wantsInteger(schema) && isWhole(value) && !fitsLong(value));
    }
    if (value.isObject()) {
      for (var field : value.properties()) {
        if (!allFit(propertySchema(schema, field.getKey()), field.getValue())) {
          return false;
        }
      }
    } else if (value.isArray()) {
      for (int i = 0; i < value.size(); i++) {
        if (!allFit(itemSchema(schema, i), value.get(i))) {
          return false;
        }
      }
    }
    return true;
  }

  /** Adds one line per out-of-range number in {@code value} (at {@code path}) to {@code out}. */
  static void check(@Nullable JsonNode schema, JsonNode value, String path, List<String> out) {
    if (out.size() >= MAX_REPORTED) {
      return;
    }
    if (value.isNumber()) {
      if (!fitsDouble(value)) {
        out.add(path + ": number out of range (larger than a 64-bit floating-point number)");
      } else if (wantsInteger(schema) && isWhole(value) && !fitsLong(value)) {
        out.add(path + ": integer out of range (beyond a signed 64-bit integer)");
      }
      return;
    }
    if (value.isObject()) {
      for (var field : value.properties()) {
        check(
            propertySchema(schema, field.getKey()),
            field.getValue(),
            path + member(field.getKey()),
            out);
      }
    } else if (value.isArray()) {
      for (int i = 0; i < value.size(); i++) {
        check(itemSchema(schema, i), value.get(i), path + "[" + i + "]", out);
      }
    }
  }

  private static boolean wantsInteger(@Nullable JsonNode schema) {
    if (schema == null || !schema.isObject()) {
      return false;
    }
    JsonNode type = schema.get("type");
    if (type == null) {
      return false;
    }
    if (type.isString()) {
      return "integer".equals(type.stringValue());
    }
    boolean integer = false;
    for (JsonNode t : type) {
      if (t.isString() && "number".equals(t.stringValue())) {
        return false;
      }
      integer |= t.isString() && "integer".equals(t.stringValue());
    }
    return integer;
  }

  private static @Nullable JsonNode propertySchema(@Nullable JsonNode schema, String name) {
    if (schema == null || !schema.isObject()) {
      return null;
    }
    JsonNode props = schema.get("properties");
    JsonNode s = props == null ? null : props.get(name);
    if (s != null) {
      return s;
    }
    JsonNode additional = schema.get("additionalProperties");
    return additional != null && additional.isObject() ? additional : null;
  }

  private static @Nullable JsonNode itemSchema(@Nullable JsonNode schema, int index) {
    if (schema == null || !schema.isObject()) {
      return null;
    }
    JsonNode prefix = schema.get("prefixItems");
    if (prefix != null && prefix.isArray() && index < prefix.size()) {
      return prefix.get(index);
    }
    JsonNode items = schema.get("items");
    return items != null && items.isObject() ? items : null;
  }

  /** Digits before the decimal point (may be negative for small fractions), without expanding. */
  private static long magnitude(BigDecimal d) {
    return (long) d.precision() - d.scale();
  }

  static boolean fitsDouble(JsonNode n) {
    if (n.isBigDecimal()) {
      BigDecimal d = n.decimalValue();
      if (d.signum() == 0 || magnitude(d) <= 308) {
        return true;
      }
      return magnitude(d) <= 309 && Double.isFinite(d.doubleValue());
    }
    if (n.isBigInteger()) {
      return n.bigIntegerValue().bitLength() <= 1023;
    }
    return (!n.isDouble() && !n.isFloat()) || Double.isFinite(n.doubleValue());
  }

  private static boolean isWhole(JsonNode n) {
    if (!n.isBigDecimal()) {
      return n.isIntegralNumber();
    }
    BigDecimal d = n.decimalValue();
    return d.signum() == 0 || magnitude(d) > 19 || d.stripTrailingZeros().scale() <= 0;
  }

  static boolean fitsLong(JsonNode n) {
    if (n.isBigInteger()) {
      return n.bigIntegerValue().bitLength() <= 63;
    }
    if (n.isBigDecimal()) {
      BigDecimal d = n.decimalValue();
      if (d.signum() == 0) {
        return true;
      }
      if (magnitude(d) > 19) {
        return false;
      }
      try {
        d.toBigIntegerExact().longValueExact();
        return true;
      } catch (ArithmeticException e) {
        return false;
      }
    }
    return true; // int and long nodes fit by construction
  }

  /** {@code .name} for plain names, {@code ['…']} otherwise (as the validator writes paths). */
  private static String member(String name) {
    if (name.matches("[A-Za-z_][A-Za-z0-9_]*") && name.length() <= 64) {
      return "." + name;
    }
    String shown = name.length() > 64 ? name.substring(0, 64) + "..." : name;
    return "['" + shown.replace("'", "\\'") + "']";
  }
}
