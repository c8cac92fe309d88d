package dev.herald.http.internal;

import dev.herald.server.ServedEras;
import dev.herald.wire.ErrorCodes;
import dev.herald.wire.JsonRpcMessage;
import dev.herald.wire.McpException;
import dev.herald.wire.MetaKeys;
import dev.herald.wire.ProtocolVersion;
import dev.herald.wire.RequestId;
import dev.herald.wire.RequestMeta;
import dev.herald.wire.Tool;
import java.util.ArrayList;
import java.util.List;
import org.jspecify.annotations.Nullable;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * Era routing and the checks of a 2026-07-28 POST, before anything is dispatched (MCP 2026-07-28
 * basic/versioning, "Backward Compatibility"; basic/transports/streamable-http).
 *
 * <p>Design note. {@link #isStateless} decides the era of a POST from its {@code
 * MCP-Protocol-Version} header and its body's {@code _meta}, before any session is looked up: a
 * header naming a stateless version, or a {@code _meta} naming any version, makes it a 2026
 * exchange, whatever {@code Mcp-Session-Id} says. {@link #serve} then checks, in this order: the
 * {@code _meta} version is present (-32602), the header equals it (-32020), {@link
 * RequestMeta#parse} accepts it (-32022 naming the versions served, -32602), and the standard and
 * custom headers match the body (-32020); each refusal is HTTP 400 carrying the request's id, and
 * costs no session. What passes is served by a {@link StatelessCall}. A notification is accepted
 * with 202 and nothing else: it has no session to reach. Stateless.
 */
final class StatelessPost {
  private final Endpoint endpoint;
  private final EndpointConfig config;

  /** The stateless versions this server serves (accepted in {@code _meta}). */
  private final List<ProtocolVersion> stateless = new ArrayList<>();

  /** The versions named in a -32022 answer. */
  private final List<ProtocolVersion> advertised = new ArrayList<>();

  StatelessPost(Endpoint endpoint) {
    this.endpoint = endpoint;
    this.config = endpoint.config;
    ServedEras eras = config.mcp.eras();
    for (ProtocolVersion v : ProtocolVersion.values()) {
      if (!v.handshake() && eras.serves(v)) {
        stateless.add(v);
      }
    }
    for (ProtocolVersion v : ProtocolVersion.values()) {
      if (eras == ServedEras.HANDSHAKE_ONLY ? v.handshake() : stateless.contains(v)) {
        advertised.add(v);
      }
    }
  }

  /** The versions a refusal names: the stateless ones, or the handshake ones on such a server. */
  List<ProtocolVersion> advertised() {
    return advertised;
  }

  /**
   * Whether a POST is a 2026-07-28 exchange: its {@code MCP-Protocol-Version} header names a
   * stateless version, or its body's {@code _meta} names a protocol version.
   */
  static boolean isStateless(@Nullable String versionHeader, JsonRpcMessage message) {
    if (versionHeader != null) {
      var v = ProtocolVersion.parse(versionHeader.strip());
      if (v.isPresent() && !v.get().handshake()) {
        return true;
      }
    }
    return RequestMeta.namesVersion(meta(message));
  }

  /** Serves a 2026-07-28 POST: checks it, then answers a notification or runs the request. */
  void serve(Exchange ex, JsonRpcMessage message, dev.herald.auth.@Nullable Principal principal) {
    RequestId id = message instanceof JsonRpcMessage.Request r ? r.id() : null;
    if (message instanceof JsonRpcMessage.Response) {
      HttpExchanges.error(
          ex,
          400,
          null,
          ErrorCodes.INVALID_REQUEST,
          "Invalid request: a 2026-07-28 client never sends responses");
      return;
    }
    RequestMeta checked;
    try {
      checked = check(ex, message);
    } catch (McpException e) {
      HttpExchanges.error(ex, 400, id, e.code(), e.toErrorObject().message(), e.data());
      return;
    }
    if (message instanceof JsonRpcMessage.Request r) {
      StatelessCall call = new StatelessCall(endpoint, r, checked, ex, principal);
      switch (endpoint.statelessStarted(call)) {
        case OK -> {}
        case FULL -> {
          HttpExchanges.error(
              ex,
              503,
              r.id(),
              ErrorCodes.LIMIT_EXCEEDED,
              "Server busy: the limit of requests in progress ("
                  + config.maxSessions
                  + ") is reached; try again later");
          return;
        }
        case STOPPED -> {
          HttpExchanges.error(
              ex, 503, r.id(), ErrorCodes.INTERNAL_ERROR, "Server closing: request not served");
          return;
        }
      }
      call.start();
    } else {
      HttpExchanges.empty(ex, 202, null); // nothing to reach: cancellation is closing the stream
    }
  }

  /** Checks a 2026-07-28 message before it costs a session; returns its {@code _meta} as read. */
  private RequestMeta check(Exchange ex, JsonRpcMessage message) {
    ObjectNode meta = meta(message);
    if (meta == null || !RequestMeta.namesVersion(meta)) {
      RequestMeta.parse(meta, stateless); // -32602: the version is required
      throw McpException.invalidParams("Invalid params: _meta names no protocol version");
    }
    JsonNode v = meta.get(MetaKeys.PROTOCOL_VERSION);
    String header = StandardHeaders.value(ex::header, HttpExchanges.PROTOCOL_HEADER);
    if (header == null) {
      throw StandardHeaders.mismatch(
          "the " + HttpExchanges.PROTOCOL_HEADER + " header is required");
    }
    if (!v.isString() || !header.equals(v.stringValue())) {
      throw StandardHeaders.mismatch(
          HttpExchanges.PROTOCOL_HEADER
              + " header '"
              + header
              + "' does not match _meta[\""
              + MetaKeys.PROTOCOL_VERSION
              + "\"]");
    }
    RequestMeta parsed;
    try {
      parsed = RequestMeta.parse(meta, stateless);
    } catch (McpException e) {
      if (e.code() == ErrorCodes.UNSUPPORTED_PROTOCOL_VERSION) {
        throw RequestMeta.unsupportedVersion(v.stringValue(), advertised);
      }
      throw e;
    }
    StandardHeaders.check(ex::header, message, this::tool);
    return parsed;
  }

  private @Nullable Tool tool(String name) {
    return config.mcp.tool(name);
  }

  private static @Nullable ObjectNode meta(JsonRpcMessage message) {
    ObjectNode params =
        switch (message) {
          case JsonRpcMessage.Request r -> r.params();
          case JsonRpcMessage.Notification n -> n.params();
          default -> null;
        };
    return params != null && params.get("_meta") instanceof ObjectNode m ? m : null;
  }
}
