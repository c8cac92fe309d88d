package dev.herald.server;

import dev.herald.internal.session.OutboundCall;
import dev.herald.internal.session.SessionEngine;
import dev.herald.wire.JsonRpcMessage;
import dev.herald.wire.McpJson;
import dev.herald.wire.MetaKeys;
import dev.herald.wire.ProtocolVersion;
import dev.herald.wire.RequestId;
import java.util.List;
import org.jspecify.annotations.Nullable;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * A 2026-07-28 client (no handshake; every request names its version in {@code _meta}) on a bare
 * session engine, connected in memory to a server session whose transport records the {@code
 * relatedTo} of everything the server sends, so a test sees which request's stream each message
 * would ride on Streamable HTTP.
 */
final class ModernPeer implements AutoCloseable {
  final SessionEngine client;
  final ServerSession session;
  final MemoryTransport wire; // the client's end: what it received
  final RecordingEnd routed; // the server's end: what it sent, with relatedTo

  private ModernPeer(
      SessionEngine client, ServerSession session, MemoryTransport wire, RecordingEnd routed) {
    this.client = client;
    this.session = session;
    this.wire = wire;
    this.routed = routed;
  }

  static ModernPeer connect(McpServer server) {
    MemoryTransport[] pair = MemoryTransport.pair();
    RecordingEnd routed = new RecordingEnd(pair[1]);
    ServerSession session = server.connect(routed);
    SessionEngine client =
        SessionEngine.builder()
            .name("modern-client")
            .transport(pair[0])
            .requests(call -> McpJson.object())
            .build();
    client.start();
    return new ModernPeer(client, session, pair[0], routed);
  }

  /** The required {@code _meta} of a 2026-07-28 request. */
  static ObjectNode meta() {
    ObjectNode meta =
        McpJson.object().put(MetaKeys.PROTOCOL_VERSION, ProtocolVersion.V2026_07_28.wire());
    meta.set(MetaKeys.CLIENT_CAPABILITIES, McpJson.object());
    return meta;
  }

  /** Sends {@code subscriptions/listen} with {@code filter} (a JSON object) as its notifications. */
  OutboundCall listen(String filter) {
    return listen(filter, meta());
  }

  OutboundCall listen(String filter, ObjectNode meta) {
    ObjectNode params = McpJson.object();
    params.set("notifications", Json.parse(filter));
    params.set("_meta", meta);
    return client.request("subscriptions/listen", params);
  }

  /** Sends a 2026-07-28 request and waits for its result. */
  JsonNode request(String method, ObjectNode params) throws Exception {
    if (!params.has("_meta")) {
      params.set("_meta", meta());
    }
    return Peers.await(client.request(method, params).result());
  }

  /** The notifications the client received that carry subscription id {@code id}, in order. */
  List<JsonRpcMessage.Notification> tagged(RequestId id) {
    return wire.received.stream()
        .filter(m -> m instanceof JsonRpcMessage.Notification)
        .map(m -> (JsonRpcMessage.Notification) m)
        .filter(n -> id.equals(MetaKeys.subscriptionId(metaOf(n))))
        .toList();
  }

  /** The methods of {@link #tagged}. */
  List<String> taggedMethods(RequestId id) {
    return tagged(id).stream().map(JsonRpcMessage.Notification::method).toList();
  }

  /** Every notification the client received, by method, in order. */
  List<String> notificationMethods() {
    return wire.received.stream()
        .filter(m -> m instanceof JsonRpcMessage.Notification)
        .map(m -> ((JsonRpcMessage.Notification) m).method())
        .toList();
  }

  /** What the server sent with {@code relatedTo} = {@code id}, in order. */
  List<JsonRpcMessage> routedTo(RequestId id) {
    return routed.sent.stream()
        .filter(s -> id.equals(s.relatedTo()))
        .map(RecordingEnd.Sent::message)
        .toList();
  }

  private static @Nullable ObjectNode metaOf(JsonRpcMessage.Notification n) {
    ObjectNode params = n.params();
    return params != null && params.get("_meta") instanceof ObjectNode meta ? meta : null;
  }

  @Override
  public void close() {
    client.close();
  }
}
