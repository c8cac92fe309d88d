package dev.herald.server;

import dev.herald.internal.session.OutboundCall;
import dev.herald.internal.session.RequestHandler;
import dev.herald.internal.session.SessionEngine;
import dev.herald.session.CallOptions;
import dev.herald.wire.ClientCapabilities;
import dev.herald.wire.Implementation;
import dev.herald.wire.InitializeParams;
import dev.herald.wire.JsonRpcMessage;
import dev.herald.wire.McpException;
import dev.herald.wire.McpJson;
import dev.herald.wire.McpMethods;
import dev.herald.wire.ProtocolVersion;
import java.util.List;
import org.jspecify.annotations.Nullable;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * A handshake-era (2025-11-25) client on a bare session engine, speaking raw JSON-RPC to a server
 * in memory: the test answers the server's requests, and the server's end records which request
 * each message it sent belongs to ({@link RecordingEnd}).
 */
final class TaskPeer implements AutoCloseable {
  static final ClientCapabilities ELICITATION =
      new ClientCapabilities(null, null, null, McpJson.object(), null, null);

  final SessionEngine client;
  final ServerSession session;
  final MemoryTransport wire;
  final List<RecordingEnd.Sent> sent;

  private TaskPeer(
      SessionEngine client, ServerSession session, MemoryTransport wire, RecordingEnd end) {
    this.client = client;
    this.session = session;
    this.wire = wire;
    this.sent = end.sent;
  }

  static TaskPeer connect(McpServer server) throws Exception {
    return connect(server, ELICITATION, call -> McpJson.object());
  }

  static TaskPeer connect(McpServer server, ClientCapabilities caps, RequestHandler answers)
      throws Exception {
    MemoryTransport[] pair = MemoryTransport.pair();
    RecordingEnd end = new RecordingEnd(pair[1]);
    ServerSession session = server.connect(end);
    SessionEngine engine =
        SessionEngine.builder().name("task-client").transport(pair[0]).requests(answers).build();
    engine.start();
    InitializeParams init =
        new InitializeParams(
            ProtocolVersion.LATEST_LEGACY.wire(),
            caps,
            Implementation.of("task-client", "1.0"),
            null);
    Peers.await(
        engine
            .request(McpMethods.INITIALIZE, McpJson.toObject(init), CallOptions.defaults(), null)
            .result());
    engine.version(ProtocolVersion.LATEST_LEGACY);
    engine.notify(McpMethods.INITIALIZED, null, null);
    Peers.awaitTrue(() -> session.state() == ServerSession.State.OPERATING);
    return new TaskPeer(engine, session, pair[0], end);
  }

  /** {@code tools/call} params of {@code tool} as a task ({@code ttl} may be null), with a progress token or not. */
  static ObjectNode taskCall(String tool, @Nullable Long ttl, @Nullable String progressToken) {
    ObjectNode p = McpJson.object();
    p.put("name", tool);
    p.putObject("arguments");
    ObjectNode task = p.putObject("task");
    if (ttl != null) {
      task.put("ttl", ttl);
    }
    if (progressToken != null) {
      p.putObject("_meta").put("progressToken", progressToken);
    }
    return p;
  }

  static ObjectNode plainCall(String tool, @Nullable String progressToken) {
    ObjectNode p = taskCall(tool, null, progressToken);
    p.remove("task");
    return p;
  }

  static ObjectNode taskId(String id) {
    return McpJson.object().put("taskId", id);
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

  /** Creates a task of {@code tool} and returns its id. */
  String start(String tool) throws Exception {
    return request(McpMethods.TOOLS_CALL, taskCall(tool, null, null))
        .get("task")
        .get("taskId")
        .stringValue();
  }

  String status(String taskId) throws Exception {
    return request(McpMethods.TASKS_GET, taskId(taskId)).get("status").stringValue();
  }

  /** The {@code notifications/tasks/status} this client received for {@code taskId}, in order. */
  List<ObjectNode> statusNotifications(String taskId) {
    return wire.notifications(McpMethods.TASKS_STATUS).stream()
        .map(JsonRpcMessage.Notification::params)
        .filter(p -> p != null && p.get("taskId").stringValue().equals(taskId))
        .toList();
  }

  /** The statuses of {@link #statusNotifications}, in order. */
  List<String> statuses(String taskId) {
    return statusNotifications(taskId).stream().map(p -> p.get("status").stringValue()).toList();
  }

  /** The notifications the server sent with {@code method}, with what they related to. */
  List<RecordingEnd.Sent> sentNotifications(String method) {
    return sent.stream()
        .filter(
            s -> s.message() instanceof JsonRpcMessage.Notification n && n.method().equals(method))
        .toList();
  }

  @Override
  public void close() {
    client.close();
  }
}
