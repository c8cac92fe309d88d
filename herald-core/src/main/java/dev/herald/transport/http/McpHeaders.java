package dev.herald.transport.http;

import dev.herald.wire.JsonRpcMessage;
import dev.herald.wire.McpMethods;
import dev.herald.wire.MetaKeys;
import dev.herald.wire.Tool;
import java.nio.ByteBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Base64;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import org.jspecify.annotations.Nullable;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * The request metadata headers of a 2026-07-28 Streamable HTTP {@code POST} (MCP 2026-07-28
 * basic/transports/streamable-http §Request Metadata, SEP-2243): {@code MCP-Protocol-Version},
 * {@code Mcp-Method}, {@code Mcp-Name}, and one {@code Mcp-Param-{Name}} per tool argument whose
 * property in the tool's {@code inputSchema} carries {@code x-mcp-header}, with values that are not
 * plain header-safe ASCII sent as {@code =?base64?<UTF-8 in Base64>?=}.
 *
 * <p>{@link #invalidToolHeaders(Tool)} is the check a client runs on every listed tool: a tool
 * whose {@code x-mcp-header} annotations break the rules of §Custom Headers from Tool Parameters
 * MUST be left out of the {@code tools/list} result the client exposes.
 *
 * {@snippet :
 * List<Tool> usable = listed.stream().filter(McpHeaders::validToolHeaders).toList();
 * }
 */
public final class McpHeaders {
  /** Every 2026-07-28 {@code POST}: the body's {@code _meta} protocol version. */
  public static final String PROTOCOL_VERSION = "MCP-Protocol-Version";

  /** Every 2026-07-28 {@code POST}: the JSON-RPC {@code method}. */
  public static final String METHOD = "Mcp-Method";

  /**
   * {@code tools/call}, {@code prompts/get} ({@code params.name}), {@code resources/read} ({@code
   * params.uri}); with the tasks extension {@code tasks/get}, {@code tasks/update}, {@code
   * tasks/cancel} ({@code params.taskId}).
   */
  public static final String NAME = "Mcp-Name";

  /** The prefix of a header mirroring a tool argument marked with {@code x-mcp-header}. */
  public static final String PARAM_PREFIX = "Mcp-Param-";

  /** The schema keyword that marks a tool argument to mirror. */
  public static final String X_MCP_HEADER = "x-mcp-header";

  private static final String SENTINEL_START = "=?base64?";
  private static final String SENTINEL_END = "?=";

  /** JSON Schema values that are data, not subschemas: never searched for annotations. */
  private static final Set<String> DATA_KEYWORDS = Set.of("const", "default", "enum", "examples");

  private McpHeaders() {}

  /** One argument mirrored into a header: the chain of {@code properties} keys and the name. */
  record Param(List<String> path, String name) {}

  /**
   * Why the tool's {@code x-mcp-header} annotations are invalid, or empty when they are valid (or
   * absent). An annotation must be a non-empty HTTP token ({@code 1*tchar}, RFC 9110 §5.1),
   * case-insensitively unique in the schema, on a property of type {@code string}, {@code integer}
   * or {@code boolean}, reached from the schema root through {@code properties} keys alone.
   */
  public static Optional<String> invalidToolHeaders(Tool tool) {
    List<Param> found = new ArrayList<>();
    String reason = scan(tool.inputSchema(), found);
    return Optional.ofNullable(reason);
  }

  /** Whether the tool's {@code x-mcp-header} annotations are valid (or absent). */
  public static boolean validToolHeaders(Tool tool) {
    return invalidToolHeaders(tool).isEmpty();
  }

  /**
   * A value as a header value: as it is when it is plain header-safe ASCII, else {@code
   * =?base64?...?=} of its UTF-8 bytes. Encoded are values with a character outside 0x20-0x7E
   * (non-ASCII, control characters, tabs), leading or trailing whitespace, and values that look
   * like the encoded form themselves (its prefix in any case).
   */
  public static String encode(String value) {
    if (!needsEncoding(value)) {
      return value;
    }
    return SENTINEL_START
        + Base64.getEncoder().encodeToString(value.getBytes(StandardCharsets.UTF_8))
        + SENTINEL_END;
  }

  /**
   * A header value as the value it stands for: {@code =?base64?...?=} decoded, anything else as
   * it is; empty when the encoded form is not valid Base64 or does not decode to valid UTF-8.
   */
  public static Optional<String> decode(String headerValue) {
    if (!isSentinel(headerValue)) {
      return Optional.of(headerValue);
    }
    String b64 =
        headerValue.substring(
            SENTINEL_START.length(), headerValue.length() - SENTINEL_END.length());
    try {
      byte[] bytes = Base64.getDecoder().decode(b64);
      // strictly: bytes that are not UTF-8 name no value (never replacement characters)
      return Optional.of(
          StandardCharsets.UTF_8
              .newDecoder()
              .onMalformedInput(CodingErrorAction.REPORT)
              .onUnmappableCharacter(CodingErrorAction.REPORT)
              .decode(ByteBuffer.wrap(bytes))
              .toString());
    } catch (IllegalArgumentException | CharacterCodingException e) {
      return Optional.empty();
    }
  }

  private static boolean needsEncoding(String value) {
    for (int i = 0; i < value.length(); i++) {
      char c = value.charAt(i);
      if (c < 0x20 || c > 0x7E) {
        return true;
      }
    }
    boolean padded =
        !value.isEmpty() && (value.charAt(0) == ' ' || value.charAt(value.length() - 1) == ' ');
    return padded || isSentinel(value);
  }

  /** The encoded form, its prefix in any case (as servers read it, so both sides agree). */
  private static boolean isSentinel(String value) {
    return value.length() >= SENTINEL_START.length() + SENTINEL_END.length()
        && value.regionMatches(true, 0, SENTINEL_START, 0, SENTINEL_START.length())
        && value.endsWith(SENTINEL_END);
  }

  /**
   * The headers a modern {@code POST} of {@code message} carries: the protocol version (the body's
   * {@code _meta} one, else {@code version}), the method, the name, and the mirrored arguments of
   * a {@code tools/call} whose tool is in {@code tools}.
   */
  static Map<String, String> forMessage(
      JsonRpcMessage message, String version, Map<String, List<Param>> tools) {
    Map<String, String> headers = new LinkedHashMap<>();
    String method;
    JsonNode params;
    switch (message) {
      case JsonRpcMessage.Request r -> {
        method = r.method();
        params = r.params();
      }
      case JsonRpcMessage.Notification n -> {
        method = n.method();
        params = n.params();
      }
      default -> {
        headers.put(PROTOCOL_VERSION, version);
        return headers;
      }
    }
    String bodyVersion =
        params instanceof ObjectNode p && p.get("_meta") instanceof ObjectNode meta
            ? MetaKeys.protocolVersion(meta)
            : null;
    headers.put(PROTOCOL_VERSION, bodyVersion != null ? bodyVersion : version);
    headers.put(METHOD, method);
    String field = nameField(method);
    String name = field == null ? null : text(params, field);
    if (name != null) {
      headers.put(NAME, encode(name));
    }
    if (McpMethods.TOOLS_CALL.equals(method) && name != null) {
      List<Param> mirrored = tools.get(name);
      JsonNode arguments = params == null ? null : params.get("arguments");
      if (mirrored != null && arguments instanceof ObjectNode args) {
        for (Param p : mirrored) {
          String value = argument(args, p.path());
          if (value != null) {
            headers.put(PARAM_PREFIX + p.name(), encode(value));
          }
        }
      }
    }
    return headers;
  }

  /**
   * The field of {@code params} that {@code Mcp-Name} mirrors for {@code method} ({@code name} for
   * {@code tools/call} and {@code prompts/get}, {@code uri} for {@code resources/read}, {@code
   * taskId} for the tasks extension's {@code tasks/get|update|cancel}), or {@code null} when the
   * method carries no {@code Mcp-Name} (MCP 2026-07-28 basic/transports/streamable-http). The one
   * table for both sides: the client sets the header from it, the server checks it.
   */
  public static @Nullable String nameField(String method) {
    return switch (method) {
      case McpMethods.TOOLS_CALL, McpMethods.PROMPTS_GET -> "name";
      case McpMethods.RESOURCES_READ -> "uri";
      // The tasks extension (io.modelcontextprotocol/tasks) names the task.
      case McpMethods.TASKS_GET, McpMethods.TASKS_UPDATE, McpMethods.TASKS_CANCEL -> "taskId";
      default -> null;
    };
  }

  /** The annotated arguments of a tool with a valid schema, or null when its annotations are invalid. */
  static @Nullable List<Param> params(@Nullable JsonNode inputSchema) {
    List<Param> found = new ArrayList<>();
    return scan(inputSchema, found) == null ? List.copyOf(found) : null;
  }

  private static @Nullable String text(@Nullable JsonNode params, String field) {
    JsonNode v = params == null ? null : params.get(field);
    return v != null && v.isString() ? v.stringValue() : null;
  }

  /** The argument at {@code path} as header text; null when absent, null, or not a primitive. */
  private static @Nullable String argument(ObjectNode arguments, List<String> path) {
    JsonNode node = arguments;
    for (String key : path) {
      node = node instanceof ObjectNode o ? o.get(key) : null;
      if (node == null) {
        return null;
      }
    }
    if (node.isString()) {
      return node.stringValue();
    }
    if (node.isBoolean()) {
      return node.booleanValue() ? "true" : "false";
    }
    if (node.isIntegralNumber()) {
      return node.bigIntegerValue().toString();
    }
    if (node.isNumber()) {
      return node.decimalValue().stripTrailingZeros().toPlainString();
    }
    return null;
  }

  // ---------------------------------------------------------------- the schema walk

  /** Collects the annotations of {@code schema} into {@code found}; returns why it is invalid, or null. */
  private static @Nullable String scan(@Nullable JsonNode schema, List<Param> found) {
    if (!(schema instanceof ObjectNode root)) {
      return null;
    }
    String reason = walkStatic(root, new ArrayList<>(), found);
    if (reason != null) {
      return reason;
    }
    Set<String> seen = new HashSet<>();
    for (Param p : found) {
      if (!seen.add(p.name().toLowerCase(Locale.ROOT))) {
        return "x-mcp-header \"" + p.name() + "\" is used more than once (case-insensitively)";
      }
    }
    return null;
  }

  /** A schema reached from the root through {@code properties} keys only. */
  private static @Nullable String walkStatic(
      ObjectNode schema, List<String> path, List<Param> found) {
    JsonNode annotation = schema.get(X_MCP_HEADER);
    if (annotation != null && !path.isEmpty()) {
      String reason = checkAnnotation(annotation, schema, path);
      if (reason != null) {
        return reason;
      }
      found.add(new Param(List.copyOf(path), annotation.stringValue()));
    } else if (annotation != null) {
      return "x-mcp-header on the schema root";
    }
    for (Map.Entry<String, JsonNode> field : schema.properties()) {
      String key = field.getKey();
      JsonNode value = field.getValue();
      if (key.equals("properties") && value instanceof ObjectNode props) {
        for (Map.Entry<String, JsonNode> prop : props.properties()) {
          if (prop.getValue() instanceof ObjectNode sub) {
            path.add(prop.getKey());
            String reason = walkStatic(sub, path, found);
            path.removeLast();
            if (reason != null) {
              return reason;
            }
          }
        }
      } else if (!key.equals(X_MCP_HEADER) && !DATA_KEYWORDS.contains(key)) {
        String reason = walkOther(value, isNameMap(key), key);
        if (reason != null) {
          return reason;
        }
      }
    }
    return null;
  }

  /**
   * Anything below a keyword other than {@code properties}: an annotation here is not statically
   * reachable. {@code namesOnly}: the keys of this object are property names, not keywords.
   */
  private static @Nullable String walkOther(JsonNode node, boolean namesOnly, String keyword) {
    if (node instanceof ObjectNode o) {
      if (!namesOnly && o.has(X_MCP_HEADER)) {
        return "x-mcp-header under \"" + keyword + "\" is not reachable through properties alone";
      }
      for (Map.Entry<String, JsonNode> field : o.properties()) {
        String key = field.getKey();
        if (!namesOnly && DATA_KEYWORDS.contains(key)) {
          continue;
        }
        String reason =
            walkOther(field.getValue(), !namesOnly && isNameMap(key), namesOnly ? keyword : key);
        if (reason != null) {
          return reason;
        }
      }
    } else if (node.isArray()) {
      for (JsonNode item : node) {
        String reason = walkOther(item, false, keyword);
        if (reason != null) {
          return reason;
        }
      }
    }
    return null;
  }

  private static boolean isNameMap(String keyword) {
    return keyword.equals("properties")
        || keyword.equals("patternProperties")
        || keyword.equals("$defs")
        || keyword.equals("definitions")
        || keyword.equals("dependentSchemas");
  }

  private static @Nullable String checkAnnotation(
      JsonNode annotation, ObjectNode schema, List<String> path) {
    String where = "property \"" + String.join(".", path) + "\"";
    if (!annotation.isString()) {
      return "x-mcp-header on " + where + " is not a string";
    }
    String name = annotation.stringValue();
    if (name.isEmpty()) {
      return "x-mcp-header on " + where + " is empty";
    }
    for (int i = 0; i < name.length(); i++) {
      if (!isTchar(name.charAt(i))) {
        return "x-mcp-header \"" + name + "\" on " + where + " is not an HTTP token";
      }
    }
    if (!primitive(schema.get("type"))) {
      return "x-mcp-header \""
          + name
          + "\" on "
          + where
          + " is not on a string, integer or boolean property";
    }
    return null;
  }

  /** {@code type} names string, integer or boolean (an array of them, with null, also counts). */
  private static boolean primitive(@Nullable JsonNode type) {
    if (type == null) {
      return false;
    }
    if (type.isString()) {
      return isPrimitiveType(type.stringValue());
    }
    if (type.isArray()) {
      boolean any = false;
      for (JsonNode t : type) {
        if (!t.isString()) {
          return false;
        }
        if (t.stringValue().equals("null")) {
          continue;
        }
        if (!isPrimitiveType(t.stringValue())) {
          return false;
        }
        any = true;
      }
      return any;
    }
    return false;
  }

  private static boolean isPrimitiveType(String t) {
    return t.equals("string") || t.equals("integer") || t.equals("boolean");
  }

  /** RFC 9110 §5.6.2 tchar. */
  private static boolean isTchar(char c) {
    return (c >= 'a' && c <= 'z')
        || (c >= 'A' && c <= 'Z')
        || (c >= '0' && c <= '9')
        || "!#$%&'*+-.^_`|~".indexOf(c) >= 0;
  }
}
