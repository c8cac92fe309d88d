package dev.herald.server;

import dev.herald.internal.server.FanOut;
import dev.herald.internal.session.MethodTable;
import dev.herald.internal.session.OneListener;
import dev.herald.session.CallOptions;
import dev.herald.session.EventListener;
import dev.herald.session.Interceptor;
import dev.herald.session.Scheduler;
import dev.herald.session.Ticker;
import dev.herald.transport.Transport;
import dev.herald.transport.stdio.StdioTransport;
import dev.herald.wire.CacheScope;
import dev.herald.wire.CompletionReference;
import dev.herald.wire.EncodedMessage;
import dev.herald.wire.Implementation;
import dev.herald.wire.JsonRpcMessage;
import dev.herald.wire.LoggingLevel;
import dev.herald.wire.McpJson;
import dev.herald.wire.McpMethods;
import dev.herald.wire.Prompt;
import dev.herald.wire.Resource;
import dev.herald.wire.ResourceTemplate;
import dev.herald.wire.ResourceUpdatedParams;
import dev.herald.wire.ServerCapabilities;
import dev.herald.wire.SubscriptionFilter;
import dev.herald.wire.Tool;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Objects;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.BiPredicate;
import java.util.function.Predicate;
import java.util.function.Supplier;
import org.jspecify.annotations.Nullable;
import tools.jackson.databind.json.JsonMapper;
import tools.jackson.databind.node.ObjectNode;

/**
 * An MCP server: owns the catalog (tools, and more as features land) and serves any number of
 * sessions, one per connection. Sessions are separate objects ({@link ServerSession}).
 *
 * {@snippet :
 * record Greet(String name, @Nullable String greeting) {}
 *
 * McpServer server = McpServer.builder()
 *     .info("my-server", "1.0.0")
 *     .tool(Tool.builder("echo").description("Echoes text").build(),
 *           call -> CallToolResult.text(call.string("text", "")))
 *     .tool("greet", "Greets someone", Greet.class,
 *           (args, ctx) -> CallToolResult.text(
 *               (args.greeting() == null ? "Hello" : args.greeting()) + ", " + args.name()))
 *     .build();
 * server.serveStdio(); // blocks until the client closes stdin
 * }
 *
 * <p><b>Tools.</b> Every tool's {@code inputSchema} (and {@code outputSchema}, if any) is compiled
 * once, when it is registered, as JSON Schema 2020-12. Each call's arguments are validated before
 * the handler runs; a failure is a tool error result ({@code isError: true}) naming the failing
 * paths, and the session goes on. When a tool declares an {@code outputSchema}, a successful
 * result's {@code structuredContent} is validated too, and a mismatch becomes an {@code isError}
 * result saying the tool produced invalid output. An unknown tool is a JSON-RPC error (-32602).
 *
 * <p><b>Catalog changes.</b> {@link #addTool}/{@link #removeTool}, {@link #resources()} and {@link
 * #prompts()} change the catalogs at run time. Changes are coalesced per catalog: each session
 * whose gate is open (it is operating, and the server declared {@code <area>.listChanged} to it,
 * see {@link #capabilities()} and {@link Builder#toolsListChanged}) hears of a burst's first
 * change at once, and of the rest of the burst at most once per {@link
 * Builder#listChangedDebounce} window, when the window closes: a single change costs no delay, a
 * burst of any size inside one window at most two {@code notifications/<area>/list_changed}.
 * Sessions can also carry their own tools, resources and prompts on top of
 * the server's ({@link ServerSession#addTool}, {@link ServerSession#resources()}, {@link
 * ServerSession#prompts()}); such a change is announced to that session only.
 *
 * <p><b>Eras.</b> By default ({@link Builder#eras}) one server serves both protocol eras on one
 * endpoint or pipe: a session that did {@code initialize} is served in the handshake era; a
 * request whose {@code _meta} names a protocol version on a session without handshake is a
 * stateless 2026-07-28 request, served on its own (MCP 2026-07-28 basic/index "Statelessness"):
 * its {@code _meta} is validated, it sees the server's catalogs only (never a session's own),
 * its handler may log only if the request asked for logs, it never causes a request to the client,
 * and its result carries {@code resultType}, {@code serverInfo} and, for discover, lists and
 * reads, the caching hints of {@link Builder#cacheHint}.
 *
 * <p><b>Listens (2026-07-28).</b> A {@code subscriptions/listen} request is acknowledged with the
 * part of its filter the server honours, then hears the server's catalog changes (one {@code
 * list_changed} for a burst's first change and at most one more per window, as sessions do) and {@link #notifyResourceUpdated} for the uris
 * it holds, each tagged with its subscription id, on its own stream; it never hears progress or
 * logs. It ends when the client cancels it or its connection closes, or with a {@code complete}
 * result through {@link #endListens}. See {@link Builder#maxListens} and {@link
 * Builder#maxResourceSubscriptionsPerListen} for the limits.
 *
 * <p><b>Logging.</b> Each session has its own level (set by {@code logging/setLevel}; {@link
 * Builder#defaultLogLevel} until then) and its own rate limit ({@link Builder#logRateLimit}). A
 * log written through a handler's {@link RequestContext} goes to that handler's session only;
 * {@link #log} goes to every session that admits it, one write per session.
 *
 * <p>Thread-safe.
 */
public final class McpServer {
  final Implementation info;
  final @Nullable String instructions;
  final LoggingLevel defaultLogLevel;
  final Ticker ticker;
  final Scheduler scheduler;
  final int maxInFlight;
  final Duration progressInterval;
  final Duration drainGrace;
  final CallOptions reverseCallOptions;
  final long listChangedDebounceNanos;

  /**
   * The application's mapper ({@link Builder#jsonMapper}), or null for Herald's own, which is
   * built only when a typed or annotated entry first needs it (not at start-up).
   */
  private final @Nullable JsonMapper customMapper;

  /** Binds typed and annotated tools' arguments and writes their results ({@link Builder#jsonMapper}). */
  JsonMapper jsonMapper() {
    return customMapper != null ? customMapper : McpJson.mapper();
  }

  final double logsPerSecond;
  final int logBurst;
  final boolean toolsListChanged;
  final Set<ServerSession> sessions = ConcurrentHashMap.newKeySet();
  private final Debouncer[] changes = new Debouncer[CatalogArea.values().length];

  /** One bit per {@link CatalogArea}: the server's layer changed since the listens were told. */
  private volatile int serverChanged;

  private static final VarHandle SERVER_CHANGED;

  static {
    try {
      SERVER_CHANGED =
          MethodHandles.lookup().findVarHandle(McpServer.class, "serverChanged", int.class);
    } catch (ReflectiveOperationException e) {
      throw new ExceptionInInitializerError(e);
    }
  }

