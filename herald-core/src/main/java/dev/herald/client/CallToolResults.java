package dev.herald.client;

import dev.herald.wire.CallToolResult;
import dev.herald.wire.ContentBlock;
import dev.herald.wire.McpJson;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.jspecify.annotations.Nullable;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * The typed view of a {@code tools/call} result (MCP 2025-11-25 server/tools, "Tool Result").
 *
 * <p>Design note. The common result, text blocks and perhaps {@code isError}, is read straight off
 * the tree, which is several times cheaper than the mapper's bean path (a tree parser, a
 * polymorphic content type read through a token buffer, a creator call per record); it gives the
 * record the mapper gives. Anything else (other content kinds, annotations, {@code
 * structuredContent}, {@code _meta}, unexpected members or types) goes through the mapper, so its
 * errors and coercions stay the mapper's.
 */
final class CallToolResults {
  private CallToolResults() {}

  static CallToolResult fromTree(JsonNode node) {
    CallToolResult plain = plain(node);
    return plain != null ? plain : McpJson.resultFromTree(node, CallToolResult.class);
  }

  /** The result when it is only text blocks and {@code isError}; null for anything else. */
  private static @Nullable CallToolResult plain(JsonNode node) {
    if (!(node instanceof ObjectNode o)) {
      return null;
    }
    JsonNode content = null;
    Boolean isError = null;
    for (Map.Entry<String, JsonNode> e : o.properties()) {
      JsonNode v = e.getValue();
      switch (e.getKey()) {
        case "content" -> content = v;
        case "isError" -> {
          if (v.isBoolean()) {
            isError = v.booleanValue();
          } else if (!v.isNull()) {
            return null;
          }
        }
        default -> {
          return null;
        }
      }
    }
    if (content == null || !content.isArray()) {
      return null;
    }
    List<ContentBlock> blocks = new ArrayList<>(content.size());
    for (JsonNode block : content) {
      if (!(block instanceof ObjectNode b) || b.size() != 2) {
        return null;
      }
      JsonNode type = b.get("type");
      JsonNode text = b.get("text");
      if (type == null || !type.isString() || !"text".equals(type.stringValue())) {
        return null;
      }
      if (text == null || !text.isString()) {
        return null;
      }
      blocks.add(new ContentBlock.Text(text.stringValue(), null, null));
    }
    return new CallToolResult(blocks, null, isError, null);
  }
}
