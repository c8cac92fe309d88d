package dev.herald.server;

import dev.herald.internal.session.EngineAccess;
import dev.herald.internal.session.InboundCall;
import dev.herald.internal.session.SessionEngine;
import dev.herald.session.EventListener;
import dev.herald.transport.Transport;
import dev.herald.wire.ClientCapabilities;
import dev.herald.wire.EncodedMessage;
import dev.herald.wire.Implementation;
import dev.herald.wire.LoggingLevel;
import dev.herald.wire.LoggingMessageParams;
import dev.herald.wire.McpJson;
import dev.herald.wire.McpMethods;
import dev.herald.wire.Prompt;
import dev.herald.wire.ProtocolVersion;
import dev.herald.wire.RequestId;
import dev.herald.wire.Resource;
import dev.herald.wire.ResourceTemplate;
import dev.herald.wire.ServerCapabilities;
import dev.herald.wire.Tool;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.function.Supplier;
import org.jspecify.annotations.Nullable;

/**
 * One client's session with an {@link McpServer}: its lifecycle, the capabilities both sides
 * declared at bring-up (fixed for the session), its log level, its own catalog overlay, and the gate
 * that decides which unsolicited notifications may be sent to it.
 *
 * <p><b>Routing.</b> What is sent through a session (its {@link #log log} method, list changes)
 * is unsolicited: it goes to this session only, on its standing stream. What a handler sends
 * through its {@link RequestContext} belongs to that request. Nothing is ever broadcast: the
 * server fans out by calling each session in turn.
 *
 * <p><b>Gates.</b> {@code notifications/<area>/list_changed} (tools, resources, prompts) reaches
 * the session only once it is {@link State#OPERATING} and only if the server declared {@code
 * <area>.listChanged} to it; a burst's first catalog change (server-wide or in this session's overlay)
 * is announced at once, and the rest of the burst at most once per debounce window ({@link
 * McpServer.Builder#listChangedDebounce}). {@code
 * notifications/resources/updated} needs {@code resources.subscribe} and a subscription to the
 * uri. Logs need the {@code logging} capability, a level at
 * or above the session's ({@link McpServer.Builder#defaultLogLevel} until the client sends {@code
 * logging/setLevel}) and a token from the session's rate limit; refused logs are never queued.
 * Every notification held back or dropped is reported to the session's {@link #eventListener()}.
 *
 * <p><b>Catalog overlay.</b> {@link #addTool}, {@link #resources()} and {@link #prompts()} give
 * this session tools, resources, resource templates and prompts no other session sees, on top of
 * the server's: an entry here shadows a server entry with the same name (or uri) for this session
 * only, and removing it shows the server's again.
 *
 * {@snippet :
 * ServerSession session = server.connect(transport);
 * session.addTool(Tool.builder("admin_reset").build(), call -> CallToolResult.text("done"));
 * // only this session is told: one notifications/tools/list_changed, at once
 * }
 *
 * <p>Thread-safe.
 */
public final class ServerSession {
  /** Lifecycle of a handshake-era session. */
  public enum State {
    /** Waiting for {@code initialize}. */
    NEW,
    /** {@code initialize} answered; waiting for {@code notifications/initialized}. */
    INITIALIZING,
    /** Fully up. */
    OPERATING,
    /** Ended. */
    CLOSED
  }

  private final McpServer server;
  private final SessionEngine engine;
  private final EventListener events;
  // An idle session is kept small (docs/architecture.md, "Performance we design for"): the
  // state and the dirty bits are plain volatile fields changed through VarHandles; list changes
  // are flushed by the server's debouncers (no timer or debouncer per session).
  private volatile State state = State.NEW;
  private final NotificationGate gate;
  // What this session sees of each catalog: the server's shared view until the session adds an
  // entry of its own, then a view of its own with its layer on top (own(...), through VarHandles).
  private volatile LayeredCatalog<RegisteredTool> tools;
  private volatile LayeredCatalog<ResourceCatalog.StaticEntry> resources;
  private volatile LayeredCatalog<ResourceCatalog.TemplateEntry> templates;
  private volatile LayeredCatalog<PromptCatalog.Entry> prompts;
  private volatile @Nullable ResourceCatalog
      localResources; // the front over its own layers, made on first use
  private volatile @Nullable PromptCatalog
      localPrompts; // the front over its own layer, made on first use

  /** One bit per {@link CatalogArea} (by ordinal): changed since this session's last flush. */
  private volatile int dirty;

