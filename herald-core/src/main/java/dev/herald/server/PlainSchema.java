package dev.herald.server;

import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.regex.Pattern;
import tools.jackson.databind.JsonNode;

/**
 * Whether a tool schema is plain enough that compiling it cannot fail, so that {@link ToolSchema}
 * may compile it on the tool's first call instead of at registration without changing what a
 * registration refuses.
 *
 * <p>Plain means: every keyword is one of a fixed list of JSON Schema 2020-12 keywords whose value
 * has the shape the keyword needs (a type name, a non-negative integer, a subschema, a non-empty
 * array of subschemas...), or an {@code x-} extension (an annotation in Herald's dialect); a
 * {@code $schema} names 2020-12 itself; a {@code $ref} is a JSON pointer into the same document
 * that resolves to a plain subschema; an {@code $anchor} is a plain name used once. Anything else
 * ({@code pattern}, {@code $id}, an anchor reference,
 * {@code $dynamicRef}, another dialect, a remote or dangling reference...) is compiled at once, as
 * before, so that a broken schema is still refused when the tool is registered.
 *
 * <p>Compiling a schema loads and initialises the validator (a few hundred classes), which a
 * server spawned on demand over stdio would otherwise pay for before it answers {@code initialize}.
 */
final class PlainSchema {
  private final JsonNode root;

  /** Subschemas still to look at before giving up (references can fan out): compiled at once. */
  private int budget = 10_000;

  private PlainSchema(JsonNode root) {
    this.root = root;
  }

  private static final String DIALECT_2020_12 = "https://json-schema.org/draft/2020-12/schema";

  private static final Set<String> TYPES =
      Set.of("object", "array", "string", "number", "integer", "boolean", "null");

  private enum Shape {
    ANY,
    STRING,
    TYPE,
    NUMBER,
    COUNT,
    BOOLEAN,
    STRINGS,
    NON_EMPTY_ARRAY,
    SCHEMA,
    SCHEMAS,
    SCHEMA_MAP,
    REF,
    ANCHOR,
    DIALECT
  }

  private static final Map<String, Shape> KEYWORDS =
      Map.ofEntries(
          Map.entry("type", Shape.TYPE),
          Map.entry("title", Shape.STRING),
          Map.entry("description", Shape.STRING),
          Map.entry("format", Shape.STRING),
          Map.entry("$comment", Shape.STRING),
          Map.entry("default", Shape.ANY),
          Map.entry("const", Shape.ANY),
          Map.entry("examples", Shape.ANY),
          Map.entry("deprecated", Shape.BOOLEAN),
          Map.entry("readOnly", Shape.BOOLEAN),
          Map.entry("writeOnly", Shape.BOOLEAN),
          Map.entry("enum", Shape.NON_EMPTY_ARRAY),
          Map.entry("required", Shape.STRINGS),
          Map.entry("minimum", Shape.NUMBER),
          Map.entry("maximum", Shape.NUMBER),
          Map.entry("exclusiveMinimum", Shape.NUMBER),
          Map.entry("exclusiveMaximum", Shape.NUMBER),
          Map.entry("minLength", Shape.COUNT),
          Map.entry("maxLength", Shape.COUNT),
          Map.entry("minItems", Shape.COUNT),
          Map.entry("maxItems", Shape.COUNT),
          Map.entry("minProperties", Shape.COUNT),
          Map.entry("maxProperties", Shape.COUNT),
          Map.entry("uniqueItems", Shape.BOOLEAN),
          Map.entry("properties", Shape.SCHEMA_MAP),
          Map.entry("$defs", Shape.SCHEMA_MAP),
          Map.entry("additionalProperties", Shape.SCHEMA),
          Map.entry("items", Shape.SCHEMA),
          Map.entry("not", Shape.SCHEMA),
          Map.entry("if", Shape.SCHEMA),
          Map.entry("then", Shape.SCHEMA),
          Map.entry("else", Shape.SCHEMA),
          Map.entry("$anchor", Shape.ANCHOR),
          Map.entry("allOf", Shape.SCHEMAS),
          Map.entry("anyOf", Shape.SCHEMAS),
          Map.entry("oneOf", Shape.SCHEMAS),
          Map.entry("$ref", Shape.REF),
          Map.entry("$schema", Shape.DIALECT));

