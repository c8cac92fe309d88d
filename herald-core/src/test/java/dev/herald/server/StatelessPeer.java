package dev.herald.server;

import dev.herald.internal.session.OutboundCall;
import dev.herald.internal.session.SessionEngine;
import dev.herald.wire.ClientCapabilities;
import dev.herald.wire.Implementation;
import dev.herald.wire.JsonRpcMessage;
import dev.herald.wire.LoggingLevel;
import dev.herald.wire.McpException;
import dev.herald.wire.McpJson;
import dev.herald.wire.ProtocolVersion;
import dev.herald.wire.RequestMeta;
import java.util.List;
import org.jspecify.annotations.Nullable;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * A 2026-07-28 client on one in-memory pipe, with no handshake (as a stdio client of the stateless
 * era is): every request carries its own {@code _meta}. The server's end records which request
 * each message it sent was related to.
 */
final class StatelessPeer implements AutoCloseable {
  final SessionEngine client;
  final ServerSession session;
  final MemoryTransport clientWire;
  final List<RecordingEnd.Sent> sent;

  private StatelessPeer(McpServer server, boolean statelessOnly) {
    MemoryTransport[] wire = MemoryTransport.pair();
    this.clientWire = wire[0];
    RecordingEnd end = new RecordingEnd(wire[1]);
    this.sent = end.sent;
    this.session = statelessOnly ? server.connectStateless(end) : server.connect(end);
    this.client =
        SessionEngine.builder()
            .name("stateless-client")
            .transport(wire[0])
            .requests(call -> McpJson.object())
            .build();
    client.start();
  }

  static StatelessPeer connect(McpServer server) {
    return new StatelessPeer(server, false);
  }

  /** As {@link #connect}, on a connection that carries stateless requests only. */
  static StatelessPeer connectStateless(McpServer server) {
    return new StatelessPeer(server, true);
  }

  /** {@code _meta} of a 2026-07-28 request declaring {@code caps}, asking for logs at {@code level}. */
  static ObjectNode meta(ClientCapabilities caps, @Nullable LoggingLevel level) {
    return new RequestMeta(
            ProtocolVersion.V2026_07_28,
            caps,
            Implementation.of("stateless-client", "1.0"),
            level,
            null)
        .toMeta();
  }

  /** Params with a 2026-07-28 {@code _meta} declaring no capability. */
  static ObjectNode params() {
    return params(ClientCapabilities.none(), null);
  }

  static ObjectNode params(ClientCapabilities caps, @Nullable LoggingLevel level) {
    ObjectNode p = McpJson.object();
    p.set("_meta", meta(caps, level));
    return p;
  }

  OutboundCall send(String method, ObjectNode params) {
    return client.request(method, params);
  }

  ObjectNode request(String method, ObjectNode params) throws Exception {
    return (ObjectNode) Peers.await(client.request(method, params).result());
  }

  McpException error(String method, @Nullable ObjectNode params) throws Exception {
    try {
      JsonNode result = Peers.await(client.request(method, params).result());
      throw new AssertionError(method + " succeeded with " + result);
    } catch (McpException e) {
      return e;
    }
  }

  /** The notifications the server sent with {@code method}, with what they related to. */
  List<RecordingEnd.Sent> sentNotifications(String method) {
    return sent.stream()
        .filter(
            s -> s.message() instanceof JsonRpcMessage.Notification n && n.method().equals(method))
        .toList();
  }

  /** Every request the server wrote to the client. */
  List<RecordingEnd.Sent> sentRequests() {
    return sent.stream().filter(s -> s.message() instanceof JsonRpcMessage.Request).toList();
  }

  @Override
  public void close() {
    client.close();
  }
}
