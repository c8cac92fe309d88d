package dev.herald.server;

import dev.herald.internal.session.InboundCall;
import dev.herald.wire.McpException;
import dev.herald.wire.McpJson;
import dev.herald.wire.ServerCapabilities;
import dev.herald.wire.SubscriptionFilter;
import dev.herald.wire.SubscriptionsListenParams;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import org.jspecify.annotations.Nullable;
import tools.jackson.databind.node.ObjectNode;

/**
 * {@code subscriptions/listen} (MCP 2026-07-28 basic/patterns/subscriptions), a row of {@link
 * ServerMethods} that exists in the 2026-07-28 era only. Its handler runs on the request's virtual
 * thread for as long as the subscription lives ({@link Listen#serve}).
 *
 * <p>What is honoured, and so acknowledged: a list-change kind only when the client asked for it
 * and the server declares that area's {@code listChanged} ({@link McpServer#capabilities()});
 * {@code resourceSubscriptions} only when the server declares {@code resources.subscribe}, and of
 * them only the uris that resolve to a resource or template and that the server's {@link
 * McpServer.Builder#resourceAccess resource access} hook allows (as {@code resources/subscribe}
 * does); {@code taskIds} never (the tasks extension is not served). Unrequested kinds are never
 * acknowledged or sent.
 *
 * <p>Refused before anything is sent on the subscription: more distinct {@code
 * resourceSubscriptions} than {@link McpServer.Builder#maxResourceSubscriptionsPerListen} (-32602),
 * and a listen beyond {@link McpServer.Builder#maxListens} (-32000 with {@code data.limit}).
 */
final class ListenMethods {
  private ListenMethods() {}

  static ObjectNode listen(ServerSession session, SubscriptionsListenParams p, InboundCall call)
      throws InterruptedException {
    McpServer server = session.server();
    SubscriptionFilter honoured = honoured(session, p.notifications(), call);
    Listen listen = new Listen(session, call, honoured);
    call.openEnded();
    server.listens.add(listen);
    try {
      return listen.serve();
    } finally {
      server.listens.remove(listen);
    }
  }

  /**
   * The part of {@code requested} this server honours for {@code session}.
   *
   * @throws McpException -32602 when more uris are requested than one listen may hold
   */
  static SubscriptionFilter honoured(
      ServerSession session, SubscriptionFilter requested, InboundCall call) {
    McpServer server = session.server();
    ServerCapabilities caps = server.capabilities();
    List<String> uris = null;
    List<String> asked = requested.resourceSubscriptions();
    if (asked != null) {
      Set<String> distinct = new LinkedHashSet<>(asked);
      if (distinct.size() > server.maxResourceSubscriptionsPerListen) {
        throw new McpException(
            dev.herald.wire.ErrorCodes.INVALID_PARAMS,
            "Invalid params: notifications.resourceSubscriptions names "
                + distinct.size()
                + " resources; one subscriptions/listen may hold at most "
                + server.maxResourceSubscriptionsPerListen,
            McpJson.object().put("limit", server.maxResourceSubscriptionsPerListen));
      }
      if (caps.resourcesSubscribe()) {
        uris = new ArrayList<>();
        for (String uri : distinct) {
          if (session.resolveResource(uri, call).isPresent()
              && server.resourceAccess.test(session, uri)) {
            uris.add(uri);
          }
        }
      }
    }
    return new SubscriptionFilter(
        onlyIf(requested.wantsToolsListChanged() && caps.toolsListChanged()),
        onlyIf(requested.wantsPromptsListChanged() && caps.promptsListChanged()),
        onlyIf(requested.wantsResourcesListChanged() && caps.resourcesListChanged()),
        uris,
        null);
  }

  private static @Nullable Boolean onlyIf(boolean honoured) {
    return honoured ? Boolean.TRUE : null;
  }
}