  // The server's layer of each catalog; every session sees it under its own (ServerSession).
  // A change here is announced to every session (catalogChanged).
  final Catalog<RegisteredTool> tools;
  final Catalog<ResourceCatalog.StaticEntry> resourceLayer;
  final Catalog<ResourceCatalog.TemplateEntry> templateLayer;
  final Catalog<PromptCatalog.Entry> promptLayer;
  // The same layers as a session without entries of its own sees them (ServerSession).
  final LayeredCatalog<RegisteredTool> toolsView;
  final LayeredCatalog<ResourceCatalog.StaticEntry> resourcesView;
  final LayeredCatalog<ResourceCatalog.TemplateEntry> templatesView;
  final LayeredCatalog<PromptCatalog.Entry> promptsView;
  final ResourceCatalog resourceCatalog;
  final PromptCatalog promptCatalog;
  final Completions completions = new Completions();
  final Subscriptions subscriptions;

  /** Open {@code subscriptions/listen} subscriptions (2026-07-28), across sessions. */
  final Listens listens;

  final int maxResourceSubscriptionsPerListen;
  final BiPredicate<ServerSession, String> resourceAccess;
  final Pagination pagination;

  /** The method table and interceptor chain every session's requests run through. */
  final MethodTable<ServerSession> methods;

  /** The interceptors, whose {@link Interceptor#sending} sees the sessions' requests to clients. */
  final List<Interceptor<ServerSession>> interceptors;

  final EventListener.Factory eventListeners;

  /** Which protocol eras this server answers. */
  final ServedEras eras;

  /** Seals and opens the {@code requestState} of input rounds (2026-07-28). */
  final RequestStateCodec requestStates;

  /** Tasks running on this server and the store that keeps them (both eras). */
  final TaskRuntime taskRuntime;

  /** The scopes each entry requires ({@link Builder#toolScopes}). */
  final EntryScopes scopes;

  /** The caching hint of each area, for stateless results ({@link StatelessResults}). */
  private final java.util.EnumMap<CacheArea, CacheHint> cacheHints;

  /** {@code capabilities.extensions} declared to stateless clients, by identifier; may be empty. */
  private final java.util.Map<String, ObjectNode> extensions;

  /** {@link #info} as JSON, for {@code _meta["io.modelcontextprotocol/serverInfo"]}. */
  private final ObjectNode infoTree;

  // What each session keeps from its initialize, shared between sessions while it is equal
  // (heap per idle session, docs/benchmarks.md): see LifecycleMethods.initialize.
  final Canonical<ServerCapabilities> declaredCapabilities = new Canonical<>();
  final Canonical<dev.herald.wire.ClientCapabilities> clientCapabilities = new Canonical<>();
  final Canonical<Implementation> clientInfos = new Canonical<>();

  static {
    dev.herald.internal.server.ClusterAccess.register(new ClusterSupport());
  }

  /** Told of server-wide notifications started here (a cluster shares them); or null. */
  volatile dev.herald.internal.server.@Nullable ServerWideListener serverWide;

  private McpServer(Builder b) {
    this.eras = b.eras;
    this.scopes = b.scopes.build();
    this.requestStates = new RequestStateCodec(b.requestState);
    this.cacheHints = new java.util.EnumMap<>(b.cacheHints);
    this.extensions = java.util.Collections.unmodifiableMap(new LinkedHashMap<>(b.extensions));
    this.infoTree = (ObjectNode) McpJson.toTree(b.info);
    this.info = b.info;
    this.instructions = b.instructions;
    this.defaultLogLevel = b.defaultLogLevel;
    this.ticker = b.ticker;
    this.scheduler = b.scheduler;
    this.maxInFlight = b.maxInFlight;
    this.progressInterval = b.progressInterval;
    this.drainGrace = b.drainGrace;
    this.reverseCallOptions = b.reverseCallOptions;
    this.listChangedDebounceNanos = b.listChangedDebounce.toNanos();
    this.customMapper = b.jsonMapper;
    this.logsPerSecond = b.logsPerSecond;
    this.logBurst = b.logBurst;
    this.toolsListChanged = b.toolsListChanged;
    Catalog.Audience everySession = this::catalogChanged;
    this.tools = new Catalog<>(RegisteredTool.TOOLS, everySession, b.tools.values());
    this.resourceLayer =
        new Catalog<>(ResourceCatalog.RESOURCES, everySession, b.resources.values());
    this.templateLayer =
        new Catalog<>(ResourceCatalog.TEMPLATES, everySession, b.templates.values());
    this.promptLayer = new Catalog<>(PromptCatalog.PROMPTS, everySession, b.prompts.values());
    this.toolsView = LayeredCatalog.shared(tools);
    this.resourcesView = LayeredCatalog.shared(resourceLayer);
    this.templatesView = LayeredCatalog.shared(templateLayer);
    this.promptsView = LayeredCatalog.shared(promptLayer);
    this.resourceCatalog = new ResourceCatalog(resourceLayer, templateLayer);
    this.promptCatalog = new PromptCatalog(promptLayer);
    for (CatalogArea area : CatalogArea.values()) {
      changes[area.ordinal()] =
          new Debouncer(scheduler, listChangedDebounceNanos, () -> flush(area));
    }
    this.subscriptions = new Subscriptions(b.maxSubscriptionsPerSession);
    this.listens = new Listens(b.maxListens);
    this.maxResourceSubscriptionsPerListen = b.maxResourceSubscriptionsPerListen;
    this.resourceAccess = b.resourceAccess;
    this.pagination = new Pagination(b.pageSize);
    this.methods = ServerMethods.table(b.interceptors);
    this.interceptors = List.copyOf(b.interceptors);
    this.eventListeners = b.eventListeners;
    this.taskRuntime = new TaskRuntime(b.tasks, b.scheduler);
    taskRuntime.observe(t -> LegacyTasks.onChange(this, t));
    taskRuntime.observe(listens::taskChanged); // 2026-07-28 notifications/tasks
    b.features.forEach(f -> f.accept(this));
  }

  /** A new builder. */
  public static Builder builder() {
    return new Builder();
  }

  /** Which protocol eras this server answers ({@link Builder#eras}). */
  public ServedEras eras() {
    return eras;
  }

  /** The server's {@code serverInfo}. */
  public Implementation info() {
    return info;
  }

  /** A fresh copy of {@code serverInfo} as JSON (a result's {@code _meta} may be changed later). */
  ObjectNode infoTree() {
    return infoTree.deepCopy();
  }

  /** The caching hint of {@code area} ({@link Builder#cacheHint}). */
  CacheHint cacheHint(CacheArea area) {
    return cacheHints.getOrDefault(area, CacheHint.DEFAULT);
  }

