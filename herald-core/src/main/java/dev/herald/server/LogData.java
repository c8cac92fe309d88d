package dev.herald.server;

import dev.herald.wire.McpJson;
import java.util.Map;
import org.jspecify.annotations.Nullable;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ArrayNode;
import tools.jackson.databind.node.JsonNodeFactory;
import tools.jackson.databind.node.ObjectNode;

/**
 * Makes log data and server-written messages safe to show (MCP 2025-11-25
 * server/utilities/logging: logs must not carry
 * secrets or attack-useful internals; clients render them as text). Every string in the data
 * tree, object keys included, loses its control characters (ANSI escapes, bidirectional
 * overrides, NUL; line breaks and tabs become spaces) and is capped at {@link #MAX_STRING}
 * characters. Herald cannot recognise a secret: keeping them out is the caller's duty, and the
 * Javadoc of every logging method says so.
 */
final class LogData {
  /** Longest string kept in log data, in characters. */
  static final int MAX_STRING = 4096;

  private LogData() {}

  /** A cleaned copy of {@code data} as a JSON tree. */
  static JsonNode clean(@Nullable Object data) {
    return cleanTree(McpJson.toTree(data));
  }

  private static JsonNode cleanTree(JsonNode node) {
    if (node.isString()) {
      String s = node.stringValue();
      String c = clean(s);
      return c.equals(s) ? node : JsonNodeFactory.instance.stringNode(c);
    }
    if (node instanceof ObjectNode o) {
      ObjectNode out = McpJson.object();
      for (Map.Entry<String, JsonNode> e : o.properties()) {
        out.set(clean(e.getKey()), cleanTree(e.getValue()));
      }
      return out;
    }
    if (node instanceof ArrayNode a) {
      ArrayNode out = JsonNodeFactory.instance.arrayNode(a.size());
      for (JsonNode item : a) {
        out.add(cleanTree(item));
      }
      return out;
    }
    return node;
  }

  /** {@code s} without control or invisible formatting characters, capped in length. */
  static String clean(String s) {
    StringBuilder out = null;
    int n = s.length();
    for (int i = 0; i < n; ) {
      int cp = s.codePointAt(i);
      int len = Character.charCount(cp);
      boolean drop = Character.isISOControl(cp) || Character.getType(cp) == Character.FORMAT;
      if (drop && out == null) {
        out = new StringBuilder(n).append(s, 0, i);
      }
      if (out != null) {
        if (cp == '\n' || cp == '\r' || cp == '\t') {
          out.append(' ');
        } else if (!drop) {
          out.appendCodePoint(cp);
        }
      }
      i += len;
    }
    String result = out == null ? s : out.toString();
    return result.length() <= MAX_STRING ? result : result.substring(0, MAX_STRING - 1) + "…";
  }
}
