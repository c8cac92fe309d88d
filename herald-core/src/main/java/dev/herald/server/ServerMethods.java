package dev.herald.server;

import dev.herald.internal.session.Capability;
import dev.herald.internal.session.InboundCall;
import dev.herald.internal.session.MethodRow;
import dev.herald.internal.session.MethodTable;
import dev.herald.session.Interceptor;
import dev.herald.wire.CallToolParams;
import dev.herald.wire.CancelTaskParams;
import dev.herald.wire.ClientCapabilities;
import dev.herald.wire.CompleteParams;
import dev.herald.wire.CompleteResult;
import dev.herald.wire.DiscoverResult;
import dev.herald.wire.GetPromptParams;
import dev.herald.wire.GetTaskParams;
import dev.herald.wire.GetTaskPayloadParams;
import dev.herald.wire.GetTaskPayloadResult;
import dev.herald.wire.InitializeParams;
import dev.herald.wire.InitializeResult;
import dev.herald.wire.ListPromptsResult;
import dev.herald.wire.ListResourceTemplatesResult;
import dev.herald.wire.ListResourcesResult;
import dev.herald.wire.ListTasksResult;
import dev.herald.wire.ListToolsResult;
import dev.herald.wire.McpMethods;
import dev.herald.wire.MetaKeys;
import dev.herald.wire.PaginatedParams;
import dev.herald.wire.ProtocolVersion;
import dev.herald.wire.ReadResourceParams;
import dev.herald.wire.RequestMeta;
import dev.herald.wire.SetLevelParams;
import dev.herald.wire.SubscribeParams;
import dev.herald.wire.SubscriptionsListenParams;
import dev.herald.wire.TasksExtension;
import dev.herald.wire.UnsubscribeParams;
import java.util.List;
import org.jspecify.annotations.Nullable;
import tools.jackson.databind.node.ObjectNode;

/**
 * The server's method table: one row per MCP method a server answers (MCP specification, "Server
 * Features" and "Lifecycle"), each naming its params and result types, the protocol versions in
 * which it exists, the capability the server must have declared, and the handler (in the small
 * per-area classes {@link LifecycleMethods}, {@link ToolMethods}, {@link ResourceMethods}, {@link
 * PromptMethods}, {@link CompletionMethods}). Adding a method is adding a row here. The table is
 * built once per {@link McpServer} and shared by its sessions.
 */
final class ServerMethods {
  private ServerMethods() {}

  static final Capability TOOLS = Capability.server("tools", c -> c.tools() != null);
  static final Capability RESOURCES = Capability.server("resources", c -> c.resources() != null);
  static final Capability RESOURCE_SUBSCRIBE =
      Capability.server(
          "resources.subscribe",
          c -> c.resources() != null && Boolean.TRUE.equals(c.resources().subscribe()));
  static final Capability PROMPTS = Capability.server("prompts", c -> c.prompts() != null);
  static final Capability COMPLETIONS =
      Capability.server("completions", c -> c.completions() != null);
  static final Capability LOGGING = Capability.server("logging", c -> c.logging() != null);
  static final Capability TASKS = Capability.server("tasks", c -> c.tasks() != null);