  /**
   * What {@link #statelessCapabilities()} answers now, for the capability gate of every stateless
   * request: made again only when what it depends on changed (the tool catalog's snapshot, or
   * whether the resource, prompt and completion catalogs are empty), not per request. Shared
   * between requests, so it is only read (tested), never handed out.
   */
  @SuppressWarnings("ReferenceEquality") // a snapshot's identity changes with every change
  ServerCapabilities statelessCapabilitiesForGate() {
    StatelessDeclaration d = statelessDeclaration;
    Catalog.Snapshot<RegisteredTool> t = tools.snapshot();
    boolean r = resourceCatalog.isEmpty();
    boolean p = promptCatalog.isEmpty();
    boolean c = completions.isEmpty();
    if (d == null
        || d.tools != t
        || d.noResources != r
        || d.noPrompts != p
        || d.noCompletions != c) {
      d = new StatelessDeclaration(t, r, p, c, statelessCapabilities());
      statelessDeclaration = d;
    }
    return d.capabilities;
  }

  /** {@link #statelessCapabilitiesForGate}'s last answer and what it was made from. */
  private record StatelessDeclaration(
      Catalog.Snapshot<RegisteredTool> tools,
      boolean noResources,
      boolean noPrompts,
      boolean noCompletions,
      ServerCapabilities capabilities) {}

  private volatile @Nullable StatelessDeclaration statelessDeclaration;

  /**
   * What this server declares to a stateless (2026-07-28) client, in {@code server/discover}:
   * {@link #capabilities()} without the members that exist only in the handshake era ({@code
   * tasks}; the 2026-07-28 tasks are an extension), with {@code extensions} when any were declared
   * ({@link Builder#extension}), and {@code extensions["io.modelcontextprotocol/tasks"] = {}} while
   * any tool may run as a task (its {@link Tool#taskSupport()} is not forbidden).
   */
  public ServerCapabilities statelessCapabilities() {
    ServerCapabilities c = capabilities();
    ObjectNode ext = null;
    if (!extensions.isEmpty()) {
      ext = McpJson.object();
      for (var e : extensions.entrySet()) {
        ext.set(e.getKey(), e.getValue().deepCopy());
      }
    }
    if (ModernTasks.offered(this)) {
      ext = ext == null ? McpJson.object() : ext;
      if (!ext.has(dev.herald.wire.TasksExtension.ID)) {
        ext.putObject(dev.herald.wire.TasksExtension.ID);
      }
    }
    return new ServerCapabilities(
        c.experimental(),
        c.logging(),
        c.completions(),
        c.prompts(),
        c.resources(),
        c.tools(),
        null,
        ext);
  }

  /**
   * What this server declares in an {@code initialize} answer received now: {@code logging},
   * {@code tools} (with {@code listChanged} per {@link Builder#toolsListChanged}), and {@code
   * resources: {subscribe, listChanged}}, {@code prompts: {listChanged}} and {@code completions}
   * only while the resource catalog, the prompt catalog or the completion handlers have entries,
   * and {@code tasks: {list, cancel, requests: {tools: {call}}}} (MCP 2025-11-25
   * basic/utilities/tasks) only while some tool's {@link Tool#taskSupport()} is optional or
   * required.
   * Each session's gate captures this once, at its {@code initialize}, and keeps it for the
   * session's lifetime ({@link ServerSession#serverCapabilities()}).
   */
  public ServerCapabilities capabilities() {
    return new ServerCapabilities(
        null,
        McpJson.object(),
        ServerFeatures.completionsCapability(this),
        ServerFeatures.promptsCapability(this),
        ServerFeatures.resourcesCapability(this),
        new ServerCapabilities.ListChanged(toolsListChanged),
        LegacyTasks.capability(this),
        null);
  }

  /**
   * Serves one connection: starts a session on the transport and returns it at once. The session
   * ends when the transport closes or {@link ServerSession#close()} is called.
   */
  public ServerSession connect(Transport transport) {
    return connect(transport, false);
  }

  /**
   * Serves one connection that carries stateless (2026-07-28) requests only, such as the one
   * request of a 2026-07-28 HTTP POST (MCP 2026-07-28 basic/transports/streamable-http): every
   * request on it is validated as a stateless request, so one without a protocol version in its
   * {@code _meta} is -32602 (missing required field) instead of a handshake-era "send initialize
   * first", and {@code initialize} is never served on it. Otherwise as {@link #connect}.
   */
  public ServerSession connectStateless(Transport transport) {
    return connect(transport, true);
  }

  private ServerSession connect(Transport transport, boolean statelessOnly) {
    ServerSession session = new ServerSession(this, transport, statelessOnly);
    sessions.add(session);
    // A close action, not a whenComplete (which keeps a dependent future and its node per session).
    session.engine().onClose(() -> forget(session));
    session.start();
    return session;
  }

  /** What the server lets go of when a session closes; each step runs even if one before fails. */
  private void forget(ServerSession session) {
    try {
      taskRuntime.sessionClosed(session);
    } finally {
      try {
        subscriptions.drop(session);
      } finally {
        sessions.remove(session);
      }
    }
  }

  /**
   * Serves this process's stdin and stdout and blocks until the client closes stdin.
   *
   * @throws InterruptedException if the calling thread is interrupted while serving
   */
  public void serveStdio() throws InterruptedException {
    ServerSession session = connect(StdioTransport.ofSystem());
    try {
      session.engine().closed().get();
    } catch (java.util.concurrent.ExecutionException e) {
      throw new IllegalStateException(e.getCause());
    }
  }

  /**
   * Ends what the server runs beyond its sessions: running tasks are cancelled and the task store
   * is closed (MCP 2025-11-25 basic/utilities/tasks). Sessions are not closed; close them (or the
   * transport that serves them) too. Idempotent.
   */
  public void close() {
    taskRuntime.close();
  }

  /** Live sessions. */
  public List<ServerSession> sessions() {
    return List.copyOf(sessions);
  }

  /**
   * The OAuth scopes a request needs, as {@link Builder#toolScopes}, {@link
   * Builder#resourceScopes} and {@link Builder#promptScopes} declared them: those of the tool a
   * {@code tools/call} names, of the prompt a {@code prompts/get} names, or of the resource or
   * template the uri of a {@code resources/read} or {@code resources/subscribe} resolves to in the
   * server's catalog, or of the prompt or template a {@code completion/complete} completes; empty for every other request. An HTTP endpoint with authorization asks it
   * before a request reaches a session, to answer {@code 403 insufficient_scope} (MCP
   * 2025-11-25 basic/authorization, "Scope Challenge Handling"); the method table asks it again
   * before the handler runs.
   *
   * @param params the request's params, or {@code null}
   */
  public Set<String> requiredScopes(
      String method, tools.jackson.databind.@Nullable JsonNode params) {
    return scopes.required(method, params, resourceCatalog::resolve);
  }

  /** The server-wide tools, sorted by name (a session may see more: {@link ServerSession#tools}). */
  public List<Tool> tools() {
    return tools.list().stream().map(RegisteredTool::tool).toList();
  }

  /**
   * The server-wide tool named {@code name}, or null (a lookup, without listing every tool: the
   * stateless request path asks it on every {@code tools/call}).
   */
  public @Nullable Tool tool(String name) {
    RegisteredTool t = tools.get(name);
    return t == null ? null : t.tool();
  }

