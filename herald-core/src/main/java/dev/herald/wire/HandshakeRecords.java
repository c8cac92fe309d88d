package dev.herald.wire;

import java.util.Map;
import org.jspecify.annotations.Nullable;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.BooleanNode;
import tools.jackson.databind.node.JsonNodeFactory;
import tools.jackson.databind.node.NullNode;
import tools.jackson.databind.node.ObjectNode;
import tools.jackson.databind.node.StringNode;

/**
 * Hand-written tree conversions for the {@code initialize} handshake's records (MCP specification,
 * "Lifecycle"): its params and its result, both ways, with the mapper's result and nothing else.
 *
 * <p>Design note (docs/benchmarks.md, "Cold start"). These are the first records a stdio server
 * or a client converts, and the mapper's databinding of them (introspecting the records on first
 * use) is a large share of a process's start-up; with these and the codec's hand-written reader and writer ({@code DirectJson}), a server
 * answers {@code initialize} and a client reads its answer without building the mapper. As in
 * {@link HotRecords}, anything these do not know (a member of another JSON type, icons, a value of
 * an unusual node kind) returns {@code null} and the caller takes the mapper's path, which also
 * words every error. Object members are deep copies, as the mapper's are. {@code
 * HandshakeRecordsTest} compares both over random records and trees.
 *
 * <p>Stateless; thread-safe.
 */
final class HandshakeRecords {
  private HandshakeRecords() {}

  private static final JsonNodeFactory F = JsonNodeFactory.instance;

  /** {@code initialize} params as the mapper reads them, or null to let the mapper read them. */
  static @Nullable InitializeParams initializeParams(ObjectNode p) {
    String protocolVersion = null;
    ClientCapabilities capabilities = null;
    Implementation clientInfo = null;
    ObjectNode meta = null;
    for (Map.Entry<String, JsonNode> e : p.properties()) {
      JsonNode v = e.getValue();
      switch (e.getKey()) {
        case "protocolVersion" -> {
          if (!(v instanceof StringNode s)) {
            return null;
          }
          protocolVersion = s.stringValue();
        }
        case "capabilities" -> {
          if (v instanceof ObjectNode o) {
            capabilities = HotRecords.clientCapabilities(o);
            if (capabilities == null) {
              return null;
            }
          } else if (!(v instanceof NullNode)) {
            return null;
          }
        }
        case "clientInfo" -> {
          if (!(v instanceof ObjectNode o) || (clientInfo = HotRecords.implementation(o)) == null) {
            return null;
          }
        }
        case "_meta" -> {
          if (!HotRecords.plainOrNull(v)) {
            return null;
          }
          meta = copy(v);
        }
        default -> {
          // unknown members are ignored, as the mapper ignores them
        }
      }
    }
    return protocolVersion == null || clientInfo == null
        ? null
        : new InitializeParams(
            protocolVersion,
            capabilities == null ? ClientCapabilities.none() : capabilities,
            clientInfo,
            meta);
  }

  /** An {@code initialize} result as the mapper reads it, or null to let the mapper read it. */
  static @Nullable InitializeResult initializeResult(ObjectNode r) {
    String protocolVersion = null;
    ServerCapabilities capabilities = null;
    Implementation serverInfo = null;
    String instructions = null;
    ObjectNode meta = null;
    for (Map.Entry<String, JsonNode> e : r.properties()) {
      JsonNode v = e.getValue();
      switch (e.getKey()) {
        case "protocolVersion" -> {
          if (!(v instanceof StringNode s)) {
            return null;
          }
          protocolVersion = s.stringValue();
        }
        case "capabilities" -> {
          if (v instanceof ObjectNode o) {
            capabilities = serverCapabilities(o);
            if (capabilities == null) {
              return null;
            }
          } else if (!(v instanceof NullNode)) {
            return null;
          }
        }
        case "serverInfo" -> {
          if (!(v instanceof ObjectNode o) || (serverInfo = HotRecords.implementation(o)) == null) {
            return null;
          }
        }
        case "instructions" -> {
          if (v instanceof StringNode s) {
            instructions = s.stringValue();
          } else if (!(v instanceof NullNode)) {
            return null;
          }
        }
        case "_meta" -> {
          if (!HotRecords.plainOrNull(v)) {
            return null;
          }
          meta = copy(v);
        }
        default -> {
          // unknown members are ignored, as the mapper ignores them
        }
      }
    }
    return protocolVersion == null || serverInfo == null
        ? null
        : new InitializeResult(
            protocolVersion,
            capabilities == null ? ServerCapabilities.none() : capabilities,
            serverInfo,
            instructions,
            meta);
  }

