package dev.herald.cli;

import dev.herald.wire.McpJson;
import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.jspecify.annotations.Nullable;
import tools.jackson.core.JacksonException;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * A tool's arguments from the command line: {@code key=value} pairs, each value parsed
 * as JSON when it is valid JSON (numbers, booleans, objects, arrays, quoted strings) and kept as a
 * plain string otherwise, merged over {@code --json '{...}'}. When the tool's {@code inputSchema}
 * gives a property's type, the value is read as that type instead ({@code text=5} is the string
 * {@code "5"} for a string property; {@code steps=5} the integer 5 for an integer one).
 *
 * <p>Syntax is checked before connecting ({@link #parse}); types once the schema is known
 * ({@link #build}). Both fail with {@link BadArgument}, which the commands turn into exit 2.
 */
final class ToolArguments {
  private ToolArguments() {}

  /** A malformed pair or a value that does not fit its property: one line, exit 2. */
  static final class BadArgument extends Exception {
    private static final long serialVersionUID = 1L;

    BadArgument(String message) {
      super(message);
    }
  }

  /** The pairs in order, keys checked; values still raw text. */
  static Map<String, String> parse(List<String> pairs) throws BadArgument {
    Map<String, String> out = new LinkedHashMap<>();
    for (String pair : pairs) {
      int eq = pair.indexOf('=');
      if (eq < 0) {
        throw new BadArgument("bad argument '" + pair + "': expected key=value");
      }
      if (eq == 0) {
        throw new BadArgument("bad argument '" + pair + "': the key before '=' is empty");
      }
      String key = pair.substring(0, eq);
      if (out.put(key, pair.substring(eq + 1)) != null) {
        throw new BadArgument("argument '" + key + "' is given twice");
      }
    }
    return out;
  }

  /** {@code --json}'s object, or an empty one. */
  static ObjectNode parseJson(@Nullable String json) throws BadArgument {
    if (json == null) {
      return McpJson.object();
    }
    JsonNode node;
    try {
      node = McpJson.mapper().readTree(json);
    } catch (JacksonException e) {
      throw new BadArgument("--json is not valid JSON: " + e.getOriginalMessage());
    }
    if (node == null || !node.isObject()) {
      throw new BadArgument("--json must be a JSON object, like '{\"steps\": 5}'");
    }
    return (ObjectNode) node;
  }

  /** The arguments object: {@code json} with the pairs set over it, typed by {@code inputSchema} when given. */
  static ObjectNode build(
      Map<String, String> pairs, ObjectNode json, @Nullable JsonNode inputSchema)
      throws BadArgument {
    ObjectNode out = json.deepCopy();
    JsonNode properties = inputSchema == null ? null : inputSchema.get("properties");
    for (Map.Entry<String, String> e : pairs.entrySet()) {
      JsonNode property = properties == null ? null : properties.get(e.getKey());
      out.set(e.getKey(), value(e.getKey(), e.getValue(), types(property)));
    }
    return out;
  }

  private static List<String> types(@Nullable JsonNode property) {
    List<String> types = new ArrayList<>();
    JsonNode type = property == null ? null : property.get("type");
    if (type != null && type.isString()) {
      types.add(type.stringValue());
    } else if (type != null && type.isArray()) {
      type.forEach(t -> {
        if (t.isString()) {
          types.add(t.stringValue());
        }
      });
    }
    return types;
  }

  static JsonNode value(String key, String raw, List<String> types) throws BadArgument {
    JsonNode json = json(raw);
    if (types.isEmpty()) {
      return json != null ? json : McpJson.mapper().getNodeFactory().stringNode(raw);
    }
    if (json != null && fits(json, types)) {
      return json;
    }
    if (types.contains("string")) {
      return McpJson.mapper().getNodeFactory().stringNode(raw); // text=5 is the string "5"
    }
    if (types.contains("number")) {
      try {
        return McpJson.mapper().getNodeFactory().numberNode(new BigDecimal(raw));
      } catch (NumberFormatException notANumber) {
        // falls through to the error below
      }
    }
    throw new BadArgument(
        "argument '"
            + key
            + "' must be "
            + String.join(" or ", types.stream().map(ToolArguments::article).toList())
            + ", not '"
            + raw
            + "'");
  }

  private static boolean fits(JsonNode v, List<String> types) {
    for (String t : types) {
      boolean ok =
          switch (t) {
            case "string" -> v.isString();
            case "integer" -> v.isIntegralNumber();
            case "number" -> v.isNumber();
            case "boolean" -> v.isBoolean();
            case "object" -> v.isObject();
            case "array" -> v.isArray();
            case "null" -> v.isNull();
            default -> false;
          };
      if (ok) {
        return true;
      }
    }
    return false;
  }

  private static String article(String type) {
    return switch (type) {
      case "integer", "object", "array" -> "an " + type;
      default -> "a " + type;
    };
  }

  private static @Nullable JsonNode json(String raw) {
    if (raw.isEmpty()) {
      return null;
    }
    try {
      return McpJson.mapper().readTree(raw);
    } catch (JacksonException notJson) {
      return null;
    }
  }
}