  /**
   * Adds or replaces a tool at run time. Each session whose gate is open is sent one {@code
   * notifications/tools/list_changed} per burst of changes.
   *
   * @throws IllegalArgumentException if the tool's schemas cannot be compiled
   */
  public void addTool(Tool tool, ToolHandler handler) {
    tools.put(RegisteredTool.raw(tool, handler));
  }

  /**
   * Adds or replaces a typed tool at run time; see {@link Builder#tool(String, String, Class,
   * TypedToolHandler)}.
   *
   * @throws IllegalArgumentException if no schema can be derived from {@code argsRecord}
   */
  public <R extends Record> void addTool(
      String name, String description, Class<R> argsRecord, TypedToolHandler<R> handler) {
    tools.put(RegisteredTool.typed(name, description, argsRecord, handler, jsonMapper()));
  }

  /**
   * Removes a tool at run time, with the same notification as {@link #addTool}.
   *
   * @return false if there was no tool by that name
   */
  public boolean removeTool(String name) {
    return tools.remove(name);
  }

  /**
   * Sends a log message to every session whose gate admits it (level, rate limit, state), one
   * write per session. Strings are stripped of control characters, but <b>never log secrets,
   * credentials, personal data or attack-useful internals</b>: Herald cannot recognise them.
   *
   * @param logger a logger name, or {@code null}
   * @param data any value Jackson can turn into JSON
   */
  public void log(LoggingLevel level, @Nullable String logger, Object data) {
    var wide = serverWide;
    if (wide != null) {
      ObjectNode params =
          Objects.requireNonNull(
              McpJson.toObject(ServerSession.logParams(level, logger, data)), "log params");
      wide.logged(level, params);
      applyLog(level, params);
      return;
    }
    Supplier<EncodedMessage> shared =
        encodeOnce(() ->
            new JsonRpcMessage.Notification(
                McpMethods.MESSAGE,
                McpJson.toObject(ServerSession.logParams(level, logger, data))));
    for (ServerSession s : sessions) {
      s.log(level, shared);
    }
  }

  /** A server-wide log with its params made: to this node's sessions only. */
  void applyLog(LoggingLevel level, ObjectNode params) {
    Supplier<EncodedMessage> shared =
        encodeOnce(() -> new JsonRpcMessage.Notification(McpMethods.MESSAGE, params));
    FanOut.run(() -> {
      for (ServerSession s : sessions) {
        s.log(level, shared);
      }
    });
  }

  static JsonRpcMessage resourceUpdatedMessage(String uri) {
    return new JsonRpcMessage.Notification(
        McpMethods.RESOURCES_UPDATED, McpJson.toObject(ResourceUpdatedParams.of(uri)));
  }

  /**
   * The message {@code make} builds, encoded on the first call and the same bytes on every later
   * one: a fan-out encodes once, and not at all when no session's gate admits it. For the one
   * thread that runs the fan-out loop (not thread-safe).
   */
  private static Supplier<EncodedMessage> encodeOnce(Supplier<JsonRpcMessage> make) {
    return new Supplier<>() {
      private @Nullable EncodedMessage encoded;

      @Override
      public EncodedMessage get() {
        EncodedMessage e = encoded;
        if (e == null) {
          e = EncodedMessage.of(make.get());
          encoded = e;
        }
        return e;
      }
    };
  }

  /**
   * The resources and resource templates; changes made through it send {@code
   * resources/list_changed} (coalesced like tool changes) to every session that may be told.
   */
  public ResourceCatalog resources() {
    return resourceCatalog;
  }

  /**
   * The prompts; changes made through it send {@code prompts/list_changed} (coalesced like tool
   * changes) to every session that may be told.
   */
  public PromptCatalog prompts() {
    return promptCatalog;
  }

  /**
   * Tells the sessions subscribed to {@code uri} (and only those) that it changed: one {@code
   * notifications/resources/updated} per subscribed session whose gate is open, and one, tagged
   * with its subscription id, per {@code subscriptions/listen} subscription that holds {@code uri}
   * (an update not yet written to a listen absorbs the next one for the same uri). Returns how
   * many sessions and listens were told.
   */
  public int notifyResourceUpdated(String uri) {
    Objects.requireNonNull(uri, "uri");
    var wide = serverWide;
    if (wide != null) {
      wide.resourceUpdated(uri);
    }
    return applyResourceUpdated(uri);
  }

  /** A resource update: to this node's subscribers and listens only. */
  int applyResourceUpdated(String uri) {
    int[] sent = {0};
    Supplier<EncodedMessage> shared = encodeOnce(() -> resourceUpdatedMessage(uri));
    FanOut.run(() -> {
      for (ServerSession s : subscriptions.subscribers(uri)) {
        if (s.resourceUpdated(uri, shared)) {
          sent[0]++;
        }
      }
    });
    return sent[0] + listens.resourceUpdated(uri);
  }

  /**
   * The audience of the server's catalog layers: one of them changed, so mark every session and
   * flush after the debounce.
   */
  void catalogChanged(CatalogArea area) {
    var wide = serverWide;
    if (wide != null) {
      wide.listChanged(area.name().toLowerCase(java.util.Locale.ROOT));
    }
    applyCatalogChanged(area);
  }

  /** A catalog change: this node's sessions are marked and told after the debounce. */
  void applyCatalogChanged(CatalogArea area) {
    for (ServerSession s : sessions) {
      s.markDirty(area);
    }
    SERVER_CHANGED.getAndBitwiseOr(this, 1 << area.ordinal());
    changes[area.ordinal()].trigger();
  }

  /**
   * A session's own layer changed (the session is already marked): it is told by the same
   * debounce as a server-wide change, so a session never hears more than one leading and one
   * trailing notification per window, whichever layer changed.
   */
  void sessionCatalogChanged(CatalogArea area) {
    changes[area.ordinal()].trigger();
  }

  /**
   * Tells every marked session (an unmarked one only costs a read) and, after a server-wide
   * change, the open listens. Runs on the thread of a burst's first change, and on the timer for
   * the rest of the burst.
   */
  private void flush(CatalogArea area) {
    FanOut.run(() -> { // a cluster's transport stores the sessions' events in one go
      for (ServerSession s : sessions) {
        s.flushListChanged(area);
      }
    });
    int bit = 1 << area.ordinal();
    if ((serverChanged & bit) != 0
        && ((int) SERVER_CHANGED.getAndBitwiseAnd(this, ~bit) & bit) != 0) {
      listens.listChanged(area);
    }
  }

  /**
   * Ends every open {@code subscriptions/listen} subscription (MCP 2026-07-28
   * basic/patterns/subscriptions) gracefully: each writes what is still pending, then answers its
   * listen request with {@code {"resultType":"complete","_meta":{"io.modelcontextprotocol/subscriptionId":
   * <id>}}}, and the client may listen again. Call it before shutting a server down. Returns at
   * once; the listens end on their own threads.
   *
   * @return how many listens were asked to end
   */
  public int endListens() {
    return listens.end(filter -> true);
  }