  private static final VarHandle STATE;
  private static final VarHandle DIRTY;
  private static final VarHandle TASK_SESSION_ID;
  private static final VarHandle TOOLS;
  private static final VarHandle RESOURCES;
  private static final VarHandle TEMPLATES;
  private static final VarHandle PROMPTS;

  static {
    try {
      STATE = MethodHandles.lookup().findVarHandle(ServerSession.class, "state", State.class);
      DIRTY = MethodHandles.lookup().findVarHandle(ServerSession.class, "dirty", int.class);
      TASK_SESSION_ID =
          MethodHandles.lookup().findVarHandle(ServerSession.class, "taskSessionId", String.class);
      var lookup = MethodHandles.lookup();
      TOOLS = lookup.findVarHandle(ServerSession.class, "tools", LayeredCatalog.class);
      RESOURCES = lookup.findVarHandle(ServerSession.class, "resources", LayeredCatalog.class);
      TEMPLATES = lookup.findVarHandle(ServerSession.class, "templates", LayeredCatalog.class);
      PROMPTS = lookup.findVarHandle(ServerSession.class, "prompts", LayeredCatalog.class);
    } catch (ReflectiveOperationException e) {
      throw new ExceptionInInitializerError(e);
    }
  }

  private volatile @Nullable Implementation clientInfo;
  private volatile ClientCapabilities clientCapabilities = ClientCapabilities.none();
  private final ReverseCalls.RootsCache rootsCache = new ReverseCalls.RootsCache();

  /**
   * This session's id as a task owner (handshake era, no principal): random, never shown to the
   * client, never reused. Drawn on first use (through TASK_SESSION_ID): most sessions never
   * make a task, and an idle session is kept small.
   */
  private volatile @Nullable String taskSessionId;

  /**
   * Whether this node fans server-wide notifications out to this session (docs/scale-out.md):
   * always on a single node; in a cluster only on the node holding its standing stream.
   */
  private volatile boolean home = true;

  /** Told after each change of the state a cluster shares ({@link #clusterState}); or null. */
  private volatile @Nullable Runnable stateListener;

  /** Whether every request on this session is stateless ({@link McpServer#connectStateless}). */
  private final boolean statelessOnly;

  ServerSession(McpServer server, Transport transport, boolean statelessOnly) {
    this.server = server;
    this.statelessOnly = statelessOnly;
    this.gate = new NotificationGate(this, server);
    this.tools = server.toolsView;
    this.resources = server.resourcesView;
    this.templates = server.templatesView;
    this.prompts = server.promptsView;
    SessionEngine.Builder builder =
        SessionEngine.builder()
            .name("server")
            .transport(transport)
            .requests(call -> server.methods.dispatch(this, call));
    builder.notifications(server.methods.notificationRouter(this));
    this.engine =
        builder
            .ticker(server.ticker)
            .scheduler(server.scheduler)
            .maxInFlight(server.maxInFlight)
            .progressInterval(server.progressInterval)
            .drainGrace(server.drainGrace)
            .defaultCallOptions(server.reverseCallOptions)
            .eventListener(server.eventListeners.create(EventListener.Role.SERVER))
            .senders(server.interceptors)
            .build();
    this.events = engine.events();
    engine.onClose(() -> state = State.CLOSED);
  }

  void start() {
    engine.start();
  }

  static {
    EngineAccess.register(ServerSession.class, ServerSession::engine);
  }

  /**
   * The session engine under this session; not public (it would bypass the gates), Herald's own
   * modules reach it through {@link EngineAccess}.
   */
  SessionEngine engine() {
    return engine;
  }

  /** Whether this session carries stateless requests only ({@link McpServer#connectStateless}). */
  boolean statelessOnly() {
    return statelessOnly;
  }

  /** The server this session belongs to. */
  public McpServer server() {
    return server;
  }

  /** The session's lifecycle state. */
  public State state() {
    return state;
  }

  /**
   * The principal that created this session (MCP 2025-11-25 basic/authorization): whose access
   * token its {@code initialize} carried on an HTTP endpoint with authorization, or the one
   * request's for a stateless (2026-07-28) request. The session belongs to it: the endpoint
   * refuses this session's id to any other party ({@link dev.herald.auth.Principal#sameParty}).
   * Empty without authorization (stdio, an unprotected endpoint). A later request of the same
   * party may carry a newer token (refreshed, more scopes): {@link RequestContext#principal()}
   * is that request's.
   */
  public Optional<dev.herald.auth.Principal> principal() {
    return Optional.ofNullable(engine.owner());
  }