  static final List<MethodRow<ServerSession, ?, ?>> ROWS =
      List.of(
          MethodRow.request(McpMethods.INITIALIZE, InitializeParams.class, InitializeResult.class)
              .in(ProtocolVersion::handshake)
              .beforeInitialized()
              .handler(LifecycleMethods::initialize),
          MethodRow.request(McpMethods.PING, Void.class, ObjectNode.class)
              .in(ProtocolVersion::ping)
              .beforeInitialized()
              .handler(LifecycleMethods::ping),
          MethodRow.request(McpMethods.SERVER_DISCOVER, Void.class, DiscoverResult.class)
              .in(ProtocolVersion::discovery)
              .beforeInitialized()
              .handler(LifecycleMethods::discover),
          MethodRow.request(McpMethods.LOGGING_SET_LEVEL, SetLevelParams.class, ObjectNode.class)
              .in(ProtocolVersion::setLevel)
              .needs(LOGGING)
              .handler(LifecycleMethods::setLevel),
          MethodRow.request(McpMethods.TOOLS_LIST, PaginatedParams.class, ListToolsResult.class)
              .needs(TOOLS)
              .handler(ToolMethods::list),
          // CallToolResult, or InputRequiredResult in the 2026-07-28 era (so for prompts/get and
          // resources/read): InputRounds
          MethodRow.request(McpMethods.TOOLS_CALL, CallToolParams.class, Object.class)
              .needs(TOOLS)
              .handler(ToolMethods::call),
          MethodRow.request(
                  McpMethods.RESOURCES_LIST, PaginatedParams.class, ListResourcesResult.class)
              .needs(RESOURCES)
              .handler(ResourceMethods::list),
          MethodRow.request(
                  McpMethods.RESOURCES_TEMPLATES_LIST,
                  PaginatedParams.class,
                  ListResourceTemplatesResult.class)
              .needs(RESOURCES)
              .handler(ResourceMethods::templates),
          MethodRow.request(McpMethods.RESOURCES_READ, ReadResourceParams.class, Object.class)
              .needs(RESOURCES)
              .handler(ResourceMethods::read),
          MethodRow.request(McpMethods.RESOURCES_SUBSCRIBE, SubscribeParams.class, ObjectNode.class)
              .in(ProtocolVersion::legacySubscriptions)
              .needs(RESOURCE_SUBSCRIBE)
              .handler(ResourceMethods::subscribe),
          MethodRow.request(
                  McpMethods.RESOURCES_UNSUBSCRIBE, UnsubscribeParams.class, ObjectNode.class)
              .in(ProtocolVersion::legacySubscriptions)
              .needs(RESOURCE_SUBSCRIBE)
              .handler(ResourceMethods::unsubscribe),
          MethodRow.request(McpMethods.PROMPTS_LIST, PaginatedParams.class, ListPromptsResult.class)
              .needs(PROMPTS)
              .handler(PromptMethods::list),
          MethodRow.request(McpMethods.PROMPTS_GET, GetPromptParams.class, Object.class)
              .needs(PROMPTS)
              .handler(PromptMethods::get),
          MethodRow.request(
                  McpMethods.COMPLETION_COMPLETE, CompleteParams.class, CompleteResult.class)
              .needs(COMPLETIONS)
              .handler(CompletionMethods::complete),
          MethodRow.request(
                  McpMethods.SUBSCRIPTIONS_LISTEN,
                  SubscriptionsListenParams.class,
                  ObjectNode.class)
              .in(ProtocolVersion::subscriptionsListen)
              .handler(ListenMethods::listen),
          // the 2025-11-25 tasks (TaskMethods); tasks/get and tasks/cancel are also the
          // 2026-07-28 tasks extension's names, so their results are typed per era (Object)
          MethodRow.request(McpMethods.TASKS_GET, GetTaskParams.class, Object.class)
              .in(ProtocolVersion::coreTasks)
              .needs(TASKS)
              .handler(TaskMethods::get),
          MethodRow.request(
                  McpMethods.TASKS_RESULT, GetTaskPayloadParams.class, GetTaskPayloadResult.class)
              .in(ProtocolVersion::coreTasks)
              .needs(TASKS)
              .handler(TaskMethods::result),
          MethodRow.request(McpMethods.TASKS_LIST, PaginatedParams.class, ListTasksResult.class)
              .in(ProtocolVersion::coreTasks)
              .needs(TASKS)
              .handler(TaskMethods::list),
          MethodRow.request(McpMethods.TASKS_CANCEL, CancelTaskParams.class, Object.class)
              .in(ProtocolVersion::coreTasks)
              .needs(TASKS)
              .handler(TaskMethods::cancel),
          // the 2026-07-28 tasks extension; its rows exist beside the 2025-11-25 rows of the same
          // names (the request's version picks one), tasks/result and tasks/list have none
          MethodRow.request(McpMethods.TASKS_GET, GetTaskParams.class, ObjectNode.class)
              .in(ModernTaskMethods::exists)
              .handler(ModernTaskMethods::get),
          MethodRow.request(
                  McpMethods.TASKS_UPDATE, TasksExtension.UpdateTaskParams.class, ObjectNode.class)
              .in(ModernTaskMethods::exists)
              .handler(ModernTaskMethods::update),
          MethodRow.request(McpMethods.TASKS_CANCEL, CancelTaskParams.class, ObjectNode.class)
              .in(ModernTaskMethods::exists)
              .handler(ModernTaskMethods::cancel),
          MethodRow.notification(McpMethods.INITIALIZED, Void.class)
              .in(ProtocolVersion::handshake)
              .receiver((ServerSession s, Void p) -> s.onInitialized()),
          MethodRow.notification(McpMethods.ROOTS_LIST_CHANGED, Void.class)
              .in(ProtocolVersion::serverRequests)
              .receiver((ServerSession s, Void p) -> s.rootsChanged()));