  /**
   * Ends, as {@link #endListens()} does, the listens whose acknowledged filter matches {@code
   * which}: for example those subscribed to a resource that is gone, {@code
   * endListens(f -> f.resourceSubscriptionsOrEmpty().contains(uri))}.
   *
   * @return how many listens were asked to end
   */
  public int endListens(Predicate<SubscriptionFilter> which) {
    return listens.end(Objects.requireNonNull(which, "which"));
  }

  /** How many {@code subscriptions/listen} subscriptions are open, across all sessions. */
  public int activeListens() {
    return listens.size();
  }

  /**
   * Builds an {@link McpServer}. Not thread-safe; {@link #build()} may be called more than once.
   */
  public static final class Builder {
    /**
     * Prefix labels (letter first, letter or digit last), a slash, then a name (2026-07-28
     * basic/index "_meta"). In a holder class: compiled when an extension is first declared, not
     * by every builder (milliseconds of a cold process before a stdio server's first answer).
     */
    private static final class ExtensionId {
      static final java.util.regex.Pattern PATTERN =
          java.util.regex.Pattern.compile(
              "[A-Za-z](?:[A-Za-z0-9-]*[A-Za-z0-9])?(?:\\.[A-Za-z](?:[A-Za-z0-9-]*[A-Za-z0-9])?)*"
                  + "/[A-Za-z0-9](?:[A-Za-z0-9._-]*[A-Za-z0-9])?");

      private ExtensionId() {}
    }

    private Implementation info = Implementation.of("herald-server", "0.1.0");
    private @Nullable String instructions;
    private LoggingLevel defaultLogLevel = LoggingLevel.INFO;
    private Ticker ticker = Ticker.system();
    private Scheduler scheduler = Scheduler.system();
    private int maxInFlight = 256;
    private Duration progressInterval = Duration.ofMillis(50);
    private Duration drainGrace = Duration.ofSeconds(2);
    private CallOptions reverseCallOptions =
        CallOptions.builder().timeout(CallOptions.DEFAULT_TIMEOUT).build();
    private Duration listChangedDebounce = Duration.ofMillis(10);
    private boolean toolsListChanged = true;
    private double logsPerSecond = 100;
    private int logBurst = 100;
    private final LinkedHashMap<String, RegisteredTool> tools = new LinkedHashMap<>();
    private final List<java.util.function.Consumer<McpServer>> features =
        new java.util.ArrayList<>();
    private final LinkedHashMap<String, ResourceCatalog.StaticEntry> resources =
        new LinkedHashMap<>();
    private final LinkedHashMap<String, ResourceCatalog.TemplateEntry> templates =
        new LinkedHashMap<>();
    private final LinkedHashMap<String, PromptCatalog.Entry> prompts = new LinkedHashMap<>();
    private int maxSubscriptionsPerSession = Subscriptions.DEFAULT_MAX_PER_SESSION;
    private int maxListens = Listens.DEFAULT_MAX;
    private int maxResourceSubscriptionsPerListen = Listens.DEFAULT_MAX_RESOURCE_SUBSCRIPTIONS;
    private BiPredicate<ServerSession, String> resourceAccess = (session, uri) -> true;
    private int pageSize = Pagination.DEFAULT_PAGE_SIZE;
    private final List<Interceptor<ServerSession>> interceptors = new java.util.ArrayList<>();
    private EventListener.Factory eventListeners = EventListener.Factory.NONE;
    private ServedEras eras = ServedEras.DUAL;
    private final java.util.EnumMap<CacheArea, CacheHint> cacheHints =
        new java.util.EnumMap<>(CacheArea.class);
    private final LinkedHashMap<String, ObjectNode> extensions = new LinkedHashMap<>();
    private RequestStateSettings requestState = RequestStateSettings.defaults();
    TaskSettings tasks = TaskSettings.defaults();
    private final EntryScopes.Builder scopes = new EntryScopes.Builder();
    private @Nullable JsonMapper jsonMapper; // null: Herald's own, built when first needed

    /** The first typed or annotated entry registered, which fixed the mapper; or null. */
    private @Nullable String mapperUsedBy;

    private Builder() {}

    /** The mapper typed and annotated entries use: the application's, else Herald's own. */
    private JsonMapper mapper() {
      return jsonMapper != null ? jsonMapper : McpJson.mapper();
    }

    /**
     * The Jackson 3 mapper that binds typed and annotated tools' arguments to their records and
     * parameters, writes their record results as {@code structuredContent}, and names the
     * properties of their derived schemas (default: Herald's own, {@link McpJson#mapper()}). An
     * application's mapper brings its modules, custom serializers and deserializers, naming
     * strategy and {@code @JsonProperty} renames to its tool records; the schemas follow its
     * names, so what a tool lists is what the mapper reads. The protocol itself is always read
     * and written with Herald's own codec; hand-built tools ({@link #tool(Tool, ToolHandler)})
     * see arguments as JSON and are not affected.
     *
     * <p>Set it before registering typed or annotated tools: their schemas and bindings are made
     * when they are registered.
     *
     * {@snippet :
     * JsonMapper mapper = JsonMapper.builder()
     *     .propertyNamingStrategy(PropertyNamingStrategies.SNAKE_CASE)
     *     .build();
     * McpServer server = McpServer.builder().jsonMapper(mapper).annotated(new Weather()).build();
     * }
     *
     * @throws IllegalStateException if a typed or annotated tool was registered already (the
     *     message names it)
     * @throws NullPointerException if {@code mapper} is null
     */
    public Builder jsonMapper(JsonMapper mapper) {
      Objects.requireNonNull(mapper, "mapper");
      if (mapperUsedBy != null) {
        throw new IllegalStateException(
            "jsonMapper must be set before typed and annotated tools are registered; "
                + mapperUsedBy
                + " was registered with the mapper set before");
      }
      this.jsonMapper = mapper;
      return this;
    }

    /**
     * The OAuth scopes a caller's access token must grant to call the tool {@code name} (MCP
     * 2025-11-25 basic/authorization, "Scope Challenge Handling"). Checked only for requests that
     * carry a principal, that is on an HTTP endpoint with authorization (e.g. {@code
     * McpHttpServer.Builder#authorization}); stdio and unprotected endpoints are not affected.
     * A principal without every scope does not see the tool in {@code tools/list}, and its {@code
     * tools/call} is refused before the handler runs: on HTTP with {@code 403} and {@code
     * WWW-Authenticate: Bearer error="insufficient_scope", scope="..."} so the client can step
     * up; elsewhere with a JSON-RPC error (-32600). Applies to the tool of that name whenever it
     * is registered (here, with {@link McpServer#addTool} later, or on a session).
     *
     * {@snippet :
     * McpServer server = McpServer.builder()
     *     .tool(deleteTool, deleteHandler)
     *     .toolScopes("delete", "files:write")
     *     .build();
     * }
     *
     * @throws IllegalArgumentException if no scope is given, a scope is not an RFC 6749 scope
     *     token, or the tool's scopes were already set
     */
    public Builder toolScopes(String name, String... scopes) {
      this.scopes.tool(name, scopes);
      return this;
    }