  /** The client's {@code clientInfo}, once {@code initialize} arrived. */
  public Optional<Implementation> clientInfo() {
    return Optional.ofNullable(clientInfo);
  }

  /** What the client declared at bring-up. */
  public ClientCapabilities clientCapabilities() {
    return clientCapabilities;
  }

  /** The negotiated protocol version, once {@code initialize} arrived. */
  public Optional<ProtocolVersion> protocolVersion() {
    return engine.version();
  }

  /**
   * The lowest level of log message this session receives: the level it set with {@code
   * logging/setLevel}, or the server's {@linkplain McpServer.Builder#defaultLogLevel default}.
   */
  public LoggingLevel logLevel() {
    return gate.logLevel();
  }

  /**
   * What the server declared to this session at bring-up, as captured by its gate ({@link
   * ServerCapabilities#none()} before {@code initialize}).
   */
  public ServerCapabilities serverCapabilities() {
    return gate.declared();
  }

  /** The resource uris this session is subscribed to. */
  public Set<String> subscriptions() {
    return server.subscriptions.of(this);
  }

  /**
   * This session's event listener, as the server's {@link McpServer.Builder#eventListenerFactory
   * factory} made it ({@link EventListener#NONE} if the server has none).
   */
  public EventListener eventListener() {
    return engine.eventListener();
  }

  /** Where Herald reports this session's events (guarded; {@link EventListener#NONE} if none). */
  EventListener events() {
    return events;
  }

  /** This session's id as the owner of its session-bound tasks. */
  String taskSessionId() {
    String id = taskSessionId;
    if (id != null) {
      return id;
    }
    String drawn = TaskIds.next();
    String won = (String) TASK_SESSION_ID.compareAndExchange(this, null, drawn);
    return won == null ? drawn : won;
  }

  /** Ends the session. */
  public void close() {
    engine.close();
  }

  /**
   * The view in {@code field} as this session's own (with an overlay it may make): the field's
   * view if it is already, else a new one in place of the server's shared view.
   */
  @SuppressWarnings("unchecked")
  private <E> LayeredCatalog<E> own(VarHandle field) {
    LayeredCatalog<E> now = (LayeredCatalog<E>) field.getVolatile(this);
    if (!now.isShared()) {
      return now;
    }
    LayeredCatalog<E> made = new LayeredCatalog<>(now.base(), this::localCatalogChanged);
    LayeredCatalog<E> witness = (LayeredCatalog<E>) field.compareAndExchange(this, now, made);
    return witness == now ? made : witness;
  }

  // ---------------------------------------------------------------- the session's tools

  /** The tools this session sees: the server's, with this session's overlay on top, by name. */
  public List<Tool> tools() {
    return tools.list().stream().map(RegisteredTool::tool).toList();
  }

  /**
   * Adds or replaces a tool seen by this session only. This session (and no other) is sent {@code
   * notifications/tools/list_changed} after the debounce, if its gate is open.
   *
   * @throws IllegalArgumentException if the tool's schemas cannot be compiled
   */
  public void addTool(Tool tool, ToolHandler handler) {
    this.<RegisteredTool>own(TOOLS).overlay().put(RegisteredTool.raw(tool, handler));
  }

  /**
   * Adds or replaces a typed tool seen by this session only; see {@link TypedToolHandler} for
   * what the typed form adds and {@link McpServer.Builder#tool(String, String, Class,
   * TypedToolHandler)} for the supported record shapes.
   *
   * @throws IllegalArgumentException if no schema can be derived from {@code argsRecord}
   */
  public <R extends Record> void addTool(
      String name, String description, Class<R> argsRecord, TypedToolHandler<R> handler) {
    this.<RegisteredTool>own(TOOLS)
        .overlay()
        .put(RegisteredTool.typed(name, description, argsRecord, handler, server().jsonMapper()));
  }

  /**
   * Removes a tool from this session's overlay (a server tool it shadowed becomes visible again).
   *
   * @return false if the overlay had no tool by that name
   */
  public boolean removeTool(String name) {
    Catalog<RegisteredTool> own = tools.overlayIfPresent();
    return own != null && own.remove(name);
  }

