package dev.herald.client;

import dev.herald.wire.JsonRpcMessage;
import dev.herald.wire.McpJson;
import dev.herald.wire.McpMethods;
import dev.herald.wire.MetaKeys;
import dev.herald.wire.RequestId;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Function;
import org.jspecify.annotations.Nullable;
import tools.jackson.databind.node.ObjectNode;

/**
 * A raw peer on the far end of an in-memory pair that answers per a script, for the client's
 * engine edge cases: by default a 2026-07-28 server ({@code server/discover} answered, the list
 * methods answered empty and complete, nothing else answered); a test replaces the answer of any
 * method with {@link #on}. It records every message it receives and sends whatever the test asks.
 */
final class ModernPeer extends RawPeer {
  static final String DISCOVER =
      "{\"resultType\":\"complete\",\"supportedVersions\":[\"2026-07-28\"],"
          + "\"capabilities\":{\"tools\":{\"listChanged\":true},\"prompts\":{\"listChanged\":true},"
          + "\"resources\":{\"subscribe\":true,\"listChanged\":true}},"
          + "\"instructions\":\"be kind\",\"ttlMs\":60000,\"cacheScope\":\"public\","
          + "\"_meta\":{\"io.modelcontextprotocol/serverInfo\":{\"name\":\"peer\",\"version\":\"9\"}}}";

  static final String INITIALIZE =
      "{\"protocolVersion\":\"2025-11-25\",\"capabilities\":{\"tools\":{\"listChanged\":true},"
          + "\"resources\":{\"subscribe\":true,\"listChanged\":true}},"
          + "\"serverInfo\":{\"name\":\"legacy\",\"version\":\"1\"}}";

  private final Map<String, Function<JsonRpcMessage.Request, @Nullable JsonRpcMessage>> script =
      new ConcurrentHashMap<>();

  ModernPeer() {
    on(McpMethods.SERVER_DISCOVER, r -> result(r, DISCOVER));
    on(McpMethods.TOOLS_LIST, r -> result(r, "{\"resultType\":\"complete\",\"tools\":[]}"));
    on(McpMethods.PROMPTS_LIST, r -> result(r, "{\"resultType\":\"complete\",\"prompts\":[]}"));
    on(McpMethods.RESOURCES_LIST, r -> result(r, "{\"resultType\":\"complete\",\"resources\":[]}"));
    on(
        McpMethods.RESOURCES_TEMPLATES_LIST,
        r -> result(r, "{\"resultType\":\"complete\",\"resourceTemplates\":[]}"));
    start();
  }

  /** A handshake-era peer: {@code server/discover} is answered by {@code discover}, initialize is answered. */
  static ModernPeer legacy(Function<JsonRpcMessage.Request, @Nullable JsonRpcMessage> discover) {
    ModernPeer p = new ModernPeer();
    p.on(McpMethods.SERVER_DISCOVER, discover);
    p.on(McpMethods.INITIALIZE, r -> result(r, INITIALIZE));
    p.on(McpMethods.TOOLS_LIST, r -> result(r, "{\"tools\":[]}"));
    p.on(McpMethods.PING, r -> result(r, "{}"));
    return p;
  }

  /** Replaces the answer to {@code method} ({@code null} from the function: no answer). */
  ModernPeer on(String method, Function<JsonRpcMessage.Request, @Nullable JsonRpcMessage> answer) {
    script.put(method, answer);
    return this;
  }

  static ObjectNode json(String json) {
    return (ObjectNode) McpJson.mapper().readTree(json);
  }

  static JsonRpcMessage result(JsonRpcMessage.Request r, String json) {
    return new JsonRpcMessage.Result(r.id(), json(json));
  }

  static JsonRpcMessage error(
      JsonRpcMessage.Request r, int code, String message, @Nullable String data) {
    return new JsonRpcMessage.Error(
        r.id(), new JsonRpcMessage.ErrorObject(code, message, data == null ? null : json(data)));
  }

  /** Sends a notification of the listen {@code subscription}. */
  void notifyListen(RequestId subscription, String method, @Nullable String params) {
    ObjectNode p = params == null ? McpJson.object() : json(params);
    ObjectNode meta = p.putObject("_meta");
    meta.set(MetaKeys.SUBSCRIPTION_ID, McpJson.toTree(subscription));
    send(new JsonRpcMessage.Notification(method, p));
  }

  List<JsonRpcMessage.Request> requests() {
    return received.stream()
        .filter(m -> m instanceof JsonRpcMessage.Request)
        .map(m -> (JsonRpcMessage.Request) m)
        .toList();
  }

  List<JsonRpcMessage.Response> responses() {
    return received.stream()
        .filter(m -> m instanceof JsonRpcMessage.Response)
        .map(m -> (JsonRpcMessage.Response) m)
        .toList();
  }

  @Override
  @Nullable JsonRpcMessage answer(JsonRpcMessage.Request request) {
    Function<JsonRpcMessage.Request, @Nullable JsonRpcMessage> answer =
        script.get(request.method());
    return answer == null ? null : answer.apply(request);
  }
}