    /**
     * The OAuth scopes needed to read or subscribe to a resource, as {@link #toolScopes} for
     * tools: {@code uriOrTemplate} is a resource's uri or a resource template's {@code
     * uriTemplate}, and guards every uri that resolves to that entry. The entry is left out of
     * {@code resources/list} (or {@code resources/templates/list}) for a principal without them.
     *
     * @throws IllegalArgumentException as {@link #toolScopes}
     */
    public Builder resourceScopes(String uriOrTemplate, String... scopes) {
      this.scopes.resource(uriOrTemplate, scopes);
      return this;
    }

    /**
     * The OAuth scopes needed to get the prompt {@code name}, as {@link #toolScopes} for tools.
     *
     * @throws IllegalArgumentException as {@link #toolScopes}
     */
    public Builder promptScopes(String name, String... scopes) {
      this.scopes.prompt(name, scopes);
      return this;
    }

    /**
     * The caching hint put on the complete results of {@code area} for stateless (2026-07-28)
     * requests (MCP 2026-07-28 server/utilities/caching): {@code ttlMs} (the client may reuse the
     * result that long) and {@code cacheScope} ({@code public}: may be shared across
     * authorization contexts, e.g. by a gateway; {@code private}: not). Every page of a list gets
     * the same hint. Default for every area: {@code ttlMs: 0}, {@code private} (fresh on every
     * use, never shared); raise it only for catalogs that change rarely, and say {@code public}
     * only if no request's authorization changes what it sees. An area with {@linkplain
     * #toolScopes scoped entries} is always {@code private} for a request that carries a
     * principal: its lists differ per principal.
     *
     * {@snippet :
     * McpServer server = McpServer.builder()
     *     .cacheHint(CacheArea.TOOLS, Duration.ofMinutes(5), CacheScope.PUBLIC)
     *     .build();
     * }
     *
     * @throws IllegalArgumentException if {@code ttl} is negative or longer than {@link
     *     Long#MAX_VALUE} milliseconds
     * @throws NullPointerException if an argument is null
     */
    public Builder cacheHint(CacheArea area, Duration ttl, CacheScope scope) {
      Objects.requireNonNull(area, "area");
      Objects.requireNonNull(scope, "scope");
      if (ttl.isNegative()) {
        throw new IllegalArgumentException(
            "cache ttl of " + area + " must not be negative, was " + ttl);
      }
      long ms;
      try {
        ms = ttl.toMillis();
      } catch (ArithmeticException e) {
        throw new IllegalArgumentException("cache ttl of " + area + " is too long: " + ttl, e);
      }
      cacheHints.put(area, new CacheHint(ms, scope));
      return this;
    }

    /**
     * Declares an extension in {@code capabilities.extensions} of {@code server/discover} (MCP
     * 2026-07-28 basic/versioning, "Extension Negotiation"). The identifier needs a prefix, e.g.
     * {@code com.example/audit}; its settings object is sent as given ({@code {}} for none).
     * Declaring is all this does: the extension's methods and behaviour are the caller's.
     *
     * @throws IllegalArgumentException if {@code id} is not a prefixed {@code _meta}-style key, or
     *     was already declared
     */
    public Builder extension(String id, ObjectNode settings) {
      Objects.requireNonNull(settings, "settings");
      if (!ExtensionId.PATTERN.matcher(Objects.requireNonNull(id, "id")).matches()) {
        throw new IllegalArgumentException(
            "extension identifier must be a prefix and a name, like com.example/name, was " + id);
      }
      if (extensions.putIfAbsent(id, settings.deepCopy()) != null) {
        throw new IllegalArgumentException("extension " + id + " was already declared");
      }
      return this;
    }

    /**
     * How tasks are kept and bounded (default {@link TaskSettings#defaults()}). They apply to the
     * tools whose {@link Tool#taskSupport()} is optional or required; a server with no such tool
     * declares no task capability.
     */
    public Builder tasks(TaskSettings settings) {
      this.tasks = java.util.Objects.requireNonNull(settings, "settings");
      return this;
    }

    /**
     * How the {@code requestState} of a 2026-07-28 {@code InputRequiredResult} is signed, bound
     * and bounded: keys (with rotation), lifetime, principal hook (default {@link
     * RequestStateSettings#defaults()}: a random per-process key, 10 minutes, bound to the party
     * of {@link RequestContext#principal()} when there is one).
     *
     * @throws NullPointerException if {@code settings} is null
     */
    public Builder requestState(RequestStateSettings settings) {
      this.requestState = java.util.Objects.requireNonNull(settings, "settings");
      return this;
    }

    /**
     * Which protocol eras this server answers (default {@link ServedEras#DUAL}: the 2026-07-28
     * stateless era and the handshake era, on one endpoint or pipe).
     *
     * @throws NullPointerException if {@code eras} is null
     */
    public Builder eras(ServedEras eras) {
      this.eras = java.util.Objects.requireNonNull(eras, "eras");
      return this;
    }

    /**
     * Adds an interceptor that every request of every session runs through, after the ones added
     * before it and before Herald's own gates (method and protocol version, lifecycle, declared
     * capability) and the method's handler; see {@link Interceptor} for the contract. Use it for
     * audit logs, rate limits or authorization. Its {@link Interceptor#sending} also sees every
     * request a session sends to its client (sampling, elicitation, roots, ping), and may add
     * {@code _meta} entries to it (trace context). Default: none.
     *
     * {@snippet :
     * McpServer server = McpServer.builder()
     *     .interceptor(chain -> {
     *       if (chain.method().equals("tools/call") && !allowed(chain.session())) {
     *         throw new McpException(-31001, "Forbidden"); // an application code, outside -32768..-32000
     *       }
     *       return chain.proceed();
     *     })
     *     .build();
     * }
     */
    public Builder interceptor(Interceptor<ServerSession> interceptor) {
      interceptors.add(Objects.requireNonNull(interceptor, "interceptor"));
      return this;
    }

    /**
     * Makes each session's {@link EventListener}, once per session as it connects, whatever the
     * transport (default: none, {@link EventListener#NONE}). See {@link EventListener} for the
     * contract a listener keeps.
     */
    public Builder eventListenerFactory(EventListener.Factory factory) {
      this.eventListeners = Objects.requireNonNull(factory, "factory");
      return this;
    }

    /**
     * One {@link EventListener} for every session (it must be thread-safe); the same as {@link
     * #eventListenerFactory} with a factory that always returns {@code listener}.
     */
    public Builder eventListener(EventListener listener) {
      Objects.requireNonNull(listener, "listener");
      return eventListenerFactory(new OneListener(listener));
    }

