package dev.herald.server;

import dev.herald.internal.session.InboundCall;
import dev.herald.tasks.TaskOwner;
import dev.herald.wire.McpException;
import dev.herald.wire.McpJson;
import dev.herald.wire.ServerCapabilities;
import dev.herald.wire.SubscriptionFilter;
import dev.herald.wire.SubscriptionsListenParams;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Optional;
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
 * does); {@code taskIds} (the {@code io.modelcontextprotocol/tasks} extension) whenever the server
 * offers the extension ({@link ModernTasks#offered}), every distinct id as asked: a task the
 * listener may not see (another principal's, another era's, unknown or expired) is acknowledged
 * all the same and never heard of, so the acknowledgement does not tell which ids exist. Right
 * after the acknowledgement the listen hears the current status of each named task it may see,
 * then every change.
 * Unrequested kinds are never acknowledged or sent.
 *
 * <p>Refused before anything is sent on the subscription: {@code taskIds} from a request that did
 * not declare the tasks extension, on a server that offers it (-32021 with {@code
 * data.requiredCapabilities}); more distinct
 * {@code resourceSubscriptions}, or more distinct {@code taskIds}, than {@link
 * McpServer.Builder#maxResourceSubscriptionsPerListen} (-32602),
 * and a listen beyond {@link McpServer.Builder#maxListens} (-32000 with {@code data.limit}).
 */
final class ListenMethods {
  private ListenMethods() {}

  static ObjectNode listen(ServerSession session, SubscriptionsListenParams p, InboundCall call)
      throws InterruptedException {
    McpServer server = session.server();
    SubscriptionFilter honoured = honoured(session, p.notifications(), call);
    String principal =
        honoured.taskIds() == null
            ? null
            : InputRounds.principal(server.requestStates, session, call);
    Listen listen = new Listen(session, call, honoured, principal);
    call.openEnded();
    server.listens.add(listen);
    try {
      currentStatus(server, listen, honoured, principal);
      return listen.serve();
    } finally {
      server.listens.remove(listen);
    }
  }

  /**
   * The part of {@code requested} this server honours for {@code session}.
   *
   * @throws McpException -32602 when more uris or task ids are requested than one listen may
   *     hold; -32021 when task ids are requested without the tasks extension
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
        taskIds(session, requested.taskIds(), call));
  }

  /**
   * Queues, right after the acknowledgement, the current status of each named task the listener
   * may see: a client learns a task id from its {@code CreateTaskResult} and only then listens, so
   * whatever happened in between is not lost. Registered first, so a change racing this is kept
   * too (the newer version wins).
   */
  private static void currentStatus(
      McpServer server, Listen listen, SubscriptionFilter honoured, @Nullable String principal) {
    if (honoured.taskIdsOrEmpty().isEmpty()) {
      return;
    }
    TaskOwner owner = ModernTasks.owner(principal);
    for (String id : honoured.taskIdsOrEmpty()) {
      server
          .taskRuntime
          .find(owner, id)
          .or(() ->
              principal == null
                  ? Optional.empty()
                  : server.taskRuntime.find(TaskOwner.anyone(), id))
          .ifPresent(listen::taskChanged);
    }
  }

  /** The task ids honoured: all asked for, when the server offers the extension. */
  private static @Nullable List<String> taskIds(
      ServerSession session, @Nullable List<String> asked, InboundCall call) {
    McpServer server = session.server();
    if (asked == null || !ModernTasks.offered(server)) {
      return null; // a server that offers no tasks does not know the member
    }
    ModernTasks.requireDeclared(session, call);
    Set<String> distinct = new LinkedHashSet<>(asked);
    if (distinct.size() > server.maxResourceSubscriptionsPerListen) {
      throw new McpException(
          dev.herald.wire.ErrorCodes.INVALID_PARAMS,
          "Invalid params: notifications.taskIds names "
              + distinct.size()
              + " tasks; one subscriptions/listen may hold at most "
              + server.maxResourceSubscriptionsPerListen,
          McpJson.object().put("limit", server.maxResourceSubscriptionsPerListen));
    }
    return List.copyOf(distinct);
  }

  private static @Nullable Boolean onlyIf(boolean honoured) {
    return honoured ? Boolean.TRUE : null;
  }
}
