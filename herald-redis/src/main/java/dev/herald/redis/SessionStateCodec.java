package dev.herald.redis;

import dev.herald.internal.server.SessionState;
import dev.herald.wire.ClientCapabilities;
import dev.herald.wire.Implementation;
import dev.herald.wire.LoggingLevel;
import dev.herald.wire.McpJson;
import dev.herald.wire.ServerCapabilities;
import java.util.LinkedHashSet;
import java.util.Set;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ArrayNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * A session's state as the directory keeps it: one JSON object with the wire forms of its parts
 * (docs/scale-out.md, "The session directory"), with the owner's party (issuer and subject,
 * never a token) on a protected server. A record this node cannot read is treated as
 * absent (the session is unknown), never as a crash.
 */
final class SessionStateCodec {
  private SessionStateCodec() {}

  static byte[] encode(SessionState s) {
    ObjectNode o = McpJson.object();
    o.put("protocolVersion", s.protocolVersion());
    if (s.clientInfo() != null) {
      o.set("clientInfo", McpJson.toTree(s.clientInfo()));
    }
    o.set("clientCapabilities", McpJson.toTree(s.clientCapabilities()));
    o.set("serverCapabilities", McpJson.toTree(s.serverCapabilities()));
    o.put("logLevel", s.logLevel().wire());
    ArrayNode subs = o.putArray("subscriptions");
    s.subscriptions().forEach(subs::add);
    o.put("initialized", s.initialized());
    o.put("taskOwner", s.taskOwner());
    SessionState.Owner owner = s.owner();
    if (owner != null) {
      ObjectNode party = o.putObject("owner");
      if (owner.issuer() != null) {
        party.put("issuer", owner.issuer());
      }
      party.put("subject", owner.subject());
    }
    return Redis.bytes(o.toString());
  }

  /**
   * @throws IllegalArgumentException if {@code json} is not a state this codec wrote
   */
  static SessionState decode(byte[] json) {
    try {
      JsonNode o = McpJson.mapper().readTree(json);
      Set<String> subs = new LinkedHashSet<>();
      for (JsonNode uri : o.path("subscriptions")) {
        subs.add(uri.asString());
      }
      JsonNode info = o.get("clientInfo");
      JsonNode party = o.get("owner");
      SessionState.Owner owner =
          party == null || party.isNull()
              ? null
              : new SessionState.Owner(
                  party.hasNonNull("issuer") ? party.get("issuer").asString() : null,
                  party.get("subject").asString());
      return new SessionState(
          o.get("protocolVersion").asString(),
          info == null || info.isNull() ? null : McpJson.fromTree(info, Implementation.class),
          McpJson.fromTree(o.get("clientCapabilities"), ClientCapabilities.class),
          McpJson.fromTree(o.get("serverCapabilities"), ServerCapabilities.class),
          LoggingLevel.parse(o.get("logLevel").asString()).orElse(LoggingLevel.INFO),
          subs,
          o.path("initialized").asBoolean(false),
          o.get("taskOwner").asString(),
          owner);
    } catch (RuntimeException e) {
      throw new IllegalArgumentException("unreadable session state: " + e.getMessage(), e);
    }
  }
}