    /**
     * Registers a resource. The server then declares {@code resources: {subscribe: true,
     * listChanged: true}}.
     *
     * @throws IllegalArgumentException if a resource with that uri was already registered
     */
    public Builder resource(Resource resource, ResourceHandler handler) {
      ResourceCatalog.StaticEntry e = new ResourceCatalog.StaticEntry(resource, handler);
      if (resources.putIfAbsent(e.uri(), e) != null) {
        throw new IllegalArgumentException(
            "resource " + resource.uri() + " was already registered");
      }
      return this;
    }

    /**
     * Registers a resource template (RFC 6570 level 1: {@code {name}} variables only).
     *
     * @throws IllegalArgumentException if the template is not level 1, or was already registered
     */
    public Builder resourceTemplate(ResourceTemplate template, ResourceHandler handler) {
      ResourceCatalog.TemplateEntry e = ResourceCatalog.TemplateEntry.of(template, handler);
      if (templates.putIfAbsent(e.uriTemplate(), e) != null) {
        throw new IllegalArgumentException(
            "resource template " + template.uriTemplate() + " was already registered");
      }
      return this;
    }

    /**
     * Registers a prompt. The server then declares {@code prompts: {listChanged: true}}.
     *
     * @throws IllegalArgumentException if a prompt with that name was already registered
     */
    public Builder prompt(Prompt prompt, PromptHandler handler) {
      PromptCatalog.Entry e = new PromptCatalog.Entry(prompt, handler);
      if (prompts.putIfAbsent(e.name(), e) != null) {
        throw new IllegalArgumentException("prompt " + prompt.name() + " was already registered");
      }
      return this;
    }

    /**
     * Registers the completion handler for a prompt's arguments ({@code PromptReference.of(name)})
     * or a resource template's variables ({@code ResourceTemplateReference.of(uriTemplate)}). The
     * server then declares {@code completions: {}}.
     *
     * @throws NullPointerException if {@code ref} or {@code handler} is null
     */
    public Builder completion(CompletionReference ref, CompletionHandler handler) {
      Objects.requireNonNull(ref, "ref");
      Objects.requireNonNull(handler, "handler");
      features.add(s -> s.completions.put(ref, handler));
      return this;
    }

    /**
     * Decides which resources a session may list, read or subscribe to (default: all). A refused
     * uri is left out of {@code resources/list} and answered exactly like an unknown one (-32002
     * "Resource not found"), so a session cannot learn that it exists. Called on the request's thread; must be fast and must not throw.
     */
    public Builder resourceAccess(BiPredicate<ServerSession, String> access) {
      this.resourceAccess = Objects.requireNonNull(access, "access");
      return this;
    }

    /**
     * Most resource subscriptions one session may hold (default 100). A {@code resources/subscribe}
     * beyond the cap is refused with a JSON-RPC error and the session keeps its subscriptions.
     *
     * @throws IllegalArgumentException if less than 1
     */
    public Builder maxSubscriptionsPerSession(int max) {
      if (max < 1) {
        throw new IllegalArgumentException(
            "maxSubscriptionsPerSession must be at least 1, was " + max);
      }
      this.maxSubscriptionsPerSession = max;
      return this;
    }

    /**
     * Most {@code subscriptions/listen} subscriptions (2026-07-28) open at once, across all
     * sessions and connections (default 1000). One more is refused with a JSON-RPC error (-32000,
     * {@code data.limit}) before anything is sent on it; the open ones are unaffected. On one
     * connection (a stdio pipe) each open listen is also one of its {@link #maxInFlight} requests.
     *
     * @throws IllegalArgumentException if less than 1
     */
    public Builder maxListens(int max) {
      if (max < 1) {
        throw new IllegalArgumentException("maxListens must be at least 1, was " + max);
      }
      this.maxListens = max;
      return this;
    }

    /**
     * Most distinct {@code resourceSubscriptions} one {@code subscriptions/listen} may name
     * (default 100). A listen naming more is refused with -32602 before anything is sent on it.
     *
     * @throws IllegalArgumentException if less than 1
     */
    public Builder maxResourceSubscriptionsPerListen(int max) {
      if (max < 1) {
        throw new IllegalArgumentException(
            "maxResourceSubscriptionsPerListen must be at least 1, was " + max);
      }
      this.maxResourceSubscriptionsPerListen = max;
      return this;
    }

    /**
     * Items per page of every list method (default 50); longer lists are paginated with signed
     * cursors.
     *
     * @throws IllegalArgumentException if less than 1
     */
    public Builder pageSize(int size) {
      if (size < 1) {
        throw new IllegalArgumentException("pageSize must be at least 1, was " + size);
      }
      this.pageSize = size;
      return this;
    }

    /** The {@code serverInfo} name and version (default {@code herald-server} {@code 0.1.0}). */
    public Builder info(String name, String version) {
      this.info = Implementation.of(name, version);
      return this;
    }

    /**
     * The {@code serverInfo} (default {@code herald-server} {@code 0.1.0}).
     *
     * @throws NullPointerException if {@code info} is null
     */
    public Builder info(Implementation info) {
      this.info = Objects.requireNonNull(info, "info");
      return this;
    }

    /** The {@code instructions} sent in every {@code initialize} answer (default: none, the field is left out). */
    public Builder instructions(String instructions) {
      this.instructions = instructions;
      return this;
    }

    /**
     * The level every session starts at until it sends {@code logging/setLevel} (default {@code
     * info}: {@code debug} messages are not sent unless a client asks for them).
     */
    public Builder defaultLogLevel(LoggingLevel level) {
      this.defaultLogLevel = Objects.requireNonNull(level, "level");
      return this;
    }

    /**
     * Each session's log budget: a token bucket of {@code burst} messages refilled at {@code
     * perSecond} (default 100 per second, burst 100). Messages over budget are dropped and
     * reported to the session's {@link EventListener} ({@link EventListener.DropReason#RATE_LIMITED}).
     *
     * @throws IllegalArgumentException if {@code perSecond} is not positive and finite or {@code
     *     burst} is less than 1
     */
    public Builder logRateLimit(double perSecond, int burst) {
      if (!(perSecond > 0) || Double.isInfinite(perSecond)) {
        throw new IllegalArgumentException(
            "log rate must be positive and finite, was " + perSecond);
      }
      if (burst < 1) {
        throw new IllegalArgumentException("log burst must be at least 1, was " + burst);
      }
      this.logsPerSecond = perSecond;
      this.logBurst = burst;
      return this;
    }

    /**
     * Whether to declare {@code tools.listChanged} (default true). When false, no session is ever
     * sent {@code notifications/tools/list_changed}, whatever changes.
     */
    public Builder toolsListChanged(boolean declare) {
      this.toolsListChanged = declare;
      return this;
    }

