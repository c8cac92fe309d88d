package dev.herald.http.internal;

import dev.herald.transport.http.McpHeaders;
import dev.herald.wire.ErrorCodes;
import dev.herald.wire.JsonRpcMessage;
import dev.herald.wire.McpException;
import dev.herald.wire.McpMethods;
import dev.herald.wire.Tool;
import java.math.BigDecimal;
import java.nio.ByteBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.util.Base64;
import java.util.Map;
import java.util.function.Function;
import org.jspecify.annotations.Nullable;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * The request headers of a 2026-07-28 POST checked against its body (MCP 2026-07-28
 * basic/transports/streamable-http, "Standard Headers" and "Custom Headers", SEP-2243): {@code
 * MCP-Protocol-Version} equals {@code _meta["io.modelcontextprotocol/protocolVersion"]}, {@code
 * Mcp-Method} equals {@code method}, {@code Mcp-Name} equals {@code params.name} ({@code
 * tools/call}, {@code prompts/get}), {@code params.uri} ({@code resources/read}) or {@code
 * params.taskId} (the tasks extension's {@code tasks/get}, {@code tasks/update}, {@code
 * tasks/cancel}), and each tool
 * argument whose input-schema property is annotated {@code x-mcp-header: "X"} equals header {@code
 * Mcp-Param-X}.
 *
 * <p>Design note. Header names are case-insensitive (the containers look them up so); values are
 * case-sensitive and compared after the surrounding whitespace is trimmed (RFC 9110 §5.5). A value
 * of the form {@code =?base64?<b64>?=} is the Base64 (padded, standard alphabet) of the UTF-8
 * value; anything else is literal and must be visible ASCII or spaces. Integers and numbers are
 * compared numerically, booleans as {@code true}/{@code false}. A body value that is absent or
 * {@code null} must have no header. Every failure is -32020 (HTTP 400), with a message naming the
 * header. Stateless.
 */
final class StandardHeaders {
  static final String METHOD = McpHeaders.METHOD;
  static final String NAME = McpHeaders.NAME;
  static final String PARAM_PREFIX = McpHeaders.PARAM_PREFIX;
  private static final String B64_START = "=?base64?";
  private static final String B64_END = "?=";

  private StandardHeaders() {}

  /**
   * Checks {@code Mcp-Method}, {@code Mcp-Name} and the {@code Mcp-Param-*} headers of {@code
   * tools/call} ({@code tools} finds a tool by name, or null when there is none).
   *
   * @throws McpException -32020 naming the header that is missing, invalid or disagrees with the
   *     body
   */
  static void check(
      Function<String, @Nullable String> headers,
      JsonRpcMessage message,
      Function<String, @Nullable Tool> tools) {
    String method =
        switch (message) {
          case JsonRpcMessage.Request r -> r.method();
          case JsonRpcMessage.Notification n -> n.method();
          default -> null;
        };
    if (method == null) {
      return;
    }
    ObjectNode params =
        switch (message) {
          case JsonRpcMessage.Request r -> r.params();
          case JsonRpcMessage.Notification n -> n.params();
          default -> null;
        };
    String m = value(headers, METHOD);
    if (m == null) {
      throw mismatch("the " + METHOD + " header is required");
    }
    if (!m.equals(method)) {
      throw mismatch(
          METHOD + " header '" + m + "' does not match the body's method '" + method + "'");
    }
    String nameField = McpHeaders.nameField(method);
    if (nameField != null) {
      JsonNode name = params == null ? null : params.get(nameField);
      String header = value(headers, NAME);
      if (name != null && name.isString()) {
        if (header == null) {
          throw mismatch("the " + NAME + " header is required for " + method);
        }
        if (!decode(NAME, header).equals(name.stringValue())) {
          throw mismatch(
              NAME
                  + " header '"
                  + header
                  + "' does not match params."
                  + nameField
                  + " in the body");
        }
      }
    }
    if (McpMethods.TOOLS_CALL.equals(method) && params != null) {
      JsonNode name = params.get("name");
      Tool tool = name != null && name.isString() ? tools.apply(name.stringValue()) : null;
      if (tool != null) {
        JsonNode args = params.get("arguments");
        checkParams(headers, tool.inputSchema(), args instanceof ObjectNode o ? o : null);
      }
    }
  }