  /**
   * Resources and resource templates this session sees on top of the server's ({@link
   * McpServer#resources()}); an entry here hides a server entry with the same uri. Changes send
   * this session (only) one coalesced {@code resources/list_changed}. They are served only when
   * the server declared resources to this session at {@code initialize} (it had some then).
   * {@link ResourceCatalog#list()} and {@link ResourceCatalog#templates()} of the returned
   * catalog list this session's own entries only.
   */
  public ResourceCatalog resources() {
    ResourceCatalog c = localResources;
    if (c == null) {
      synchronized (this) { // short, never blocks: creates the front once
        c = localResources;
        if (c == null) {
          c =
              new ResourceCatalog(
                  this.<ResourceCatalog.StaticEntry>own(RESOURCES).overlay(),
                  this.<ResourceCatalog.TemplateEntry>own(TEMPLATES).overlay());
          localResources = c;
        }
      }
    }
    return c;
  }

  /**
   * Prompts this session sees on top of the server's ({@link McpServer#prompts()}); a prompt here
   * hides a server prompt with the same name. Changes send this session (only) one coalesced
   * {@code prompts/list_changed}. They are served only when the server declared prompts to this
   * session at {@code initialize}. {@link PromptCatalog#list()} of the returned catalog lists
   * this session's own prompts only.
   */
  public PromptCatalog prompts() {
    PromptCatalog c = localPrompts;
    if (c == null) {
      synchronized (this) { // short, never blocks: creates the front once
        c = localPrompts;
        if (c == null) {
          c = new PromptCatalog(this.<PromptCatalog.Entry>own(PROMPTS).overlay());
          localPrompts = c;
        }
      }
    }
    return c;
  }

  // ---------------------------------------------------------------- what a request sees, called by
  // the method rows. A stateless (2026-07-28) request sees the server's catalogs only: they must
  // not vary per connection (2026-07-28 server/tools, server/prompts, server/resources), so no
  // session overlay is consulted for it.

  /** The tools {@code call} sees: this session's view, or the server's for a stateless request. */
  List<Tool> toolList(InboundCall call) {
    return call.stateless() ? server.tools() : tools();
  }

  /** The tool {@code call} resolves {@code name} to: this session's own first, then the server's. */
  @Nullable RegisteredTool findTool(String name, InboundCall call) {
    return call.stateless() ? server.tools.snapshot().byKey().get(name) : tools.get(name);
  }

  /** The resources {@code call} sees, in order: the server's (this session's own replacing same-uri entries in place), then this session's own. */
  List<Resource> resourceList(InboundCall call) {
    return call.stateless()
        ? server.resourceCatalog.list()
        : resources.list().stream().map(ResourceCatalog.StaticEntry::resource).toList();
  }

  /** The resource templates {@code call} sees, in the same order as {@link #resourceList}. */
  List<ResourceTemplate> templateList(InboundCall call) {
    return call.stateless()
        ? server.resourceCatalog.templates()
        : templates.list().stream().map(ResourceCatalog.TemplateEntry::template).toList();
  }

  /**
   * The handler for {@code uri} as {@code call} reads it: resolved in this session's own resources
   * and templates first (an exact resource, then its templates), then in the server's.
   */
  Optional<ResourceCatalog.Resolved> resolveResource(String uri, InboundCall call) {
    ResourceCatalog own = call.stateless() ? null : localResources;
    Optional<ResourceCatalog.Resolved> mine = own == null ? Optional.empty() : own.resolve(uri);
    return mine.or(() -> server.resourceCatalog.resolve(uri));
  }

  /** The parsed resource template {@code call} sees under {@code uriTemplate}: this session's own first, then the server's. */
  Optional<UriTemplate> findTemplate(String uriTemplate, InboundCall call) {
    ResourceCatalog.TemplateEntry e =
        call.stateless()
            ? server.templateLayer.snapshot().byKey().get(uriTemplate)
            : templates.get(uriTemplate);
    return Optional.ofNullable(e).map(ResourceCatalog.TemplateEntry::parsed);
  }

  /** The prompts {@code call} sees, sorted by name (this session's own hiding the server's of the same name). */
  List<Prompt> promptList(InboundCall call) {
    return call.stateless()
        ? server.promptCatalog.list()
        : prompts.list().stream().map(PromptCatalog.Entry::prompt).toList();
  }

  /** The prompt {@code call} sees named {@code name}: this session's own first, then the server's. */
  Optional<PromptCatalog.Entry> findPrompt(String name, InboundCall call) {
    return Optional.ofNullable(
        call.stateless() ? server.promptLayer.snapshot().byKey().get(name) : prompts.get(name));
  }

  // ---------------------------------------------------------------- lifecycle, called by the
  // method table