    /**
     * The window that coalesces a burst of list changes (default 10 ms), measured on the {@link
     * #scheduler}. The first change of a burst is announced at once, on the thread that made it;
     * changes inside the window that follows are gathered, and each session whose area changed
     * after that first announcement is told once more when the window closes (which opens the
     * next window). A single change thus costs no delay, a burst inside one window gives each
     * session at most two notifications per area, and a change after a quiet window is again
     * announced at once. {@link Duration#ZERO} announces every change.
     *
     * @throws IllegalArgumentException if negative
     */
    public Builder listChangedDebounce(Duration debounce) {
      if (debounce.isNegative()) {
        throw new IllegalArgumentException(
            "listChangedDebounce must not be negative, was " + debounce);
      }
      this.listChangedDebounce = debounce;
      return this;
    }

    /**
     * Registers a tool with a raw handler (arguments as an {@code ObjectNode}). Its schemas are
     * compiled now.
     *
     * @throws IllegalArgumentException if a tool with that name was already registered, or a
     *     schema cannot be compiled
     */
    public Builder tool(Tool tool, ToolHandler handler) {
      return add(RegisteredTool.raw(tool, handler));
    }

    /**
     * Registers a tool that may run as a task ({@link Tool#taskSupport()} optional or required),
     * saying when a call of it becomes one; {@link #tool(Tool, ToolHandler)} means {@link
     * TaskStart#AT_ONCE}.
     *
     * @throws IllegalArgumentException as {@link #tool(Tool, ToolHandler)}, or if the tool's task
     *     support is forbidden
     */
    public Builder tool(Tool tool, TaskStart start, ToolHandler handler) {
      java.util.Objects.requireNonNull(start, "start");
      if (tool.taskSupport() == dev.herald.wire.TaskSupport.FORBIDDEN) {
        throw new IllegalArgumentException(
            "tool " + tool.name() + " never runs as a task: its taskSupport is forbidden");
      }
      return add(RegisteredTool.raw(tool, handler).startingTasks(start));
    }

    /**
     * Registers a typed tool: the arguments are a record, the input schema is derived from it.
     * See {@link TypedToolHandler} for exactly what this adds over {@link #tool(Tool,
     * ToolHandler)}.
     *
     * <p>Each record component becomes a property. Supported component types: {@code String},
     * {@code int}/{@code long} (and the other integral types and {@code BigInteger}) as {@code
     * integer}, {@code double}/{@code float}/{@code BigDecimal} as {@code number}, {@code
     * boolean}, enums (by constant name), {@code List}/{@code Set} and arrays, {@code Map<String,
     * T>}, and nested records. Components are required unless {@code Optional<T>} or annotated
     * {@code @Nullable}; unknown properties are refused.
     *
     * @throws IllegalArgumentException if a tool with that name was already registered, or a
     *     component's type is not supported (the message names it)
     */
    public <R extends Record> Builder tool(
        String name, String description, Class<R> argsRecord, TypedToolHandler<R> handler) {
      mapperUsedBy = mapperUsedBy == null ? "typed tool " + name : mapperUsedBy;
      return add(RegisteredTool.typed(name, description, argsRecord, handler, mapper()));
    }

    /**
     * Registers the tools, prompts, resources and resource templates declared by annotated
     * methods of {@code beans} ({@link dev.herald.server.annotation.McpTool}, {@link
     * dev.herald.server.annotation.McpPrompt}, {@link dev.herald.server.annotation.McpResource},
     * {@link dev.herald.server.annotation.McpResourceTemplate}; see each for how parameters and
     * results map). Every object is read now, and every mistake in them is reported at once.
     *
     * {@snippet :
     * McpServer server = McpServer.builder().annotated(new Weather(), new Greetings()).build();
     * }
     *
     * @throws IllegalArgumentException listing each problem as {@code Class.method: reason} (an
     *     unsupported parameter or return type, a missing parameter name, two context parameters,
     *     a template variable without a parameter, a non-public method, a name declared twice or
     *     already registered, an object with no annotated method...)
     * @throws NullPointerException if a bean is null
     */
    public Builder annotated(Object... beans) {
      if (mapperUsedBy == null && beans.length > 0) {
        mapperUsedBy = "annotated " + beans[0].getClass().getName();
      }
      AnnotatedEntries.scan(mapper(), beans).registerOn(this);
      return this;
    }

    private Builder add(RegisteredTool t) {
      if (tools.putIfAbsent(t.name(), t) != null) {
        throw new IllegalArgumentException("tool " + t.name() + " was already registered");
      }
      return this;
    }

    /** The clock for rate limits and call timeouts (default {@link Ticker#system()}). */
    public Builder ticker(Ticker ticker) {
      this.ticker = Objects.requireNonNull(ticker);
      return this;
    }

    /** The timer for debounces, progress cadence and timeouts (default {@link Scheduler#system()}). */
    public Builder scheduler(Scheduler scheduler) {
      this.scheduler = Objects.requireNonNull(scheduler);
      return this;
    }

    /**
     * Most requests one session may have in flight (default 256).
     *
     * @throws IllegalArgumentException if less than 1
     */
    public Builder maxInFlight(int max) {
      if (max < 1) {
        throw new IllegalArgumentException("maxInFlight must be at least 1, was " + max);
      }
      this.maxInFlight = max;
      return this;
    }

    /**
     * Cadence of progress notifications per request (default 50 ms); ZERO sends every update.
     *
     * @throws IllegalArgumentException if negative
     */
    public Builder progressInterval(Duration interval) {
      if (interval.isNegative()) {
        throw new IllegalArgumentException("progressInterval must not be negative");
      }
      this.progressInterval = interval;
      return this;
    }

    /**
     * How long requests already read may still run, so that their answers go out, after the client
     * closed its side in an orderly way (stdin's end on stdio); they are cancelled when it runs out
     * (default 2 s; ZERO cancels them at once). Open-ended requests ({@code subscriptions/listen})
     * have no answer to wait for and end at once.
     *
     * @throws IllegalArgumentException if negative
     */
    public Builder drainGrace(Duration grace) {
      if (grace.isNegative()) {
        throw new IllegalArgumentException("drainGrace must not be negative, was " + grace);
      }
      this.drainGrace = grace;
      return this;
    }

    /**
     * Default clocks for the requests this server sends to a client ({@code sampling/createMessage},
     * {@code elicitation/create}, {@code roots/list}, {@code ping}) when the call sets none of its
     * own (default: an absolute deadline of {@link CallOptions#DEFAULT_TIMEOUT}, 10 minutes, so a
     * client can never hold a handler forever). A deadline that runs out cancels the request on
     * the wire and fails the handler's call with {@link dev.herald.session.TimeoutException}. Only
     * {@link CallOptions.Builder#noTimeout()} leaves such calls unbounded.
     *
     * @throws NullPointerException if {@code options} is null
     */
    public Builder reverseCallOptions(CallOptions options) {
      this.reverseCallOptions = java.util.Objects.requireNonNull(options, "options");
      return this;
    }

    /** A server with this builder's settings and tools. */
    public McpServer build() {
      return new McpServer(this);
    }
  }
}
