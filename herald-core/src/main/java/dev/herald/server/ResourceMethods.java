package dev.herald.server;

import dev.herald.internal.session.InboundCall;
import dev.herald.wire.ListResourceTemplatesResult;
import dev.herald.wire.ListResourcesResult;
import dev.herald.wire.McpJson;
import dev.herald.wire.PaginatedParams;
import dev.herald.wire.ReadResourceParams;
import dev.herald.wire.ReadResourceResult;
import dev.herald.wire.Resource;
import dev.herald.wire.ResourceTemplate;
import dev.herald.wire.SubscribeParams;
import dev.herald.wire.UnsubscribeParams;
import java.util.List;
import tools.jackson.databind.node.ObjectNode;

/**
 * The {@code resources/*} methods (MCP specification, "Resources"). The method table has
 * already checked that the server declared {@code resources} to this session. Runs on the
 * request's virtual thread.
 */
final class ResourceMethods {
  private ResourceMethods() {}

  static ListResourcesResult list(ServerSession session, PaginatedParams p, InboundCall call) {
    McpServer server = session.server();
    List<Resource> visible =
        session.resourceList().stream()
            .filter(r -> server.resourceAccess.test(session, r.uri()))
            .toList();
    Pagination.Page<Resource> page = server.pagination.page(call.method(), visible, p.cursor());
    return ListResourcesResult.of(page.items(), page.nextCursor());
  }

  static ListResourceTemplatesResult templates(
      ServerSession session, PaginatedParams p, InboundCall call) {
    Pagination.Page<ResourceTemplate> page =
        session.server().pagination.page(call.method(), session.templateList(), p.cursor());
    return ListResourceTemplatesResult.of(page.items(), page.nextCursor());
  }

  /** The resource's {@link ReadResourceResult}, or an {@code InputRequiredResult} (2026-07-28). */
  static Object read(ServerSession session, ReadResourceParams p, InboundCall call)
      throws Exception {
    String uri = p.uri();
    ResourceCatalog.Resolved resolved = resolveReadable(session, uri);
    InputRounds.Target target =
        new InputRounds.Target(call.method(), uri, null, p.inputResponses(), p.requestState());
    return InputRounds.serve(
        session,
        call,
        target,
        context -> {
          ReadResourceResult result =
              resolved.handler().read(new ResourceRead(uri, resolved.variables(), context));
          if (result == null) {
            throw ResourceHandler.notFound(uri);
          }
          return result;
        });
  }

  static ObjectNode subscribe(ServerSession session, SubscribeParams p, InboundCall call) {
    resolveReadable(session, p.uri());
    session.server().subscriptions.subscribe(session, p.uri());
    return McpJson.object();
  }

  static ObjectNode unsubscribe(ServerSession session, UnsubscribeParams p, InboundCall call) {
    session.server().subscriptions.unsubscribe(session, p.uri());
    return McpJson.object();
  }

  /**
   * The handler for a uri this session may read. A uri the access hook refuses gets the same
   * answer as an unknown one (-32002), so the error does not reveal that the resource exists.
   */
  private static ResourceCatalog.Resolved resolveReadable(ServerSession session, String uri) {
    McpServer server = session.server();
    ResourceCatalog.Resolved resolved = session.resolveResource(uri).orElse(null);
    if (resolved == null || !server.resourceAccess.test(session, uri)) {
      throw ResourceHandler.notFound(uri);
    }
    return resolved;
  }
}
