package dev.herald.client;

import dev.herald.wire.JsonRpcMessage;
import dev.herald.wire.McpJson;
import dev.herald.wire.McpMethods;
import java.util.concurrent.CountDownLatch;
import org.jspecify.annotations.Nullable;
import tools.jackson.databind.node.ObjectNode;

/**
 * A raw server on the far end of an in-memory pair, for client tests: it answers {@code
 * initialize} with the capabilities it was given (or never, when given none), {@code ping} and
 * the list methods with empty results, records every message it receives, and sends whatever
 * notification the test asks, whether or not it declared the capability.
 */
final class ScriptedServer extends RawPeer {
  final CountDownLatch closed = new CountDownLatch(1);
  private final @Nullable ObjectNode capabilities;

  /** @param capabilities what {@code initialize} declares; {@code null}: never answer it */
  ScriptedServer(@Nullable String capabilities) {
    this.capabilities =
        capabilities == null ? null : (ObjectNode) McpJson.mapper().readTree(capabilities);
    start();
  }

  void notify(String method, @Nullable String params) {
    send(
        new JsonRpcMessage.Notification(
            method, params == null ? null : (ObjectNode) McpJson.mapper().readTree(params)));
  }

  @Override
  @Nullable JsonRpcMessage answer(JsonRpcMessage.Request r) {
    ObjectNode result = McpJson.object();
    switch (r.method()) {
      case McpMethods.INITIALIZE -> {
        if (capabilities == null) {
          return null; // a server that never answers initialize
        }
        result.put("protocolVersion", "2025-11-25");
        result.set("capabilities", capabilities);
        result.putObject("serverInfo").put("name", "scripted").put("version", "1");
      }
      case McpMethods.TOOLS_LIST -> result.putArray("tools");
      case McpMethods.PROMPTS_LIST -> result.putArray("prompts");
      case McpMethods.RESOURCES_LIST -> result.putArray("resources");
      case McpMethods.RESOURCES_TEMPLATES_LIST -> result.putArray("resourceTemplates");
      default -> {}
    }
    return new JsonRpcMessage.Result(r.id(), result);
  }

  @Override
  public void onClose(@Nullable Throwable cause) {
    closed.countDown();
  }
}