  private static @Nullable ServerCapabilities serverCapabilities(ObjectNode c) {
    ObjectNode experimental = null;
    ObjectNode logging = null;
    ObjectNode completions = null;
    ServerCapabilities.ListChanged prompts = null;
    ServerCapabilities.Resources resources = null;
    ServerCapabilities.ListChanged tools = null;
    ObjectNode tasks = null;
    ObjectNode extensions = null;
    for (Map.Entry<String, JsonNode> e : c.properties()) {
      JsonNode v = e.getValue();
      String key = e.getKey();
      switch (key) {
        case "prompts", "tools", "resources" -> {
          if (v instanceof NullNode) {
            continue;
          }
          if (!(v instanceof ObjectNode o)) {
            return null;
          }
          Boolean listChanged = null;
          Boolean subscribe = null;
          for (Map.Entry<String, JsonNode> m : o.properties()) {
            String name = m.getKey();
            boolean known =
                name.equals("listChanged") || (key.equals("resources") && name.equals("subscribe"));
            if (!known) {
              continue;
            }
            JsonNode b = m.getValue();
            Boolean value;
            if (b instanceof BooleanNode bool) {
              value = bool.booleanValue();
            } else if (b instanceof NullNode) {
              value = null;
            } else {
              return null;
            }
            if (name.equals("listChanged")) {
              listChanged = value;
            } else {
              subscribe = value;
            }
          }
          switch (key) {
            case "prompts" -> prompts = new ServerCapabilities.ListChanged(listChanged);
            case "tools" -> tools = new ServerCapabilities.ListChanged(listChanged);
            default -> resources = new ServerCapabilities.Resources(subscribe, listChanged);
          }
        }
        case "experimental", "logging", "completions", "tasks", "extensions" -> {
          if (!HotRecords.plainOrNull(v)) {
            return null;
          }
          ObjectNode o = copy(v);
          switch (key) {
            case "experimental" -> experimental = o;
            case "logging" -> logging = o;
            case "completions" -> completions = o;
            case "tasks" -> tasks = o;
            default -> extensions = o;
          }
        }
        default -> {
          // unknown members are ignored, as the mapper ignores them
        }
      }
    }
    return new ServerCapabilities(
        experimental, logging, completions, prompts, resources, tools, tasks, extensions);
  }

  private static @Nullable ObjectNode copy(JsonNode v) {
    return v instanceof ObjectNode o ? o.deepCopy() : null;
  }

  /** {@code initialize} params as the mapper writes them to a tree, or null to let it write them. */
  static @Nullable ObjectNode tree(InitializeParams p) {
    ObjectNode out = F.objectNode();
    out.put("protocolVersion", p.protocolVersion());
    ClientCapabilities c = p.capabilities();
    ObjectNode caps = out.putObject("capabilities");
    if (!member(caps, "experimental", c.experimental())) {
      return null;
    }
    if (c.roots() != null) {
      ObjectNode roots = caps.putObject("roots");
      Boolean listChanged = c.roots().listChanged();
      if (listChanged != null) {
        roots.put("listChanged", listChanged.booleanValue());
      }
    }
    if (!member(caps, "sampling", c.sampling())
        || !member(caps, "elicitation", c.elicitation())
        || !member(caps, "tasks", c.tasks())
        || !member(caps, "extensions", c.extensions())
        || !implementation(out, "clientInfo", p.clientInfo())
        || !member(out, "_meta", p.meta())) {
      return null;
    }
    return out;
  }

  /** An {@code initialize} result as the mapper writes it to a tree, or null to let it write it. */
  static @Nullable ObjectNode tree(InitializeResult r) {
    ObjectNode out = F.objectNode();
    out.put("protocolVersion", r.protocolVersion());
    ServerCapabilities c = r.capabilities();
    ObjectNode caps = out.putObject("capabilities");
    if (!member(caps, "experimental", c.experimental())
        || !member(caps, "logging", c.logging())
        || !member(caps, "completions", c.completions())) {
      return null;
    }
    listChanged(caps, "prompts", c.prompts());
    ServerCapabilities.Resources resources = c.resources();
    if (resources != null) {
      ObjectNode o = caps.putObject("resources");
      if (resources.subscribe() != null) {
        o.put("subscribe", resources.subscribe().booleanValue());
      }
      if (resources.listChanged() != null) {
        o.put("listChanged", resources.listChanged().booleanValue());
      }
    }
    listChanged(caps, "tools", c.tools());
    if (!member(caps, "tasks", c.tasks())
        || !member(caps, "extensions", c.extensions())
        || !implementation(out, "serverInfo", r.serverInfo())) {
      return null;
    }
    if (r.instructions() != null) {
      out.put("instructions", r.instructions());
    }
    return member(out, "_meta", r.meta()) ? out : null;
  }

  private static void listChanged(
      ObjectNode caps, String name, ServerCapabilities.@Nullable ListChanged value) {
    if (value != null) {
      ObjectNode o = caps.putObject(name);
      if (value.listChanged() != null) {
        o.put("listChanged", value.listChanged().booleanValue());
      }
    }
  }

  /** Puts a deep copy of an object member; false when the mapper's copy could differ. */
  private static boolean member(ObjectNode out, String name, @Nullable ObjectNode value) {
    if (value == null) {
      return true;
    }
    if (!HotRecords.plain(value)) {
      return false;
    }
    out.set(name, value.deepCopy());
    return true;
  }

  /** An {@link Implementation} as the mapper writes it to a tree, or null when it has icons. */
  static @Nullable ObjectNode tree(Implementation i) {
    ObjectNode out = F.objectNode();
    return implementation(out, "i", i) ? (ObjectNode) out.get("i") : null;
  }

  /** Puts an {@link Implementation} without icons; false when it has icons (the mapper's). */
  private static boolean implementation(ObjectNode out, String name, Implementation i) {
    if (i.icons() != null) {
      return false;
    }
    ObjectNode o = out.putObject(name);
    o.put("name", i.name());
    if (i.title() != null) {
      o.put("title", i.title());
    }
    o.put("version", i.version());
    if (i.description() != null) {
      o.put("description", i.description());
    }
    if (i.websiteUrl() != null) {
      o.put("websiteUrl", i.websiteUrl());
    }
    return true;
  }
}
