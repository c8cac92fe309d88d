package dev.herald.wire;

import com.fasterxml.jackson.annotation.JsonInclude;
import java.util.List;
import org.jspecify.annotations.Nullable;
import tools.jackson.core.JacksonException;
import tools.jackson.core.StreamReadConstraints;
import tools.jackson.core.json.JsonFactory;
import tools.jackson.databind.DeserializationFeature;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.cfg.CoercionAction;
import tools.jackson.databind.cfg.CoercionInputShape;
import tools.jackson.databind.exc.InvalidTypeIdException;
import tools.jackson.databind.exc.MismatchedInputException;
import tools.jackson.databind.exc.ValueInstantiationException;
import tools.jackson.databind.json.JsonMapper;
import tools.jackson.databind.node.JsonNodeFactory;
import tools.jackson.databind.node.ObjectNode;
import tools.jackson.databind.type.LogicalType;

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

  /**
   * The mapper, built on first use: building it (and its first record mappings) is most of a
   * process's start-up, and a stdio server answers {@code initialize} without it ({@link
   * MessageCodec} reads and writes the common messages by hand, and the handshake records are
   * converted by hand).
   */
  private static final class Mapper {
    private Mapper() {}

    static final JsonMapper MAPPER = build();

    private static JsonMapper build() {
      JsonMapper m =
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
              .disable(DeserializationFeature.ACCEPT_FLOAT_AS_INT)
              // A field has the JSON type the schema gives it: 5 is not "5", "5" is not 5, 1.5
              // is not 1.
              .withCoercionConfig(
                  LogicalType.Textual,
                  c ->
                      c.setCoercion(CoercionInputShape.Integer, CoercionAction.Fail)
                          .setCoercion(CoercionInputShape.Float, CoercionAction.Fail)
                          .setCoercion(CoercionInputShape.Boolean, CoercionAction.Fail))
              .withCoercionConfig(
                  LogicalType.Integer,
                  c ->
                      c.setCoercion(CoercionInputShape.String, CoercionAction.Fail)
                          .setCoercion(CoercionInputShape.Float, CoercionAction.Fail)
                          .setCoercion(CoercionInputShape.Boolean, CoercionAction.Fail))
              .withCoercionConfig(
                  LogicalType.Float,
                  c ->
                      c.setCoercion(CoercionInputShape.String, CoercionAction.Fail)
                          .setCoercion(CoercionInputShape.Boolean, CoercionAction.Fail))
              .withCoercionConfig(
                  LogicalType.Boolean,
                  c ->
                      c.setCoercion(CoercionInputShape.String, CoercionAction.Fail)
                          .setCoercion(CoercionInputShape.Integer, CoercionAction.Fail)
                          .setCoercion(CoercionInputShape.Float, CoercionAction.Fail))
              .changeDefaultPropertyInclusion(incl ->
                  incl.withValueInclusion(JsonInclude.Include.NON_NULL)
                      .withContentInclusion(JsonInclude.Include.NON_NULL))
              .build();
      built = true;
      return m;
    }
  }

  private static volatile boolean built;

  /**
   * Whether the shared mapper has been built in this process (a test checks that a stdio server
   * answers {@code initialize} without it).
   */
  static boolean mapperBuilt() {
    return built;
  }

  /** The shared mapper. */
  public static JsonMapper mapper() {
    return Mapper.MAPPER;
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
    if (value instanceof CallToolResult r) {
      ObjectNode tree = HotRecords.callToolResult(r);
      if (tree != null) {
        return tree;
      }
    }
    ObjectNode handshake =
        value instanceof InitializeResult r
            ? HandshakeRecords.tree(r)
            : value instanceof InitializeParams p
                ? HandshakeRecords.tree(p)
                : value instanceof Implementation i ? HandshakeRecords.tree(i) : null;
    if (handshake != null) {
      return handshake;
    }
    return Mapper.MAPPER.valueToTree(value);
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
    if (tree instanceof ObjectNode p) {
      Object fast =
          type == CallToolParams.class
              ? HotRecords.callToolParams(p)
              : type == Implementation.class
                  ? HotRecords.implementation(p)
                  : type == ClientCapabilities.class
                      ? HotRecords.clientCapabilities(p)
                      : type == InitializeParams.class
                          ? HandshakeRecords.initializeParams(p)
                          : null;
      if (fast != null) {
        return type.cast(fast);
      }
    }
    try {
      T value = Mapper.MAPPER.treeToValue(tree == null ? object() : tree, type);
      if (value == null) {
        throw McpException.invalidParams("Invalid params: expected an object");
      }
      return value;
    } catch (JacksonException | IllegalArgumentException e) {
      throw McpException.invalidParams("Invalid params: " + describe(e, tree));
    }
  }

  /** Reads a typed view of a result; a mismatch is the peer's fault, reported as an internal error. */
  public static <T> T resultFromTree(JsonNode tree, Class<T> type) {
    if (type == InitializeResult.class && tree instanceof ObjectNode r) {
      InitializeResult fast = HandshakeRecords.initializeResult(r);
      if (fast != null) {
        return type.cast(fast);
      }
    }
    try {
      return Mapper.MAPPER.treeToValue(tree, type);
    } catch (JacksonException | IllegalArgumentException e) {
      throw new McpException(
          ErrorCodes.INTERNAL_ERROR, "Malformed result from peer: " + describe(e, tree));
    }
  }

  /** A short, safe description of a mapping failure: no stack, no source excerpt. */
  static String describe(Exception e) {
    return describe(e, null);
  }

  /** What must never reach a peer: Java names and the mapper's own vocabulary. */
  private static final class Internals {
    private Internals() {}

    static final java.util.regex.Pattern INTERNALS =
        java.util.regex.Pattern.compile(
            "java\\.|javax\\.|dev\\.herald|tools\\.jackson|com\\.|Exception|POJO|[<>`$]|simple type|instance of|subtype");
  }

  /**
   * Says what was wrong in the protocol's terms: the field's path in the params (as {@code
   * clientInfo.name} or {@code messages[0].role}), the JSON type it must have and the JSON type it
   * had, or that a required field is missing. Never a Java type, class or exception name.
   *
   * @param tree the value that was being read, to name the JSON type found at the failing path
   */
  static String describe(Exception e, @Nullable JsonNode tree) {
    if (!(e instanceof JacksonException je)) {
      String msg = e.getMessage();
      return msg == null ? "malformed value" : safe(inJsonTerms(msg), "malformed value");
    }
    List<JacksonException.Reference> refs = je.getPath();
    String path = path(refs);
    String where = path.isEmpty() ? "params" : path;
    @Nullable JsonNode found = at(tree, refs);
    if (e instanceof ValueInstantiationException) {
      Throwable cause = e.getCause();
      String msg = cause == null ? null : cause.getMessage();
      if (cause instanceof NullPointerException
          && msg != null
          && msg.matches("[A-Za-z_][A-Za-z0-9_]*")) {
        return (path.isEmpty() ? msg : path + "." + msg) + " is required";
      }
      if (cause instanceof McpException || cause instanceof IllegalArgumentException) {
        return safe(
            where + ": " + inJsonTerms(msg == null ? "invalid value" : msg),
            where + ": invalid value");
      }
      return where + ": invalid value";
    }
    if (e instanceof InvalidTypeIdException) {
      if (found != null && !found.isObject()) {
        return where + " must be an object, not " + kind(found);
      }
      String msg = je.getOriginalMessage();
      java.util.regex.Matcher m =
          msg == null
              ? null
              : java.util.regex.Pattern.compile("property '([A-Za-z0-9_]+)'").matcher(msg);
      String discriminator = m != null && m.find() ? m.group(1) : "type";
      return where + "." + discriminator + " is missing or names no known kind";
    }
    if (e instanceof MismatchedInputException mie && mie.getTargetType() != null) {
      Class<?> target = mie.getTargetType();
      String expected = target.isEnum() ? "string" : jsonType(target.getName());
      if (found == null || found.isMissingNode()) {
        return where + ": expected " + expected;
      }
      String got = kind(found);
      if (got.equals(expected) || (expected.equals("number") && got.equals("integer"))) {
        return where
            + ": unknown or invalid value"; // right type, wrong value (an unknown enum name)
      }
      return where + ": expected " + expected + ", got " + got;
    }
    String msg = je.getOriginalMessage();
    String text = msg == null ? "malformed value" : inJsonTerms(msg.lines().findFirst().orElse(""));
    if (text.length() > 200) {
      text = text.substring(0, 200);
    }
    return safe(where + ": " + text, where + ": malformed value");
  }

  private static String safe(String text, String fallback) {
    return Internals.INTERNALS.matcher(text).find() ? fallback : text;
  }

  /** {@code a.b[2].c} from the mapper's path; names that are not identifiers are quoted. */
  private static String path(List<JacksonException.Reference> refs) {
    StringBuilder out = new StringBuilder();
    for (JacksonException.Reference r : refs) {
      String name = r.getPropertyName();
      if (name != null) {
        if (name.matches("[A-Za-z_$][A-Za-z0-9_$/.-]*") && name.length() <= 64) {
          if (!out.isEmpty()) {
            out.append('.');
          }
          out.append(name);
        } else {
          out.append("[")
              .append(
                  Mapper.MAPPER.writeValueAsString(
                      name.length() > 64 ? name.substring(0, 64) + "..." : name))
              .append("]");
        }
      } else if (r.getIndex() >= 0) {
        out.append('[').append(r.getIndex()).append(']');
      }
    }
    return out.toString();
  }

  private static @Nullable JsonNode at(
      @Nullable JsonNode tree, List<JacksonException.Reference> refs) {
    JsonNode node = tree;
    for (JacksonException.Reference r : refs) {
      if (node == null) {
        return null;
      }
      String name = r.getPropertyName();
      node = name != null ? node.get(name) : r.getIndex() >= 0 ? node.get(r.getIndex()) : null;
    }
    return node;
  }

  /** The JSON type of a value, as the protocol's schema names it. */
  static String kind(JsonNode node) {
    if (node.isObject()) {
      return "object";
    }
    if (node.isArray()) {
      return "array";
    }
    if (node.isString()) {
      return "string";
    }
    if (node.isBoolean()) {
      return "boolean";
    }
    if (node.isIntegralNumber()) {
      return "integer";
    }
    if (node.isNumber()) {
      return "number";
    }
    return node.isNull() ? "null" : "value";
  }

  private static final java.util.regex.Pattern JAVA_TYPE =
      java.util.regex.Pattern.compile("`([^`]*)`");

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
      case "String",
          "char",
          "Character",
          "CharSequence",
          "byte[]",
          "StringNode",
          "TextNode",
          "URI",
          "Instant" ->
          "string";
      case "int",
          "long",
          "short",
          "byte",
          "Integer",
          "Long",
          "Short",
          "Byte",
          "BigInteger",
          "IntNode",
          "LongNode" ->
          "integer";
      case "double",
          "float",
          "Double",
          "Float",
          "BigDecimal",
          "Number",
          "NumericNode",
          "DoubleNode" ->
          "number";
      case "boolean", "Boolean", "BooleanNode" -> "boolean";
      case "List", "ArrayList", "Set", "Collection", "ArrayNode" -> "array";
      case "null" -> "null";
      default -> "object";
    };
  }
}
