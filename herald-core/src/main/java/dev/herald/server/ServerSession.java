package dev.herald.server;

import dev.herald.internal.session.EngineAccess;
import dev.herald.internal.session.SessionEngine;
import dev.herald.transport.Transport;
import dev.herald.wire.ClientCapabilities;
import dev.herald.wire.EncodedMessage;
import dev.herald.wire.Implementation;
import dev.herald.wire.LoggingLevel;
import dev.herald.wire.LoggingMessageParams;
import dev.herald.wire.McpJson;
import dev.herald.wire.McpMethods;
import dev.herald.wire.ProtocolVersion;
import dev.herald.wire.RequestId;
import dev.herald.wire.ServerCapabilities;
import dev.herald.wire.Tool;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentSkipListMap;
import java.util.function.Supplier;
import org.jspecify.annotations.Nullable;

/**
 * One client's session with an {@link McpServer}: its lifecycle, the capabilities both sides
 * declared at bring-up (fixed for the session), its log level, its own tool overlay, and the gate
 * that decides which unsolicited notifications may be sent to it.
 *
 * <p><b>Routing.</b> What is sent through a session (its {@link #log log} method, list changes)
 * is unsolicited: it goes to this session only, on its standing stream. What a handler sends
 * through its {@link RequestContext} belongs to that request. Nothing is ever broadcast: the
 * server fans out by calling each session in turn.
 *
 * <p><b>Gates.</b> {@code notifications/<area>/list_changed} (tools, resources, prompts) reaches
 * the session only once it is {@link State#OPERATING} and only if the server declared {@code
 * <area>.listChanged} to it; a burst of catalog changes (server-wide or in this session's overlay)
 * within the server's debounce window gives the session one notification per area. {@code
 * notifications/resources/updated} needs {@code resources.subscribe} and a subscription to the
 * uri. Logs need the {@code logging} capability, a level at
 * or above the session's ({@link McpServer.Builder#defaultLogLevel} until the client sends {@code
 * logging/setLevel}) and a token from the session's rate limit; refused logs are counted, never
 * queued.
 *
 * <p><b>Tool overlay.</b> {@link #addTool} gives this session tools no other session sees; an
 * overlay tool shadows a server tool of the same name for this session only.
 *
 * {@snippet :
 * ServerSession session = server.connect(transport);
 * session.addTool(Tool.builder("admin_reset").build(), call -> CallToolResult.text("done"));
 * // only this session is told: one notifications/tools/list_changed after the debounce
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
  // An idle session is kept small (DESIGN "hold an idle session in a few small objects"): the
  // state and the dirty bits are plain volatile fields changed through VarHandles, and the
  // per-session debouncers exist only once this session's own overlay changed.
  private volatile State state = State.NEW;
  private final NotificationGate gate;
  private final ConcurrentSkipListMap<String, RegisteredTool> overlay = new ConcurrentSkipListMap<>();
  private volatile @Nullable ResourceCatalog localResources; // created on first use
  private volatile @Nullable PromptCatalog localPrompts; // created on first use
  /** One bit per {@link CatalogArea} (by ordinal): changed since this session's last flush. */
  private volatile int dirty;
  /** This session's own debouncers by area, made on first use under {@code this}. */
  private volatile Debouncer @Nullable [] localChanges;
  private static final VarHandle STATE;
  private static final VarHandle DIRTY;

  static {
    try {
      STATE = MethodHandles.lookup().findVarHandle(ServerSession.class, "state", State.class);
      DIRTY = MethodHandles.lookup().findVarHandle(ServerSession.class, "dirty", int.class);
    } catch (ReflectiveOperationException e) {
      throw new ExceptionInInitializerError(e);
    }
  }
  private volatile @Nullable Implementation clientInfo;
  private volatile ClientCapabilities clientCapabilities = ClientCapabilities.none();
  private final ReverseCalls.RootsCache rootsCache = new ReverseCalls.RootsCache();

  ServerSession(McpServer server, Transport transport) {
    this.server = server;
    this.gate = new NotificationGate(this, server);
    ServerMethods methods = new ServerMethods(server, this);
    this.engine =
        SessionEngine.builder()
            .name("server")
            .transport(transport)
            .requests(methods::handle)
            .onNotification(McpMethods.INITIALIZED, p -> onInitialized())
            .onNotification(McpMethods.ROOTS_LIST_CHANGED, p -> rootsCache.invalidate())
            .ticker(server.ticker)
            .scheduler(server.scheduler)
            .maxInFlight(server.maxInFlight)
            .progressInterval(server.progressInterval)
            .build();
    engine.closed().whenComplete((c, e) -> state = State.CLOSED);
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

  /** The server this session belongs to. */
  public McpServer server() {
    return server;
  }

  /** The session's lifecycle state. */
  public State state() {
    return state;
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
   * Unsolicited notifications not sent because a gate was closed (wrong state, capability not
   * declared, level too low, not subscribed) or because the session was closing.
   */
  public long gatedCount() {
    return gate.gated();
  }

  /** Log messages dropped by this session's rate limit. */
  public long droppedLogCount() {
    return gate.rateLimited();
  }

  /** Ends the session. */
  public void close() {
    engine.close();
  }

  // ---------------------------------------------------------------- the session's tools

  /** The tools this session sees: the server's, with this session's overlay on top, by name. */
  public List<Tool> tools() {
    if (overlay.isEmpty()) {
      return server.tools();
    }
    TreeMap<String, Tool> merged = new TreeMap<>();
    for (RegisteredTool t : server.tools.values()) {
      merged.put(t.name(), t.tool());
    }
    for (RegisteredTool t : overlay.values()) {
      merged.put(t.name(), t.tool());
    }
    return List.copyOf(merged.values());
  }

  /**
   * Adds or replaces a tool seen by this session only. This session (and no other) is sent {@code
   * notifications/tools/list_changed} after the debounce, if its gate is open.
   *
   * @throws IllegalArgumentException if the tool's schemas cannot be compiled
   */
  public void addTool(Tool tool, ToolHandler handler) {
    putOverlay(RegisteredTool.raw(tool, handler));
  }

  /**
   * Adds or replaces a typed tool seen by this session only; see {@link TypedToolHandler} for
   * what the typed form adds and {@link McpServer.Builder#tool(String, String, Class,
   * TypedToolHandler)} for the supported record shapes.
   *
   * @throws IllegalArgumentException if no schema can be derived from {@code argsRecord}
   */
  public <R extends Record> void addTool(String name, String description, Class<R> argsRecord, TypedToolHandler<R> handler) {
    putOverlay(RegisteredTool.typed(name, description, argsRecord, handler));
  }

  /**
   * Removes a tool from this session's overlay (a server tool it shadowed becomes visible again).
   *
   * @return false if the overlay had no tool by that name
   */
  public boolean removeTool(String name) {
    boolean removed = overlay.remove(name) != null;
    if (removed) {
      localCatalogChanged(CatalogArea.TOOLS);
    }
    return removed;
  }

  /**
   * Resources and resource templates this session sees on top of the server's ({@link
   * McpServer#resources()}); an entry here hides a server entry with the same uri. Changes send
   * this session (only) one coalesced {@code resources/list_changed}. They are served only when
   * the server declared resources to this session at {@code initialize} (it had some then).
   */
  public ResourceCatalog resources() {
    ResourceCatalog c = localResources;
    if (c == null) {
      synchronized (this) { // short, never blocks: creates the overlay once
        c = localResources;
        if (c == null) {
          c = new ResourceCatalog(() -> localCatalogChanged(CatalogArea.RESOURCES));
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
   * session at {@code initialize}.
   */
  public PromptCatalog prompts() {
    PromptCatalog c = localPrompts;
    if (c == null) {
      synchronized (this) { // short, never blocks: creates the overlay once
        c = localPrompts;
        if (c == null) {
          c = new PromptCatalog(() -> localCatalogChanged(CatalogArea.PROMPTS));
          localPrompts = c;
        }
      }
    }
    return c;
  }

  /** This session's resource overlay, or {@code null} while it has none. */
  @Nullable ResourceCatalog localResources() {
    return localResources;
  }

  /** This session's prompt overlay, or {@code null} while it has none. */
  @Nullable PromptCatalog localPrompts() {
    return localPrompts;
  }

  private void putOverlay(RegisteredTool tool) {
    overlay.put(tool.name(), tool);
    localCatalogChanged(CatalogArea.TOOLS);
  }

  /** The tool a call by this session resolves to: overlay first, then the server's. */
  @Nullable RegisteredTool findTool(String name) {
    RegisteredTool t = overlay.get(name);
    return t != null ? t : server.tools.get(name);
  }

  // ---------------------------------------------------------------- lifecycle, called by ServerMethods

  boolean beginInitialize(Implementation client, ClientCapabilities caps, ProtocolVersion version, ServerCapabilities declared) {
    if (!STATE.compareAndSet(this, State.NEW, State.INITIALIZING)) {
      return false;
    }
    this.clientInfo = client;
    this.clientCapabilities = caps;
    gate.declare(declared);
    engine.version(version);
    return true;
  }

  private void onInitialized() {
    STATE.compareAndSet(this, State.INITIALIZING, State.OPERATING);
  }

  ReverseCalls.RootsCache rootsCache() {
    return rootsCache;
  }

  void logLevel(LoggingLevel level) {
    gate.logLevel(level);
  }

  // ---------------------------------------------------------------- list changes

  /** A catalog this session sees changed; the flush decides later whether to say so. */
  void markDirty(CatalogArea area) {
    int bit = 1 << area.ordinal();
    if ((dirty & bit) == 0) { // a burst marks once: no write for the repeats
      DIRTY.getAndBitwiseOr(this, bit);
    }
  }

  /** This session's own overlay changed: mark it and flush after this session's debounce. */
  void localCatalogChanged(CatalogArea area) {
    markDirty(area);
    localChanges()[area.ordinal()].trigger();
  }

  private Debouncer[] localChanges() {
    Debouncer[] d = localChanges;
    if (d == null) {
      synchronized (this) {
        d = localChanges;
        if (d == null) {
          d = new Debouncer[CatalogArea.values().length];
          for (CatalogArea area : CatalogArea.values()) {
            d[area.ordinal()] = new Debouncer(server.scheduler, server.listChangedDebounceNanos, () -> flushListChanged(area));
          }
          localChanges = d;
        }
      }
    }
    return d;
  }

  /**
   * Sends one {@code <area>/list_changed} if anything changed since the last flush and the gate
   * is open. Called by the server's debounce and by this session's; whichever runs first sends,
   * the other finds nothing to do, so a burst gives one notification.
   */
  void flushListChanged(CatalogArea area) {
    int bit = 1 << area.ordinal();
    if ((dirty & bit) == 0 || ((int) DIRTY.getAndBitwiseAnd(this, ~bit) & bit) == 0) {
      return;
    }
    if (gate.listChanged(area) != NotificationGate.Verdict.SEND) {
      return;
    }
    try {
      engine.notify(area.notification(), null);
    } catch (RuntimeException e) {
      gate.sendFailed();
    }
  }

  // ---------------------------------------------------------------- logging

  /**
   * Sends a log message to this session only, on its standing stream, if its gate admits it (see
   * the class comment). Strings in {@code data} and the logger name lose control characters and
   * are length-capped, but Herald cannot tell a secret from other text: <b>never log
   * credentials, tokens, personal data or internals useful to an attacker</b> (spec §4.7).
   *
   * @param logger a logger name, or {@code null}
   * @param data any value Jackson can turn into JSON (a string, a map, a record)
   */
  public void log(LoggingLevel level, @Nullable String logger, Object data) {
    log(level, logger, data, null);
  }

  /** As {@link #log(LoggingLevel, String, Object)}, tied to the request whose handler logs. */
  void log(LoggingLevel level, @Nullable String logger, Object data, @Nullable RequestId relatedTo) {
    if (gate.log(level) != NotificationGate.Verdict.SEND) {
      return;
    }
    try {
      engine.notify(McpMethods.MESSAGE, McpJson.toObject(logParams(level, logger, data)), relatedTo);
    } catch (RuntimeException e) {
      gate.sendFailed();
    }
  }

  static LoggingMessageParams logParams(LoggingLevel level, @Nullable String logger, Object data) {
    return new LoggingMessageParams(level, logger == null ? null : LogData.clean(logger), LogData.clean(data), null);
  }

  /**
   * A server-wide log: as {@link #log(LoggingLevel, String, Object)}, but the message is encoded
   * once for all sessions ({@code shared} encodes on its first call, from the one fanning-out
   * thread) and only if some gate admits it.
   */
  void log(LoggingLevel level, Supplier<EncodedMessage> shared) {
    if (gate.log(level) != NotificationGate.Verdict.SEND) {
      return;
    }
    try {
      engine.notify(shared.get(), null);
    } catch (RuntimeException e) {
      gate.sendFailed();
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
    boolean subscribed = server.subscriptions.isSubscribed(this, uri);
    if (gate.resourceUpdated(subscribed) != NotificationGate.Verdict.SEND) {
      return false;
    }
    try {
      engine.notify(shared.get(), null);
      return true;
    } catch (RuntimeException e) {
      gate.sendFailed();
      return false;
    }
  }
}
