package dev.herald.wire;

import java.util.List;
import java.util.Map;
import org.jspecify.annotations.Nullable;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ArrayNode;
import tools.jackson.databind.node.BigIntegerNode;
import tools.jackson.databind.node.BooleanNode;
import tools.jackson.databind.node.DecimalNode;
import tools.jackson.databind.node.DoubleNode;
import tools.jackson.databind.node.IntNode;
import tools.jackson.databind.node.JsonNodeFactory;
import tools.jackson.databind.node.LongNode;
import tools.jackson.databind.node.NullNode;
import tools.jackson.databind.node.ObjectNode;
import tools.jackson.databind.node.StringNode;

/**
 * Hand-written tree conversions for the records of the call hot path ({@code tools/call}'s params
 * and result), with the mapper's result and nothing else.
 *
 * <p>Design note (docs/benchmarks.md, "Server CPU per call"). {@link McpJson#fromTree} and {@link
 * McpJson#toTree} go through the mapper's databinding: a context, a token stream over the tree, a
 * creator, for a record of a few members. For the shapes a call almost always has (a string
 * {@code name}, object {@code arguments}; a result of plain text blocks), these build the same
 * record or the same tree directly. Anything else (a member of the wrong JSON type, a member these
 * do not know how to read, a value of an unusual node kind) returns {@code null}, and the caller
 * takes the mapper's path, which also words every error: the fast path never decides a refusal.
 * Object members are deep copies, as the mapper's are, so a handler that changes its arguments
 * never changes the request it came in.
 *
 * <p>Stateless; thread-safe.
 */
final class HotRecords {
  private HotRecords() {}

  /** {@code tools/call} params as the mapper reads them, or null to let the mapper read them. */
  static @Nullable CallToolParams callToolParams(ObjectNode p) {
    String name = null;
    ObjectNode arguments = null;
    ObjectNode task = null;
    String requestState = null;
    ObjectNode meta = null;
    for (Map.Entry<String, JsonNode> e : p.properties()) {
      JsonNode v = e.getValue();
      switch (e.getKey()) {
        case "name" -> {
          if (!(v instanceof StringNode s)) {
            return null; // null, or the wrong type: the mapper words the refusal
          }
          name = s.stringValue();
        }
        case "arguments" -> {
          if (!plainOrNull(v)) {
            return null;
          }
          arguments = v instanceof ObjectNode o ? o.deepCopy() : null;
        }
        case "task" -> {
          if (!plainOrNull(v)) {
            return null;
          }
          task = v instanceof ObjectNode o ? o.deepCopy() : null;
        }
        case "_meta" -> {
          if (!plainOrNull(v)) {
            return null;
          }
          meta = v instanceof ObjectNode o ? o.deepCopy() : null;
        }
        case "requestState" -> {
          if (v instanceof StringNode s) {
            requestState = s.stringValue();
          } else if (!v.isNull()) {
            return null;
          }
        }
        case "inputResponses" -> {
          if (!v.isNull()) {
            return null; // its own creator: the mapper's
          }
        }
        default -> {
          // unknown members are ignored, as the mapper ignores them
        }
      }
    }
    return name == null
        ? null
        : new CallToolParams(name, arguments, task, null, requestState, meta);
  }

  /**
   * An {@link Implementation} (a 2026-07-28 request's {@code clientInfo}) as the mapper reads it,
   * or null to let the mapper read it: string members only, no icons.
   */
  static @Nullable Implementation implementation(ObjectNode p) {
    String name = null;
    String title = null;
    String version = null;
    String description = null;
    String websiteUrl = null;
    for (Map.Entry<String, JsonNode> e : p.properties()) {
      String key = e.getKey();
      JsonNode v = e.getValue();
      if (key.equals("icons")) {
        if (v.isNull()) {
          continue;
        }
        return null; // icons: the mapper's
      }
      if (!key.equals("name")
          && !key.equals("title")
          && !key.equals("version")
          && !key.equals("description")
          && !key.equals("websiteUrl")) {
        continue; // unknown members are ignored, as the mapper ignores them
      }
      String text;
      if (v instanceof StringNode s) {
        text = s.stringValue();
      } else if (v.isNull()) {
        text = null;
      } else {
        return null; // another type: the mapper words the refusal
      }
      switch (key) {
        case "name" -> name = text;
        case "title" -> title = text;
        case "version" -> version = text;
        case "description" -> description = text;
        default -> websiteUrl = text;
      }
    }
    return name == null || version == null
        ? null
        : new Implementation(name, title, version, description, null, websiteUrl);
  }