  private static void checkParams(
      Function<String, @Nullable String> headers, ObjectNode schema, @Nullable ObjectNode args) {
    JsonNode props = schema.get("properties");
    if (!(props instanceof ObjectNode properties)) {
      return;
    }
    for (Map.Entry<String, JsonNode> p : properties.properties()) {
      JsonNode annotation = p.getValue().get("x-mcp-header");
      if (annotation == null || !annotation.isString() || annotation.stringValue().isEmpty()) {
        continue;
      }
      String headerName = PARAM_PREFIX + annotation.stringValue();
      String raw = value(headers, headerName);
      JsonNode body = args == null ? null : args.get(p.getKey());
      if (body == null || body.isNull()) {
        if (raw != null) {
          throw mismatch(
              headerName + " header is present but argument '" + p.getKey() + "' is not");
        }
        continue;
      }
      if (!(body.isString() || body.isNumber() || body.isBoolean())) {
        continue; // only primitive values are mirrored
      }
      if (raw == null) {
        throw mismatch("the " + headerName + " header is required (argument '" + p.getKey() + "')");
      }
      String decoded = decode(headerName, raw);
      if (!matches(decoded, body)) {
        throw mismatch(
            headerName + " header does not match argument '" + p.getKey() + "' in the body");
      }
    }
  }

  /** A header's value with surrounding whitespace trimmed, or null when absent. */
  static @Nullable String value(Function<String, @Nullable String> headers, String name) {
    String v = headers.apply(name);
    return v == null ? null : v.strip();
  }

  /**
   * The value a header carries: the Base64 form decoded (strictly: padded, standard alphabet,
   * valid UTF-8), or the literal, which must be visible ASCII or spaces.
   *
   * @throws McpException -32020 when the value is malformed
   */
  static String decode(String headerName, String raw) {
    if (raw.length() >= B64_START.length() + B64_END.length()
        && raw.regionMatches(true, 0, B64_START, 0, B64_START.length())
        && raw.endsWith(B64_END)) {
      String b64 = raw.substring(B64_START.length(), raw.length() - B64_END.length());
      if (b64.length() % 4 != 0) {
        throw mismatch(headerName + " header: invalid Base64 (length is not a multiple of 4)");
      }
      byte[] bytes;
      try {
        bytes = Base64.getDecoder().decode(b64);
      } catch (IllegalArgumentException e) {
        throw mismatch(headerName + " header: invalid Base64: " + e.getMessage());
      }
      try {
        return StandardCharsets.UTF_8
            .newDecoder()
            .onMalformedInput(CodingErrorAction.REPORT)
            .onUnmappableCharacter(CodingErrorAction.REPORT)
            .decode(ByteBuffer.wrap(bytes))
            .toString();
      } catch (CharacterCodingException e) {
        throw mismatch(headerName + " header: the Base64 value is not UTF-8");
      }
    }
    for (int i = 0; i < raw.length(); i++) {
      char c = raw.charAt(i);
      if (c < 0x20 || c > 0x7e) {
        throw mismatch(
            headerName + " header: invalid character (use the =?base64?...?= form for it)");
      }
    }
    return raw;
  }

  private static boolean matches(String header, JsonNode body) {
    if (body.isString()) {
      return header.equals(body.stringValue());
    }
    if (body.isBoolean()) {
      return header.equals(Boolean.toString(body.booleanValue()));
    }
    try {
      return new BigDecimal(header).compareTo(body.decimalValue()) == 0;
    } catch (NumberFormatException e) {
      return false;
    }
  }

  static McpException mismatch(String message) {
    return new McpException(ErrorCodes.HEADER_MISMATCH, "Header mismatch: " + message);
  }
}
