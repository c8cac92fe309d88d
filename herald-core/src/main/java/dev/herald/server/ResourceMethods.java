package dev.herald.server;

import dev.herald.internal.session.InboundCall;
import dev.herald.wire.ErrorCodes;
import dev.herald.wire.ListResourceTemplatesResult;
import dev.herald.wire.ListResourcesResult;
import dev.herald.wire.McpException;
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
 *
 * <p>Resource not found: -32002 with {@code data.uri} in the handshake era (2025-11-25
 * server/resources, "Error Handling"); -32602 with the same data for a stateless request, where
 * -32002 must not be sent (2026-07-28 server/resources). A handler's own {@link
 * ResourceHandler#notFound} is translated the same way, here, in one place.
 */
final class ResourceMethods {
  private ResourceMethods() {}

  static ListResourcesResult list(ServerSession session, PaginatedParams p, InboundCall call) {
    McpServer server = session.server();
    List<Resource> visible =
        session.resourceList(call).stream()
            .filter(r -> server.resourceAccess.test(session, r.uri()))
            .filter(r -> Visibility.allows(call, server.scopes.resource(r.uri())))
            .toList();
    Pagination.Page<Resource> page = server.pagination.page(call.method(), visible, p.cursor());
    return ListResourcesResult.of(page.items(), page.nextCursor());
  }

  static ListResourceTemplatesResult templates(
      ServerSession session, PaginatedParams p, InboundCall call) {
    Pagination.Page<ResourceTemplate> page =
        session
            .server()
            .pagination
            .page(
                call.method(),
                Visibility.templates(session, call, session.templateList(call)),
                p.cursor());
    return ListResourceTemplatesResult.of(page.items(), page.nextCursor());
  }

  /** The resource's {@link ReadResourceResult}, or an {@code InputRequiredResult} (2026-07-28). */
  static Object read(ServerSession session, ReadResourceParams p, InboundCall call)
      throws Exception {
    String uri = p.uri();
    ResourceCatalog.Resolved resolved = resolveReadable(session, uri, call);
    InputRounds.Target target =
        new InputRounds.Target(call.method(), uri, null, p.inputResponses(), p.requestState());
    try {
      return InputRounds.serve(
          session,
          call,
          target,
          context -> {
            ReadResourceResult result =
                resolved.handler().read(new ResourceRead(uri, resolved.variables(), context));
            if (result == null) {
              throw notFound(uri, call);
            }
            return result;
          });
    } catch (McpException e) {
      throw inEra(e, call);
    }
  }

  static ObjectNode subscribe(ServerSession session, SubscribeParams p, InboundCall call) {
    resolveReadable(session, p.uri(), call);
    session.server().subscriptions.subscribe(session, p.uri());
    session.stateChanged();
    return McpJson.object();
  }

  static ObjectNode unsubscribe(ServerSession session, UnsubscribeParams p, InboundCall call) {
    if (session.server().subscriptions.unsubscribe(session, p.uri())) {
      session.stateChanged();
    }
    return McpJson.object();
  }

  /**
   * The handler for a uri this session may read. A uri the access hook refuses gets the same
   * answer as an unknown one (-32002), so the error does not reveal that the resource exists.
   */
  private static ResourceCatalog.Resolved resolveReadable(
      ServerSession session, String uri, InboundCall call) {
    McpServer server = session.server();
    ResourceCatalog.Resolved resolved = session.resolveResource(uri, call).orElse(null);
    if (resolved == null || !server.resourceAccess.test(session, uri)) {
      throw notFound(uri, call);
    }
    return resolved;
  }

  /** "Resource not found" in the request's era. */
  static McpException notFound(String uri, InboundCall call) {
    return inEra(ResourceHandler.notFound(uri), call);
  }

  /** A -32002 becomes -32602 (same message and data) for a stateless request; others pass. */
  private static McpException inEra(McpException e, InboundCall call) {
    if (e.code() != ErrorCodes.RESOURCE_NOT_FOUND || !call.stateless()) {
      return e;
    }
    String message = e.getMessage() == null ? "Resource not found" : e.getMessage();
    return new McpException(ErrorCodes.INVALID_PARAMS, message, e.data());
  }
}