  boolean beginInitialize(
      Implementation client,
      ClientCapabilities caps,
      ProtocolVersion version,
      ServerCapabilities declared) {
    if (!STATE.compareAndSet(this, State.NEW, State.INITIALIZING)) {
      return false;
    }
    this.clientInfo = client;
    this.clientCapabilities = caps;
    gate.declare(declared);
    engine.version(version);
    stateChanged();
    return true;
  }

  void onInitialized() {
    if (STATE.compareAndSet(this, State.INITIALIZING, State.OPERATING)) {
      stateChanged();
    }
  }

  /** {@code notifications/roots/list_changed}: the cached roots are stale. */
  void rootsChanged() {
    rootsCache.invalidate();
  }

  ReverseCalls.RootsCache rootsCache() {
    return rootsCache;
  }

  void logLevel(LoggingLevel level) {
    gate.logLevel(level);
    stateChanged();
  }

  // ---------------------------------------------------------------- scale-out (docs/scale-out.md),
  // reached through dev.herald.internal.server.ClusterAccess only

  /** Tells the cluster, if any, that the state it shares changed on this node. */
  void stateChanged() {
    Runnable l = stateListener;
    if (l != null) {
      try {
        l.run();
      } catch (RuntimeException e) {
        // a cluster's failure to record the change is its own to report; the session goes on
      }
    }
  }

  void stateListener(Runnable listener) {
    this.stateListener = listener;
  }

  boolean home() {
    return home;
  }

  void home(boolean home) {
    this.home = home;
  }

  /** The state a cluster shares, or empty before {@code initialize} was accepted. */
  Optional<dev.herald.internal.server.SessionState> clusterState() {
    Optional<ProtocolVersion> v = engine.version();
    if (v.isEmpty() || state == State.NEW) {
      return Optional.empty();
    }
    return Optional.of(
        new dev.herald.internal.server.SessionState(
            v.get().wire(),
            clientInfo,
            clientCapabilities,
            gate.declared(),
            gate.logLevel(),
            subscriptions(),
            state == State.OPERATING || state == State.CLOSED,
            taskSessionId(),
            null)); // the transport knows the owner (herald-http adds it)
  }

  /**
   * Takes {@code s} as this session's state: through the handshake as it says, with its log level,
   * subscriptions and task owner. The state listener is not told.
   */
  void restore(dev.herald.internal.server.SessionState s) {
    ProtocolVersion v =
        ProtocolVersion.parse(s.protocolVersion())
            .orElseThrow(() ->
                new IllegalArgumentException("unknown protocol version " + s.protocolVersion()));
    if (state == State.NEW) {
      this.clientInfo = s.clientInfo();
      this.clientCapabilities = s.clientCapabilities();
      gate.declare(s.serverCapabilities());
      engine.version(v);
      this.taskSessionId = s.taskOwner();
      STATE.compareAndSet(this, State.NEW, State.INITIALIZING);
    }
    if (s.initialized()) {
      STATE.compareAndSet(this, State.INITIALIZING, State.OPERATING);
    }
    gate.logLevel(s.logLevel());
    Set<String> now = subscriptions();
    for (String uri : now) {
      if (!s.subscriptions().contains(uri)) {
        server.subscriptions.unsubscribe(this, uri);
      }
    }
    for (String uri : s.subscriptions()) {
      if (!now.contains(uri)) {
        try {
          server.subscriptions.subscribe(this, uri);
        } catch (RuntimeException e) {
          // over this node's cap: the node that took it had a larger one; keep what fits
        }
      }
    }
  }

  // ---------------------------------------------------------------- list changes

  /** A catalog this session sees changed; the flush decides later whether to say so. */
  void markDirty(CatalogArea area) {
    int bit = 1 << area.ordinal();
    if ((dirty & bit) == 0) { // a burst marks once: no write for the repeats
      DIRTY.getAndBitwiseOr(this, bit);
    }
  }

  /**
   * The audience of this session's own catalog layers: one of them changed, so mark it and let
   * the server's debounce flush it (only marked sessions are told, so no other session is).
   */
  void localCatalogChanged(CatalogArea area) {
    markDirty(area);
    server.sessionCatalogChanged(area);
  }

