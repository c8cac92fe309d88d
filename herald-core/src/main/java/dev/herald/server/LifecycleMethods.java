package dev.herald.server;

import dev.herald.internal.session.InboundCall;
import dev.herald.wire.ClientCapabilities;
import dev.herald.wire.DiscoverResult;
import dev.herald.wire.ErrorCodes;
import dev.herald.wire.InitializeParams;
import dev.herald.wire.InitializeResult;
import dev.herald.wire.LoggingLevel;
import dev.herald.wire.McpException;
import dev.herald.wire.McpJson;
import dev.herald.wire.ProtocolVersion;
import dev.herald.wire.ServerCapabilities;
import dev.herald.wire.SetLevelParams;
import tools.jackson.databind.node.ObjectNode;

/**
 * The server's lifecycle and session-level methods: {@code initialize} (MCP specification,
 * "Lifecycle"), {@code ping}, {@code logging/setLevel}, and {@code server/discover} for 2026-07-28
 * requests. Runs on the request's virtual thread.
 */
final class LifecycleMethods {
  private LifecycleMethods() {}

  static InitializeResult initialize(ServerSession session, InitializeParams p, InboundCall call) {
    McpServer server = session.server();
    ProtocolVersion requested = ProtocolVersion.parse(p.protocolVersion()).orElse(null);
    ProtocolVersion chosen =
        requested != null && requested.handshake() ? requested : ProtocolVersion.LATEST_LEGACY;
    // Shared with the sessions before while equal: a session keeps them for its life.
    ClientCapabilities caps = server.clientCapabilities.of(p.capabilities());
    ServerCapabilities declared = server.declaredCapabilities.of(server.capabilities());
    if (!session.beginInitialize(server.clientInfos.of(p.clientInfo()), caps, chosen, declared)) {
      throw new McpException(
          ErrorCodes.INVALID_REQUEST,
          "Invalid request: initialize was already received on this session");
    }
    return new InitializeResult(chosen.wire(), declared, server.info, server.instructions, null);
  }

  static ObjectNode ping(ServerSession session, Void params, InboundCall call) {
    return McpJson.object();
  }

  static ObjectNode setLevel(ServerSession session, SetLevelParams p, InboundCall call) {
    LoggingLevel level =
        LoggingLevel.parse(p.level() == null ? "" : p.level())
            .orElseThrow(() ->
                McpException.invalidParams(
                    "Invalid params: unknown logging level '"
                        + p.level()
                        + "'; expected one of debug, info, notice, warning, error, critical, alert, emergency"));
    session.logLevel(level);
    return McpJson.object();
  }

  /**
   * {@code server/discover} (MCP 2026-07-28 server/discover): the versions this server serves
   * ({@link ServedEras#versions()}: with {@link ServedEras#DUAL} the handshake versions too, which
   * a dual-era client may fall back to), what it declares to a stateless client ({@link
   * McpServer#statelessCapabilities()}) and its instructions. {@code ttlMs}, {@code cacheScope},
   * {@code resultType} and {@code _meta} serverInfo are added by {@link StatelessResults}, as on
   * every stateless result.
   */
  static DiscoverResult discover(ServerSession session, Void params, InboundCall call) {
    McpServer server = session.server();
    return new DiscoverResult(
        server.eras().versions().stream().map(ProtocolVersion::wire).toList(),
        server.statelessCapabilities(),
        server.instructions,
        null,
        null,
        null);
  }
}
