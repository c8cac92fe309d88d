package dev.herald.server;

import dev.herald.internal.session.InboundCall;
import dev.herald.wire.ErrorCodes;
import dev.herald.wire.McpException;
import dev.herald.wire.McpJson;
import dev.herald.wire.McpMethods;
import dev.herald.wire.MetaKeys;
import dev.herald.wire.ProtocolVersion;
import dev.herald.wire.RequestMeta;
import java.util.List;
import org.jspecify.annotations.Nullable;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ArrayNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * Decides the era of a request that arrives on a session without a handshake, before any
 * interceptor or handler sees it (MCP 2026-07-28 basic/versioning, "Backward Compatibility";
 * basic/index, "Statelessness").
 *
 * <p>Design note. A request is stateless when its {@code _meta} names a protocol version ({@link
 * RequestMeta#namesVersion}; so {@code server/discover} from a modern client is answered, never
 * "method not found" for want of a handshake), or when the server serves no handshake at all
 * ({@link ServedEras#MODERN_ONLY}), or on a connection that carries stateless requests only
 * ({@link McpServer#connectStateless}, e.g. one 2026-07-28 HTTP POST). A request with neither a handshake nor a version in {@code
 * _meta} on a dual-era server is a handshake-era client's, and keeps that era's answers. Its {@code _meta} is then checked by the one
 * reader, {@link RequestMeta#parse} (-32602 for a missing or malformed field or log level, -32022
 * naming the stateless versions served), unless the transport already did so for this request
 * ({@link InboundCall#checkedMeta}: a 2026-07-28 HTTP POST is checked before it costs a session),
 * and the parsed metadata is attached to the call, which
 * makes the call stateless for everything after (catalog views, logging, result decoration).
 * Anything else keeps the handshake era's rules (send {@code initialize} first). Nothing is
 * remembered between requests: each one is routed on what it carries.
 */
final class EraRouting {
  private EraRouting() {}

  /**
   * The version of {@code call} on a session that did no handshake: the stateless version it
   * names, or {@code null} for a handshake-era request that came before {@code initialize}.
   *
   * @param statelessOnly whether the session carries stateless requests only
   * @throws McpException -32602 or -32022 from {@link RequestMeta#parse}; -32022 naming the
   *     handshake versions on a handshake-only server; -32602 naming the versions served when a
   *     modern-only server is sent {@code initialize}
   */
  static @Nullable ProtocolVersion route(ServedEras eras, boolean statelessOnly, InboundCall call) {
    ObjectNode meta = call.meta();
    boolean namesVersion = RequestMeta.namesVersion(meta);
    String method = call.method();
    if (!eras.handshake() && McpMethods.INITIALIZE.equals(method) && !namesVersion) {
      throw initializeRefused(eras, call);
    }
    if (!namesVersion && eras.handshake() && !statelessOnly) {
      return null; // a handshake-era client before its initialize
    }
    if (!eras.modern()) {
      String requested = MetaKeys.protocolVersion(meta);
      throw RequestMeta.unsupportedVersion(
          requested == null ? "" : requested, // a version that is not a string
          eras.handshakeVersions());
    }
    List<ProtocolVersion> served = eras.statelessVersions();
    RequestMeta parsed = call.checkedMeta(); // the transport's reading of the same object, if any
    if (parsed == null || !served.contains(parsed.version())) {
      parsed = RequestMeta.parse(meta, served);
    }
    call.requestMeta(parsed);
    return parsed.version();
  }

  /**
   * A modern-only server's answer to {@code initialize}: the error a handshake-era client knows
   * for a version it cannot have (-32602 with {@code data.supported} and {@code data.requested},
   * MCP 2025-11-25 basic/lifecycle "Error Handling"), naming the versions served, as 2026-07-28
   * basic/versioning asks of a modern-only server.
   */
  private static McpException initializeRefused(ServedEras eras, InboundCall call) {
    ObjectNode params = call.params();
    JsonNode v = params == null ? null : params.get("protocolVersion");
    String requested = v != null && v.isString() ? v.stringValue() : "";
    ObjectNode data = McpJson.object();
    ArrayNode supported = data.putArray("supported");
    List<ProtocolVersion> versions = eras.versions();
    versions.forEach(s -> supported.add(s.wire()));
    data.put("requested", requested);
    return new McpException(
        ErrorCodes.INVALID_PARAMS,
        "Unsupported protocol version: "
            + (requested.isEmpty() ? "(none)" : requested)
            + "; this server does not use initialize and serves only "
            + supported
            + " (send each request with _meta[\""
            + MetaKeys.PROTOCOL_VERSION
            + "\"])",
        data);
  }
}