  /** The server's table with the user's interceptors in front of Herald's gates. */
  static MethodTable<ServerSession> table(List<Interceptor<ServerSession>> interceptors) {
    return MethodTable.of(ROWS, interceptors, new Role());
  }

  /** Herald's interceptors ahead of the user's: every stateless result is decorated once. */
  private static final List<Interceptor<ServerSession>> FRONT = List.of(new StatelessResults());

  /** What the table asks a server session. */
  private static final class Role implements MethodTable.Role<ServerSession> {
    /**
     * Era routing, before any interceptor: a handshake-era session's negotiated version (a
     * request's {@code _meta} can only add client capabilities there); otherwise what {@link
     * EraRouting} decides from the request itself.
     */
    @Override
    public @Nullable ProtocolVersion version(ServerSession session, InboundCall call) {
      ProtocolVersion negotiated = session.protocolVersion().orElse(null);
      if (negotiated != null) {
        return negotiated;
      }
      return EraRouting.route(session.server().eras(), session.statelessOnly(), call);
    }

    @Override
    public List<Interceptor<ServerSession>> front() {
      return FRONT;
    }

    /**
     * A request that carries a principal needs the scopes of the entry it uses ({@link
     * EntryScopes}); a principal without them is refused before the handler runs (-32600; an HTTP
     * endpoint answers 403 before the request gets here). A resource is resolved as the read
     * will resolve it: this session's own catalog first.
     */
    @Override
    public void authorize(ServerSession session, InboundCall call) {
      dev.herald.auth.Principal p = call.principal();
      if (p == null) {
        return;
      }
      java.util.Set<String> needed =
          session
              .server()
              .scopes
              .required(call.method(), call.params(), uri -> session.resolveResource(uri, call));
      if (!p.hasScopes(needed)) {
        throw new dev.herald.wire.McpException(
            dev.herald.wire.ErrorCodes.INVALID_REQUEST,
            "Forbidden: insufficient scope; this request needs "
                + String.join(" ", new java.util.TreeSet<>(needed)));
      }
    }

    @Override
    public boolean initialized(ServerSession session) {
      return session.state() != ServerSession.State.NEW;
    }

    @Override
    public boolean declared(ServerSession session, Capability capability, InboundCall call) {
      return switch (capability) {
        case Capability.OfServer s ->
            // a stateless request is served on what the server declares in server/discover now
            s.declaredIn()
                .test(
                    call.stateless()
                        ? session.server().statelessCapabilitiesForGate()
                        : session.serverCapabilities());
        case Capability.OfClient c -> clientSupports(session, c, call);
      };
    }
  }

  /**
   * Whether the client supports {@code capability} for this request: what it declared at
   * bring-up. The one place that question is answered, for the table's gate and for the
   * server's own requests to the client ({@link ReverseCalls}). The request's own declaration
   * (SEP-2575, {@code _meta["io.modelcontextprotocol/clientCapabilities"]}, in both eras) is added
   * to the session's for this request only: it never removes anything and never outlives the
   * request.
   */
  static boolean clientSupports(
      ServerSession session, Capability.OfClient capability, InboundCall call) {
    return capability.declaredIn().test(clientCapabilities(session, call));
  }

  /**
   * What the client supports for this request, the set {@link #clientSupports} asks: the
   * session's declaration (none without a handshake) with the request's own added.
   */
  static ClientCapabilities clientCapabilities(ServerSession session, InboundCall call) {
    RequestMeta stateless = call.requestMeta();
    ClientCapabilities own =
        stateless != null
            ? stateless.clientCapabilities()
            : MetaKeys.clientCapabilities(call.meta());
    return session.clientCapabilities().union(own);
  }
}