  /**
   * Sends one {@code <area>/list_changed} if anything changed since the last flush and the gate
   * is open. Called by the server's debounce (a burst's leading run and its trailing one); a run
   * that finds the bit clear does nothing, so a session is told at most once per run.
   */
  void flushListChanged(CatalogArea area) {
    int bit = 1 << area.ordinal();
    if ((dirty & bit) == 0 || ((int) DIRTY.getAndBitwiseAnd(this, ~bit) & bit) == 0) {
      return;
    }
    if (!home) {
      return; // the node holding its standing stream tells it (docs/scale-out.md)
    }
    if (gate.listChanged(area) != NotificationGate.Verdict.SEND) {
      return;
    }
    try {
      engine.notify(area.notification(), null);
    } catch (RuntimeException e) {
      // the engine reported it dropped (the session is closing)
    }
  }

  // ---------------------------------------------------------------- logging

  /**
   * Sends a log message to this session only, on its standing stream, if its gate admits it (see
   * the class comment). Strings in {@code data} and the logger name lose control characters and
   * are length-capped, but Herald cannot tell a secret from other text: <b>never log
   * credentials, tokens, personal data or internals useful to an attacker</b> (MCP 2025-11-25 server/utilities/logging, "Security").
   *
   * @param logger a logger name, or {@code null}
   * @param data any value Jackson can turn into JSON (a string, a map, a record)
   */
  public void log(LoggingLevel level, @Nullable String logger, Object data) {
    log(level, logger, data, null);
  }

  /** As {@link #log(LoggingLevel, String, Object)}, tied to the request whose handler logs. */
  void log(
      LoggingLevel level, @Nullable String logger, Object data, @Nullable RequestId relatedTo) {
    if (gate.log(level) != NotificationGate.Verdict.SEND) {
      return;
    }
    try {
      engine.notify(
          McpMethods.MESSAGE, McpJson.toObject(logParams(level, logger, data)), relatedTo);
    } catch (RuntimeException e) {
      // the engine reported it dropped (the session is closing)
    }
  }

  /**
   * A log written by the handler of the stateless request {@code call}: sent on that request's
   * stream only (related to it), before its response, and only if its {@code _meta} log level
   * admits it ({@link NotificationGate#requestLog}); never after the request ended.
   */
  void requestLog(
      LoggingLevel level,
      @Nullable String logger,
      Object data,
      InboundCall call,
      @Nullable LoggingLevel requested) {
    if (!call.running() || gate.requestLog(level, requested) != NotificationGate.Verdict.SEND) {
      return;
    }
    try {
      engine.notify(
          McpMethods.MESSAGE, McpJson.toObject(logParams(level, logger, data)), call.id());
    } catch (RuntimeException e) {
      // the engine reported it dropped (the session is closing)
    }
  }

  static LoggingMessageParams logParams(LoggingLevel level, @Nullable String logger, Object data) {
    return new LoggingMessageParams(
        level, logger == null ? null : LogData.clean(logger), LogData.clean(data), null);
  }

  /**
   * A server-wide log: as {@link #log(LoggingLevel, String, Object)}, but the message is encoded
   * once for all sessions ({@code shared} encodes on its first call, from the one fanning-out
   * thread) and only if some gate admits it.
   */
  void log(LoggingLevel level, Supplier<EncodedMessage> shared) {
    if (!home || gate.log(level) != NotificationGate.Verdict.SEND) {
      return;
    }
    try {
      engine.notify(shared.get(), null);
    } catch (RuntimeException e) {
      // the engine reported it dropped (the session is closing)
    }
  }

  // ---------------------------------------------------------------- resource updates

  /**
   * Sends {@code notifications/resources/updated} for {@code uri} if the gate allows it (operating,
   * {@code resources.subscribe} declared, and this session subscribed to it); false if not sent.
   * {@code shared} is the notification, encoded once for every subscriber (see {@link
   * McpServer#notifyResourceUpdated}).
   */
  boolean resourceUpdated(String uri) {
    return resourceUpdated(uri, () -> EncodedMessage.of(McpServer.resourceUpdatedMessage(uri)));
  }

  /** As {@link #resourceUpdated(String)}, with the notification encoded once for all subscribers. */
  boolean resourceUpdated(String uri, Supplier<EncodedMessage> shared) {
    if (!home) {
      return false; // the node holding its standing stream tells it (docs/scale-out.md)
    }
    boolean subscribed = server.subscriptions.isSubscribed(this, uri);
    if (gate.resourceUpdated(subscribed) != NotificationGate.Verdict.SEND) {
      return false;
    }
    try {
      engine.notify(shared.get(), null);
      return true;
    } catch (RuntimeException e) {
      // the engine reported it dropped (the session is closing)
      return false;
    }
  }
}