  /**
   * {@link ClientCapabilities} (a 2026-07-28 request's {@code _meta} carries them on every
   * request) as the mapper reads them, or null to let the mapper read them: object members, and
   * {@code roots} with a boolean {@code listChanged}.
   */
  static @Nullable ClientCapabilities clientCapabilities(ObjectNode p) {
    ObjectNode experimental = null;
    ClientCapabilities.Roots roots = null;
    ObjectNode sampling = null;
    ObjectNode elicitation = null;
    ObjectNode tasks = null;
    ObjectNode extensions = null;
    for (Map.Entry<String, JsonNode> e : p.properties()) {
      JsonNode v = e.getValue();
      String key = e.getKey();
      if (key.equals("roots")) {
        if (v instanceof ObjectNode r) {
          JsonNode l = r.get("listChanged");
          if (l != null && !(l instanceof BooleanNode) && !(l instanceof NullNode)) {
            return null; // the wrong type: the mapper words the refusal
          }
          roots =
              new ClientCapabilities.Roots(
                  l instanceof BooleanNode b ? Boolean.valueOf(b.booleanValue()) : null);
        } else if (!(v instanceof NullNode)) {
          return null;
        }
        continue;
      }
      if (!key.equals("experimental")
          && !key.equals("sampling")
          && !key.equals("elicitation")
          && !key.equals("tasks")
          && !key.equals("extensions")) {
        continue; // unknown members are ignored, as the mapper ignores them
      }
      if (!plainOrNull(v)) {
        return null;
      }
      ObjectNode copy = v instanceof ObjectNode o ? o.deepCopy() : null;
      switch (key) {
        case "experimental" -> experimental = copy;
        case "sampling" -> sampling = copy;
        case "elicitation" -> elicitation = copy;
        case "tasks" -> tasks = copy;
        default -> extensions = copy;
      }
    }
    return new ClientCapabilities(experimental, roots, sampling, elicitation, tasks, extensions);
  }

  /**
   * A {@code tools/call} result as the mapper writes it to a tree, or null to let the mapper write
   * it: text blocks without annotations, and members whose trees hold only the common node kinds.
   */
  static @Nullable ObjectNode callToolResult(CallToolResult r) {
    JsonNode structured = r.structuredContent();
    ObjectNode meta = r.meta();
    if ((structured != null && !plain(structured)) || (meta != null && !plain(meta))) {
      return null;
    }
    List<ContentBlock> content = r.content();
    for (ContentBlock b : content) {
      if (!(b instanceof ContentBlock.Text t) || t.annotations() != null) {
        return null;
      }
      ObjectNode m = t.meta();
      if (m != null && !plain(m)) {
        return null;
      }
    }
    JsonNodeFactory f = JsonNodeFactory.instance;
    ObjectNode out = f.objectNode();
    ArrayNode blocks = out.putArray("content");
    for (ContentBlock b : content) {
      ContentBlock.Text t = (ContentBlock.Text) b;
      ObjectNode block = blocks.addObject();
      block.put("type", "text");
      block.put("text", t.text());
      ObjectNode m = t.meta();
      if (m != null) {
        block.set("_meta", m.deepCopy());
      }
    }
    if (structured != null) {
      out.set("structuredContent", structured.deepCopy());
    }
    Boolean isError = r.isError();
    if (isError != null) {
      out.put("isError", isError.booleanValue());
    }
    if (meta != null) {
      out.set("_meta", meta.deepCopy());
    }
    return out;
  }

  /** An object (or null) the mapper would read as its deep copy. */
  static boolean plainOrNull(JsonNode v) {
    return v instanceof NullNode || (v instanceof ObjectNode && plain(v, false, 0));
  }

  /**
   * Whether the mapper's copy of a tree is exactly its deep copy: the tree holds only objects,
   * arrays, strings, booleans, null, int, long, big integer and decimal nodes (what the parser
   * makes), and doubles when writing ({@code withDoubles}; reading makes them decimals).
   */
  private static boolean plain(JsonNode node, boolean withDoubles, int depth) {
    if (depth > McpJson.MAX_NESTING_DEPTH) {
      return false;
    }
    if (node instanceof ObjectNode || node instanceof ArrayNode) {
      for (JsonNode child : node.values()) {
        if (!plain(child, withDoubles, depth + 1)) {
          return false;
        }
      }
      return true;
    }
    return node instanceof StringNode
        || node instanceof BooleanNode
        || node instanceof NullNode
        || node instanceof IntNode
        || node instanceof LongNode
        || node instanceof BigIntegerNode
        || node instanceof DecimalNode
        || (withDoubles && node instanceof DoubleNode);
  }

  static boolean plain(JsonNode node) {
    return plain(node, true, 0);
  }
}
