package dev.herald.wire;

import com.fasterxml.jackson.annotation.JsonInclude;
import tools.jackson.core.JacksonException;
import tools.jackson.core.StreamReadConstraints;
import tools.jackson.core.json.JsonFactory;
import tools.jackson.databind.DeserializationFeature;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;
import tools.jackson.databind.node.JsonNodeFactory;
import tools.jackson.databind.node.ObjectNode;
import org.jspecify.annotations.Nullable;

/**
 * The one JSON mapper Herald uses, and typed conversions between trees and wire records.
 *
 * <p>Configured so that unknown fields are tolerated, absent optional fields are omitted, and
 * fractional numbers are read as {@link java.math.BigDecimal} so their exact value survives a
 * round trip. Nesting depth and document size are bounded ({@link #MAX_NESTING_DEPTH},
 * {@link #MAX_DOCUMENT_BYTES}) so hostile input fails fast instead of exhausting the stack.
 *
 * <p>Thread-safe.
 */
public final class McpJson {
  private McpJson() {}

  /** Deepest nesting of arrays and objects accepted in one message. */
  public static final int MAX_NESTING_DEPTH = 128;

  /** Largest message accepted by the codec, in bytes. Transports may set a lower limit. */
  public static final long MAX_DOCUMENT_BYTES = 16L * 1024 * 1024;

  private static final JsonMapper MAPPER =
      JsonMapper.builder(
              JsonFactory.builder()
                  .streamReadConstraints(
                      StreamReadConstraints.builder()
                          .maxNestingDepth(MAX_NESTING_DEPTH)
                          .maxDocumentLength(MAX_DOCUMENT_BYTES)
                          .maxStringLength((int) MAX_DOCUMENT_BYTES)
                          .build())
                  .build())
          .disable(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES)
          .disable(DeserializationFeature.FAIL_ON_NULL_FOR_PRIMITIVES)
          .enable(DeserializationFeature.USE_BIG_DECIMAL_FOR_FLOATS)
          .changeDefaultPropertyInclusion(
              incl -> incl.withValueInclusion(JsonInclude.Include.NON_NULL)
                  .withContentInclusion(JsonInclude.Include.NON_NULL))
          .build();

  /** The shared mapper. */
  public static JsonMapper mapper() {
    return MAPPER;
  }

  public static ObjectNode object() {
    return JsonNodeFactory.instance.objectNode();
  }

  /** Converts a record (or any value) to a JSON tree. */
  public static JsonNode toTree(@Nullable Object value) {
    if (value == null) {
      return JsonNodeFactory.instance.nullNode();
    }
    if (value instanceof JsonNode node) {
      return node;
    }
    return MAPPER.valueToTree(value);
  }

  /** Converts a record to an object tree, or {@code null} for {@code null}. */
  public static @Nullable ObjectNode toObject(@Nullable Object value) {
    if (value == null) {
      return null;
    }
    JsonNode tree = toTree(value);
    if (tree instanceof ObjectNode object) {
      return object;
    }
    throw new IllegalArgumentException("not a JSON object: " + value.getClass().getName());
  }

  /**
   * Reads a typed view of a tree.
   *
   * @throws McpException with {@link ErrorCodes#INVALID_PARAMS} when the tree does not fit the type
   */
  public static <T> T fromTree(@Nullable JsonNode tree, Class<T> type) {
    try {
      T value = MAPPER.treeToValue(tree == null ? object() : tree, type);
      if (value == null) {
        throw McpException.invalidParams("Invalid params: expected an object");
      }
      return value;
    } catch (JacksonException | IllegalArgumentException e) {
      throw McpException.invalidParams("Invalid params: " + describe(e));
    }
  }

  /** Reads a typed view of a result; a mismatch is the peer's fault, reported as an internal error. */
  public static <T> T resultFromTree(JsonNode tree, Class<T> type) {
    try {
      return MAPPER.treeToValue(tree, type);
    } catch (JacksonException | IllegalArgumentException e) {
      throw new McpException(ErrorCodes.INTERNAL_ERROR, "Malformed result from peer: " + describe(e));
    }
  }

  /** A short, safe description of a mapping failure: no stack, no source excerpt. */
  static String describe(Exception e) {
    if (e instanceof JacksonException je) {
      String msg = je.getOriginalMessage();
      String path = je.getPathReference();
      String text = msg == null ? "malformed value" : msg;
      int cut = text.indexOf('\n');
      if (cut >= 0) {
        text = text.substring(0, cut);
      }
      text = inJsonTerms(text);
      if (text.length() > 200) {
        text = text.substring(0, 200);
      }
      return path == null || path.isEmpty() ? text : text + " (at " + shortPath(path) + ")";
    }
    String msg = e.getMessage();
    return msg == null ? "malformed value" : inJsonTerms(msg);
  }

  private static final java.util.regex.Pattern JAVA_TYPE = java.util.regex.Pattern.compile("`([^`]*)`");

  /**
   * Jackson names Java types in backquotes ("value of type `java.lang.String`"); a peer should
   * read JSON types (MCP errors speak the protocol's terms, never the implementation's).
   */
  static String inJsonTerms(String text) {
    String plain = text.replaceAll(" \\(token `[^`]*`\\)", "");
    return JAVA_TYPE.matcher(plain).replaceAll(m -> jsonType(m.group(1)));
  }

  private static String jsonType(String javaType) {
    String t = javaType.contains("<") ? javaType.substring(0, javaType.indexOf('<')) : javaType;
    t = t.substring(t.lastIndexOf('.') + 1);
    if (t.endsWith("[]") && !t.equals("byte[]")) {
      return "array";
    }
    return switch (t) {
      case "String", "char", "Character", "CharSequence", "byte[]", "StringNode", "TextNode", "URI", "Instant" -> "string";
      case "int", "long", "short", "byte", "Integer", "Long", "Short", "Byte", "BigInteger", "IntNode", "LongNode" -> "integer";
      case "double", "float", "Double", "Float", "BigDecimal", "Number", "NumericNode", "DoubleNode" -> "number";
      case "boolean", "Boolean", "BooleanNode" -> "boolean";
      case "List", "ArrayList", "Set", "Collection", "ArrayNode" -> "array";
      case "null" -> "null";
      default -> "object";
    };
  }

  private static String shortPath(String path) {
    // Jackson paths name Java classes ("dev.herald.wire.X[\"name\"]"); keep only the JSON part.
    StringBuilder out = new StringBuilder();
    int i = 0;
    while ((i = path.indexOf('[', i)) >= 0) {
      int end = path.indexOf(']', i);
      if (end < 0) {
        break;
      }
      out.append(path, i, end + 1);
      i = end + 1;
    }
    return out.isEmpty() ? "value" : out.toString();
  }
}