  /** A plain-name fragment (JSON Schema 2020-12 core, 8.2.2). */
  private static final Pattern ANCHOR_NAME = Pattern.compile("[A-Za-z_][-A-Za-z0-9._]*");

  /** Deeper than this is not looked at: compiled at once. */
  private static final int MAX_DEPTH = 32;

  /** Whether {@code schema} (a whole document) is plain. */
  static boolean test(JsonNode schema) {
    return schema.isObject()
        && anchorsUnique(schema)
        && new PlainSchema(schema).schema(schema, 0, true);
  }

  private boolean schema(JsonNode node, int depth, boolean top) {
    if (--budget < 0) {
      return false;
    }
    if (node.isBoolean()) {
      return true;
    }
    if (!node.isObject() || depth > MAX_DEPTH) {
      return false;
    }
    for (Map.Entry<String, JsonNode> field : node.properties()) {
      String keyword = field.getKey();
      if (keyword.startsWith("x-")) {
        continue;
      }
      Shape shape = KEYWORDS.get(keyword);
      if (shape == null
          || (shape == Shape.DIALECT && !top)
          || !value(shape, field.getValue(), depth)) {
        return false;
      }
    }
    return true;
  }

  private boolean value(Shape shape, JsonNode v, int depth) {
    return switch (shape) {
      case ANY -> true;
      case STRING -> v.isString();
      case TYPE -> typeName(v) || (v.isArray() && !v.isEmpty() && all(v, PlainSchema::typeName));
      case NUMBER -> v.isNumber();
      case COUNT -> v.isIntegralNumber() && v.canConvertToInt() && v.intValue() >= 0;
      case BOOLEAN -> v.isBoolean();
      case STRINGS -> v.isArray() && all(v, JsonNode::isString);
      case NON_EMPTY_ARRAY -> v.isArray() && !v.isEmpty();
      case SCHEMA -> schema(v, depth + 1, false);
      case SCHEMAS -> v.isArray() && !v.isEmpty() && all(v, s -> schema(s, depth + 1, false));
      case SCHEMA_MAP -> v.isObject() && all(v, s -> schema(s, depth + 1, false));
      case REF -> localRef(v, depth);
      case ANCHOR -> v.isString() && ANCHOR_NAME.matcher(v.stringValue()).matches();
      case DIALECT -> v.isString() && v.stringValue().equals(DIALECT_2020_12);
    };
  }

  /** No anchor name twice (counting any "$anchor" field at all, even inside a value: stricter). */
  private static boolean anchorsUnique(JsonNode schema) {
    List<JsonNode> anchors = schema.findValues("$anchor");
    return anchors.size() == new HashSet<>(anchors).size();
  }

  private static boolean typeName(JsonNode v) {
    return v.isString() && TYPES.contains(v.stringValue());
  }

  /** A reference to a plain subschema of the same document by a plain JSON pointer ("#/$defs/a"). */
  private boolean localRef(JsonNode v, int depth) {
    if (!v.isString()) {
      return false;
    }
    String ref = v.stringValue();
    // Only plain pointers: no escapes (~, %) for the validator to read differently.
    if (!ref.startsWith("#/") || ref.indexOf('~') >= 0 || ref.indexOf('%') >= 0) {
      return false;
    }
    JsonNode target = root.at(ref.substring(1));
    // the target must be plain too (a cycle ends at MAX_DEPTH: compiled at once)
    return !target.isMissingNode() && schema(target, depth + 1, false);
  }

  private static boolean all(JsonNode container, java.util.function.Predicate<JsonNode> test) {
    for (JsonNode element : container.values()) {
      if (!test.test(element)) {
        return false;
      }
    }
    return true;
  }
}
