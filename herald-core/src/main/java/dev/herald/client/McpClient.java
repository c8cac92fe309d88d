package dev.herald.client;

import dev.herald.internal.session.EngineAccess;
import dev.herald.internal.session.MethodTable;
import dev.herald.internal.session.SessionEngine;
import dev.herald.session.CallOptions;
import dev.herald.session.EventListener;
import dev.herald.session.Interceptor;
import dev.herald.session.Scheduler;
import dev.herald.session.Ticker;
import dev.herald.transport.Transport;
import dev.herald.transport.TransportException;
import dev.herald.wire.CallToolParams;
import dev.herald.wire.CallToolResult;
import dev.herald.wire.ClientCapabilities;
import dev.herald.wire.CompleteParams;
import dev.herald.wire.CompleteResult;
import dev.herald.wire.ErrorCodes;
import dev.herald.wire.GetPromptParams;
import dev.herald.wire.GetPromptResult;
import dev.herald.wire.Implementation;
import dev.herald.wire.InitializeParams;
import dev.herald.wire.InitializeResult;
import dev.herald.wire.ListPromptsResult;
import dev.herald.wire.ListResourceTemplatesResult;
import dev.herald.wire.ListResourcesResult;
import dev.herald.wire.ListToolsResult;
import dev.herald.wire.LoggingLevel;
import dev.herald.wire.LoggingMessageParams;
import dev.herald.wire.McpException;
import dev.herald.wire.McpJson;
import dev.herald.wire.McpMethods;
import dev.herald.wire.PaginatedParams;
import dev.herald.wire.Prompt;
import dev.herald.wire.ProtocolVersion;
import dev.herald.wire.ReadResourceParams;
import dev.herald.wire.ReadResourceResult;
import dev.herald.wire.Resource;
import dev.herald.wire.ResourceTemplate;
import dev.herald.wire.ResourceUpdatedParams;
import dev.herald.wire.Root;
import dev.herald.wire.ServerCapabilities;
import dev.herald.wire.SetLevelParams;
import dev.herald.wire.SubscribeParams;
import dev.herald.wire.Tool;
import dev.herald.wire.UnsubscribeParams;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Consumer;
import java.util.function.Function;
import org.jspecify.annotations.Nullable;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * A connected MCP client: one session with one server, over any transport.
 *
 * {@snippet :
 * try (McpClient client = McpClient.builder()
 *     .info("my-host", "1.0")
 *     .connect(SubprocessTransport.builder("herald", "serve", "--stdio").build())) {
 *   CallToolResult result = client.callTool("slow", args,
 *       CallOptions.builder()
 *           .progress(update -> System.out.println(ProgressText.format(update, "steps")))
 *           .idleTimeout(Duration.ofSeconds(30))
 *           .timeout(Duration.ofMinutes(5))
 *           .build());
 * }
 * }
 *
 * <p>What it keeps for the host: catalog caches for tools, prompts, resources and templates
 * ({@code list_changed} marks an area stale; the next use refetches it once, even under concurrent
 * callers; pages are fetched whole), resource subscriptions with a listener per uri, log
 * listeners, and the host's roots. Handlers for server requests (sampling, elicitation, roots) are
 * given to the builder, which declares the matching capabilities.
 *
 * <p>Thread-safe: any number of threads may call at once; each call's progress goes to its own
 * listener only. Listeners run in arrival order on one virtual thread, never on the transport's
 * reader.
 */
public final class McpClient implements AutoCloseable {
  private volatile SessionEngine engine;

  /** The builder's settings, frozen at connect: every session is opened from these. */
  private final ClientSettings settings;

  /** Replaces a session the server lost; null when connected with a single transport. */
  private final @Nullable SessionRestarter restarter;

  private final java.util.concurrent.atomic.AtomicBoolean closing =
      new java.util.concurrent.atomic.AtomicBoolean();
  private volatile @Nullable LoggingLevel requestedLevel;
  private final AtomicReference<@Nullable InitializeResult> init = new AtomicReference<>();

  /**
   * What the server declared in its last {@code initialize} answer, learnt on the transport's
   * reader before any later notification is read: the server's notifications are acted on only
   * when it declared their capability.
   */
  private volatile @Nullable ServerCapabilities announced;

  private volatile ProtocolVersion version;
  private final Listeners listeners;
  private final CatalogCache<Tool> tools;
  private final CatalogCache<Prompt> prompts;
  private final CatalogCache<Resource> resources;
  private final CatalogCache<ResourceTemplate> templates;
  private final Map<String, CopyOnWriteArrayList<Consumer<ResourceUpdatedParams>>> subscriptions =
      new ConcurrentHashMap<>();
  private final AtomicReference<List<Root>> roots;
  private final ClientCapabilities capabilities;

  /** The host's answers to server requests, and the table and chain they run through. */
  private final ClientMethods answers;

  private final MethodTable<McpClient> methods;

  static {
    // Herald's own modules and tests reach the engine (stats, pending counts) through EngineAccess;
    // users do not: it would bypass the gates.
    EngineAccess.register(McpClient.class, c -> c.engine);
  }

  private McpClient(ClientSettings s, Transport transport) {
    this.listeners = new Listeners(s);
    this.roots = new AtomicReference<>(List.copyOf(s.roots() == null ? List.of() : s.roots()));
    this.capabilities = s.capabilities();
    this.version = s.version();
    this.answers =
        new ClientMethods(s.sampling(), s.elicitation(), s.roots() == null ? null : roots::get);
    this.methods = ClientMethods.table(s.interceptors());
    this.settings = s;
    java.util.function.Supplier<Transport> transports = s.transports();
    this.restarter =
        transports == null
            ? null
            : new SessionRestarter(transports, s.restartListeners(), new Restarts());
    this.engine = newEngine(transport);
    this.tools =
        new CatalogCache<>(() ->
            listAll(
                McpMethods.TOOLS_LIST,
                ListToolsResult.class,
                ListToolsResult::tools,
                ListToolsResult::nextCursor));
    this.prompts =
        new CatalogCache<>(() ->
            listAll(
                McpMethods.PROMPTS_LIST,
                ListPromptsResult.class,
                ListPromptsResult::prompts,
                ListPromptsResult::nextCursor));
    this.resources =
        new CatalogCache<>(() ->
            listAll(
                McpMethods.RESOURCES_LIST,
                ListResourcesResult.class,
                ListResourcesResult::resources,
                ListResourcesResult::nextCursor));
    this.templates =
        new CatalogCache<>(() ->
            listAll(
                McpMethods.RESOURCES_TEMPLATES_LIST,
                ListResourceTemplatesResult.class,
                ListResourceTemplatesResult::resourceTemplates,
                ListResourceTemplatesResult::nextCursor));
  }

  /** A builder with the defaults each setter names; connect it with {@link Builder#connect}. */
  public static Builder builder() {
    return new Builder();
  }

  ClientMethods answers() {
    return answers;
  }

  private SessionEngine newEngine(Transport transport) {
    ClientSettings s = settings;
    SessionEngine.Builder builder =
        SessionEngine.builder()
            .name("client")
            .transport(transport)
            .requests(call -> methods.dispatch(this, call));
    methods.registerNotifications(builder, () -> this);
    return builder
        .ticker(s.ticker())
        .scheduler(s.scheduler())
        .defaultCallOptions(s.defaults())
        .eventListener(s.eventListeners().create(EventListener.Role.CLIENT))
        .build();
  }

  /**
   * What the host is told when the server lost the session (HTTP 404) and the client started a
   * new one: the cause, and whether the new session is up. Calls that were in flight on the lost
   * session failed with {@link dev.herald.transport.http.SessionExpiredException}; subscriptions
   * and the log level were restored on the new session, and the catalog caches were marked stale.
   */
  public record SessionRestart(Throwable cause, boolean restored, @Nullable Throwable failure) {}

  /** The catalog areas a server can announce changes of. */
  public enum Area {
    TOOLS,
    PROMPTS,
    RESOURCES
  }

  // ---------------------------------------------------------------- session facts

  /** What the server declared at {@code initialize}, once its answer was read; null before. */
  @Nullable ServerCapabilities announced() {
    return announced;
  }

  /** Whether the server's {@code initialize} answer arrived. */
  boolean isInitialized() {
    return init.get() != null;
  }

  private InitializeResult init() {
    InitializeResult r = init.get();
    if (r == null) {
      throw new IllegalStateException("not connected");
    }
    return r;
  }

  public Implementation serverInfo() {
    return init().serverInfo();
  }

  public ServerCapabilities serverCapabilities() {
    return init().capabilities();
  }

  public @Nullable String instructions() {
    return init().instructions();
  }

  public ProtocolVersion protocolVersion() {
    return version;
  }

  /** What this client declared at bring-up. */
  public ClientCapabilities capabilities() {
    return capabilities;
  }

  /**
   * The current session's event listener, as the builder's {@link Builder#eventListenerFactory
   * factory} made it ({@link EventListener#NONE} if none); a new session (after the server lost
   * one) has a new listener.
   */
  public EventListener eventListener() {
    return engine.eventListener();
  }

  /** Sends {@code ping} and waits for the answer. */
  public void ping() throws InterruptedException {
    await(engine.request(McpMethods.PING, null).result());
  }

  // ---------------------------------------------------------------- catalogs

  /** Every tool, fetched fresh (all pages); also refreshes the cache. */
  public List<Tool> listTools() throws InterruptedException {
    tools.invalidate();
    return tools.get();
  }

  /** The tools, from the cache; fetched when the cache is empty or a list change made it stale. */
  public List<Tool> tools() throws InterruptedException {
    return tools.get();
  }

  /** The prompts, from the cache (see {@link #tools()}). */
  public List<Prompt> prompts() throws InterruptedException {
    return prompts.get();
  }

  /** The resources, from the cache (see {@link #tools()}). */
  public List<Resource> resources() throws InterruptedException {
    return resources.get();
  }

  /** The resource templates, from the cache; invalidated with the resources area. */
  public List<ResourceTemplate> resourceTemplates() throws InterruptedException {
    return templates.get();
  }

  /** How many times an area's list was fetched from the server (for diagnostics and tests). */
  public long fetchCount(Area area) {
    return switch (area) {
      case TOOLS -> tools.fetchCount();
      case PROMPTS -> prompts.fetchCount();
      case RESOURCES -> resources.fetchCount();
    };
  }

  /** Whether an area's cache is stale (or was never filled). */
  public boolean stale(Area area) {
    return switch (area) {
      case TOOLS -> tools.stale();
      case PROMPTS -> prompts.stale();
      case RESOURCES -> resources.stale();
    };
  }

  private <R, T> List<T> listAll(
      String method, Class<R> type, Function<R, List<T>> items, Function<R, @Nullable String> next)
      throws InterruptedException {
    List<T> out = new ArrayList<>();
    Set<String> seen = new HashSet<>();
    String cursor = null;
    do {
      JsonNode node =
          await(engine.request(method, McpJson.toObject(PaginatedParams.after(cursor))).result());
      R page = McpJson.resultFromTree(node, type);
      out.addAll(items.apply(page));
      cursor = next.apply(page);
      if (cursor != null && !seen.add(cursor)) {
        throw new McpException(
            ErrorCodes.INTERNAL_ERROR, "server repeated a pagination cursor on " + method);
      }
    } while (cursor != null);
    return out;
  }

  // ---------------------------------------------------------------- tools

  /** Calls a tool and waits for its result, with the connection's default options. */
  public CallToolResult callTool(String name, @Nullable ObjectNode arguments)
      throws InterruptedException {
    return callTool(name, arguments, CallOptions.defaults());
  }

  /**
   * Calls a tool and waits for its result.
   *
   * @throws McpException for a JSON-RPC error (unknown tool: -32602)
   * @throws dev.herald.session.CancelledException if cancelled; {@link dev.herald.session.TimeoutException} if a clock ran out
   * @throws TransportException if the connection ended
   */
  public CallToolResult callTool(String name, @Nullable ObjectNode arguments, CallOptions options)
      throws InterruptedException {
    return callToolAsync(name, arguments, options).await();
  }

  /** Starts a tool call; the handle gives its result, its progress record and cancellation. */
  public ToolCallHandle callToolAsync(
      String name, @Nullable ObjectNode arguments, CallOptions options) {
    ObjectNode params = McpJson.toObject(CallToolParams.of(name, arguments));
    return new ToolCallHandle(engine.request(McpMethods.TOOLS_CALL, params, options, null));
  }

  // ---------------------------------------------------------------- prompts, resources,
  // completions

  public GetPromptResult getPrompt(String name, @Nullable Map<String, String> arguments)
      throws InterruptedException {
    return call(McpMethods.PROMPTS_GET, GetPromptParams.of(name, arguments), GetPromptResult.class);
  }

  public ReadResourceResult readResource(String uri) throws InterruptedException {
    return call(McpMethods.RESOURCES_READ, ReadResourceParams.of(uri), ReadResourceResult.class);
  }

  public CompleteResult complete(CompleteParams params) throws InterruptedException {
    return call(McpMethods.COMPLETION_COMPLETE, params, CompleteResult.class);
  }

  /**
   * Subscribes to a resource: {@code listener} gets each {@code notifications/resources/updated}
   * for that uri, in order. Closing the returned handle removes the listener and, when it was the
   * uri's last, unsubscribes on the wire.
   *
   * @throws IllegalStateException if the server did not declare {@code resources.subscribe}
   */
  public ResourceSubscription subscribe(String uri, Consumer<ResourceUpdatedParams> listener)
      throws InterruptedException {
    Objects.requireNonNull(uri, "uri");
    Objects.requireNonNull(listener, "listener");
    if (!serverCapabilities().resourcesSubscribe()) {
      throw new IllegalStateException("the server does not support resource subscriptions");
    }
    CopyOnWriteArrayList<Consumer<ResourceUpdatedParams>> list =
        subscriptions.computeIfAbsent(uri, u -> new CopyOnWriteArrayList<>());
    boolean first = list.isEmpty();
    list.add(listener);
    if (first) {
      try {
        call(McpMethods.RESOURCES_SUBSCRIBE, SubscribeParams.of(uri), JsonNode.class);
      } catch (RuntimeException | InterruptedException e) {
        list.remove(listener);
        subscriptions.remove(uri, List.of());
        throw e;
      }
    }
    return new ResourceSubscription(uri, () -> unsubscribe(uri, listener));
  }

  private void unsubscribe(String uri, Consumer<ResourceUpdatedParams> listener)
      throws InterruptedException {
    CopyOnWriteArrayList<Consumer<ResourceUpdatedParams>> list = subscriptions.get(uri);
    if (list == null || !list.remove(listener) || !list.isEmpty()) {
      return;
    }
    subscriptions.remove(uri, list);
    if (engine.isOpen()) {
      call(McpMethods.RESOURCES_UNSUBSCRIBE, UnsubscribeParams.of(uri), JsonNode.class);
    }
  }

  // ---------------------------------------------------------------- logging and roots

  /** Asks the server to send logs at {@code level} and above. */
  public void setLoggingLevel(LoggingLevel level) throws InterruptedException {
    requestedLevel = level;
    call(McpMethods.LOGGING_SET_LEVEL, new SetLevelParams(level.wire(), null), JsonNode.class);
  }

  /** Adds a log listener; called in order, off the transport's reader. */
  public void onLog(Consumer<LoggingMessageParams> listener) {
    listeners.logs.add(Objects.requireNonNull(listener));
  }

  /** Adds a listener called after an area's cache was marked stale by the server. */
  public void onListChanged(Area area, Runnable listener) {
    Objects.requireNonNull(listeners.listChanged.get(area))
        .add(Objects.requireNonNull(listener)); // every area has a list
  }

  /**
   * Replaces the host's roots and, when the client declared {@code roots.listChanged}, tells the
   * server ({@code notifications/roots/list_changed}) so it refetches them.
   *
   * @throws IllegalStateException if the builder declared no roots
   */
  public void setRoots(List<Root> newRoots) {
    if (capabilities.roots() == null) {
      throw new IllegalStateException(
          "this client declared no roots capability; give the builder roots(...) first");
    }
    roots.set(List.copyOf(newRoots));
    if (capabilities.supportsRootsListChanged()) {
      engine.notify(McpMethods.ROOTS_LIST_CHANGED, null, null);
    }
  }

  public List<Root> roots() {
    return roots.get();
  }

  /**
   * Completes when the current session ends: with the cause when the connection failed or the
   * server went away, with {@code null} after an orderly {@link #close()}. A client connected with
   * a source of transports may replace a session the server lost (see {@link
   * Builder#connect(java.util.function.Supplier)}); the future returned here belongs to the session
   * current at the call.
   */
  public CompletableFuture<@Nullable Throwable> sessionClosed() {
    return engine.closed();
  }

  /** Ends the session and closes the transport (for a subprocess: stdin, SIGTERM, SIGKILL). */
  @Override
  public void close() {
    closing.set(true);
    engine.close();
    listeners.shutdown();
  }

  // ---------------------------------------------------------------- inbound notifications

  void onLog(@Nullable LoggingMessageParams p) {
    if (p != null) {
      listeners.run(() -> listeners.logs.forEach(l -> l.accept(p)));
    }
  }

  void listChanged(Area area) {
    switch (area) {
      case TOOLS -> tools.invalidate();
      case PROMPTS -> prompts.invalidate();
      case RESOURCES -> {
        resources.invalidate();
        templates.invalidate();
      }
    }
    listeners.run(
        () -> Objects.requireNonNull(listeners.listChanged.get(area)).forEach(Runnable::run));
  }

  void onResourceUpdated(@Nullable ResourceUpdatedParams p) {
    if (p == null) {
      return;
    }
    CopyOnWriteArrayList<Consumer<ResourceUpdatedParams>> list = subscriptions.get(p.uri());
    if (list != null) {
      listeners.run(() -> list.forEach(l -> l.accept(p)));
    }
  }

  // ---------------------------------------------------------------- plumbing

  private <T> T call(String method, Object params, Class<T> type) throws InterruptedException {
    JsonNode node = await(engine.request(method, McpJson.toObject(params)).result());
    return type == JsonNode.class ? type.cast(node) : McpJson.resultFromTree(node, type);
  }

  /** On the reader, as the {@code initialize} answer arrives: what the server declared. */
  private void learnCapabilities(JsonNode initializeResult) {
    announced = McpJson.resultFromTree(initializeResult, InitializeResult.class).capabilities();
  }

  private void handshake(SessionEngine engine) throws InterruptedException {
    ClientSettings s = settings;
    engine.start();
    InitializeResult result;
    try {
      JsonNode node =
          await(
              engine
                  .request(
                      McpMethods.INITIALIZE,
                      McpJson.toObject(
                          new InitializeParams(version.wire(), capabilities, s.info(), null)),
                      CallOptions.builder().timeout(s.initializeTimeout()).build(),
                      null,
                      this::learnCapabilities)
                  .result());
      result = McpJson.resultFromTree(node, InitializeResult.class);
    } catch (RuntimeException | InterruptedException e) {
      close();
      throw e;
    }
    ProtocolVersion agreed =
        ProtocolVersion.parse(result.protocolVersion())
            .filter(ProtocolVersion::handshake)
            .orElse(null);
    if (agreed == null) {
      close();
      throw new McpException(
          ErrorCodes.INVALID_REQUEST,
          "server chose protocol version "
              + result.protocolVersion()
              + ", which this client does not support");
    }
    init.set(result);
    version = agreed;
    engine.version(agreed);
    engine.notify(McpMethods.INITIALIZED, null, null);
    if (restarter != null) {
      restarter.watch(engine);
    }
  }

  /**
   * What the {@link SessionRestarter} does to this client: a new session from the frozen settings;
   * once it is up, it replaces the lost one, the caches go stale, and the subscriptions and the log
   * level the host set up are restored on it.
   */
  private final class Restarts implements SessionRestarter.Host {
    @Override
    public SessionEngine open(Transport transport) throws InterruptedException {
      SessionEngine next = newEngine(transport);
      handshake(next);
      return next;
    }

    @Override
    public void adopt(SessionEngine next) throws InterruptedException {
      engine = next;
      tools.invalidate();
      prompts.invalidate();
      resources.invalidate();
      templates.invalidate();
      LoggingLevel level = requestedLevel;
      if (level != null) {
        call(McpMethods.LOGGING_SET_LEVEL, new SetLevelParams(level.wire(), null), JsonNode.class);
      }
      for (String uri : subscriptions.keySet()) {
        call(McpMethods.RESOURCES_SUBSCRIBE, SubscribeParams.of(uri), JsonNode.class);
      }
    }

    @Override
    public boolean closing() {
      return closing.get();
    }

    @Override
    public void tell(Runnable task) {
      listeners.run(task);
    }
  }

  static <T> T await(CompletableFuture<T> future) throws InterruptedException {
    try {
      return future.get();
    } catch (ExecutionException e) {
      throw unwrap(e);
    }
  }

  static RuntimeException unwrap(ExecutionException e) {
    Throwable c = e.getCause();
    if (c instanceof RuntimeException re) {
      return re;
    }
    return new TransportException("call failed: " + c, c);
  }

  /** Listener lists and the one virtual thread they run on, in arrival order. */
  private static final class Listeners {
    final CopyOnWriteArrayList<Consumer<LoggingMessageParams>> logs;
    final Map<Area, CopyOnWriteArrayList<Runnable>> listChanged =
        new java.util.EnumMap<>(Area.class);
    private final java.util.concurrent.ExecutorService executor =
        java.util.concurrent.Executors.newSingleThreadExecutor(
            Thread.ofVirtual().name("herald-client-listeners").factory());

    Listeners(ClientSettings s) {
      this.logs = new CopyOnWriteArrayList<>(s.logListeners());
      for (Area a : Area.values()) {
        listChanged.put(a, new CopyOnWriteArrayList<>(s.listChangedListeners().get(a)));
      }
    }

    void run(Runnable task) {
      try {
        executor.execute(() -> {
          try {
            task.run();
          } catch (RuntimeException e) {
            System.getLogger("dev.herald.client")
                .log(System.Logger.Level.WARNING, "listener failed", e);
          }
        });
      } catch (java.util.concurrent.RejectedExecutionException closed) {
        // the client is closed: nothing more is delivered
      }
    }

    void shutdown() {
      executor.shutdown();
    }
  }

  /** Builds and connects an {@link McpClient}. */
  public static final class Builder {
    private Implementation info = Implementation.of("herald-client", "0.1.0");
    private ClientCapabilities capabilities = ClientCapabilities.none();
    private ProtocolVersion version = ProtocolVersion.LATEST_LEGACY;
    private CallOptions defaults = CallOptions.defaults();
    private Duration initializeTimeout = Duration.ofSeconds(30);
    private Ticker ticker = Ticker.system();
    private Scheduler scheduler = Scheduler.system();
    private final List<Consumer<LoggingMessageParams>> logListeners = new ArrayList<>();
    private final java.util.EnumMap<Area, List<Runnable>> listChangedListeners =
        new java.util.EnumMap<>(
            Map.of(
                Area.TOOLS,
                new ArrayList<>(),
                Area.PROMPTS,
                new ArrayList<>(),
                Area.RESOURCES,
                new ArrayList<>()));
    private @Nullable SamplingHandler sampling;
    private @Nullable ElicitationHandler elicitation;
    private @Nullable List<Root> roots;
    private final List<Consumer<SessionRestart>> restartListeners = new ArrayList<>();
    private final List<Interceptor<McpClient>> interceptors = new ArrayList<>();
    private EventListener.Factory eventListeners = EventListener.Factory.NONE;

    private Builder() {}

    /**
     * Adds an interceptor that every request the server sends ({@code ping}, {@code
     * sampling/createMessage}, {@code elicitation/create}, {@code roots/list}) runs through, after
     * the ones added before it and before Herald's own gates (method and protocol version,
     * declared capability) and the host's handler; see {@link Interceptor} for the contract. Use
     * it to audit or refuse what a server asks of the host. Default: none.
     */
    public Builder interceptor(Interceptor<McpClient> interceptor) {
      interceptors.add(Objects.requireNonNull(interceptor, "interceptor"));
      return this;
    }

    /**
     * Makes the {@link EventListener} of each session this client opens: the first, and each one
     * started after the server lost the last (default: none, {@link EventListener#NONE}).
     */
    public Builder eventListenerFactory(EventListener.Factory factory) {
      this.eventListeners = Objects.requireNonNull(factory, "factory");
      return this;
    }

    /** One {@link EventListener} for every session of this client; see {@link #eventListenerFactory}. */
    public Builder eventListener(EventListener listener) {
      Objects.requireNonNull(listener, "listener");
      return eventListenerFactory(role -> listener);
    }

    /** The {@code clientInfo} name and version (default {@code herald-client} {@code 0.1.0}). */
    public Builder info(String name, String version) {
      this.info = Implementation.of(name, version);
      return this;
    }

    /**
     * The {@code clientInfo} (default {@code herald-client} {@code 0.1.0}).
     *
     * @throws NullPointerException if {@code info} is null
     */
    public Builder info(Implementation info) {
      this.info = Objects.requireNonNull(info);
      return this;
    }

    /**
     * Extra capabilities to declare (experimental, extensions, tasks). Sampling, elicitation and
     * roots are declared by giving their handlers. Default: none beyond what the handlers imply.
     */
    public Builder capabilities(ClientCapabilities capabilities) {
      this.capabilities = Objects.requireNonNull(capabilities);
      return this;
    }

    /**
     * The protocol version to offer in {@code initialize} (default: the newest handshake version).
     *
     * @throws IllegalArgumentException for a version without the handshake
     */
    public Builder protocolVersion(ProtocolVersion version) {
      if (!version.handshake()) {
        throw new IllegalArgumentException(version.wire() + " has no initialize handshake");
      }
      this.version = version;
      return this;
    }

    /**
     * Default clocks for every call that sets none of its own (default: no idle timeout and an
     * absolute deadline of {@link CallOptions#DEFAULT_TIMEOUT}, 10 minutes). Options that set no
     * absolute deadline keep the 10 minutes; only {@link CallOptions.Builder#noTimeout()} (here or
     * on a call) leaves calls unbounded. A deadline that runs out sends {@code
     * notifications/cancelled} before the call fails with {@link dev.herald.session.TimeoutException}.
     */
    public Builder defaultCallOptions(CallOptions options) {
      this.defaults = Objects.requireNonNull(options);
      return this;
    }

    /**
     * How long {@link #connect} waits for the server's {@code initialize} answer (default 30 s).
     * {@code initialize} is never cancelled on the wire; the connection is closed instead.
     *
     * @throws IllegalArgumentException if zero or negative
     */
    public Builder initializeTimeout(Duration timeout) {
      if (timeout.isZero() || timeout.isNegative()) {
        throw new IllegalArgumentException("initializeTimeout must be positive, was " + timeout);
      }
      this.initializeTimeout = timeout;
      return this;
    }

    /** The clock for call timeouts and progress cadence (default {@link Ticker#system()}); tests pass a manual one. */
    public Builder ticker(Ticker ticker) {
      this.ticker = Objects.requireNonNull(ticker);
      return this;
    }

    /** The timer for call timeouts and render cadence (default {@link Scheduler#system()}); tests pass a manual one. */
    public Builder scheduler(Scheduler scheduler) {
      this.scheduler = Objects.requireNonNull(scheduler);
      return this;
    }

    /** A log listener registered before the handshake, so no early log is missed. */
    public Builder onLog(Consumer<LoggingMessageParams> listener) {
      logListeners.add(Objects.requireNonNull(listener));
      return this;
    }

    /**
     * A listener for {@code notifications/tools/list_changed}: the server's tool list changed and
     * the next {@link McpClient#tools()} refetches it. Called in arrival order, off the
     * transport's reader, on the same thread as log listeners.
     */
    public Builder onToolsListChanged(Runnable listener) {
      return onListChanged(Area.TOOLS, listener);
    }

    /**
     * A listener for an area's {@code list_changed}, registered before the handshake so no change
     * is missed: the area's cache is stale and its next use refetches it. Called in arrival order,
     * off the transport's reader.
     */
    public Builder onListChanged(Area area, Runnable listener) {
      Objects.requireNonNull(listChangedListeners.get(Objects.requireNonNull(area, "area")))
          .add(Objects.requireNonNull(listener, "listener"));
      return this;
    }

    /**
     * Answers {@code sampling/createMessage}; declares the {@code sampling} capability. Default:
     * none, the capability is not declared and such requests are refused.
     */
    public Builder sampling(SamplingHandler handler) {
      this.sampling = Objects.requireNonNull(handler);
      return this;
    }

    /**
     * Answers form-mode {@code elicitation/create}; declares {@code elicitation: {form: {}}}.
     * Default: none, the capability is not declared and such requests are refused.
     */
    public Builder elicitation(ElicitationHandler handler) {
      this.elicitation = Objects.requireNonNull(handler);
      return this;
    }

    /**
     * The host's roots, answered to {@code roots/list}; declares {@code roots: {listChanged: true}}
     * so {@link McpClient#setRoots} can tell the server when they change. Default: none, the
     * capability is not declared and {@code roots/list} is refused.
     */
    public Builder roots(List<Root> roots) {
      this.roots = List.copyOf(roots);
      return this;
    }

    ClientCapabilities effectiveCapabilities() {
      ClientCapabilities declared =
          new ClientCapabilities(
              null,
              roots == null ? null : new ClientCapabilities.Roots(true),
              sampling == null ? null : McpJson.object(),
              elicitation == null ? null : McpJson.object().set("form", McpJson.object()),
              null,
              null);
      return capabilities.union(declared);
    }

    /** What this builder says now, frozen for a client that connects with {@code transports}. */
    ClientSettings snapshot(java.util.function.@Nullable Supplier<Transport> transports) {
      return new ClientSettings(
          info,
          effectiveCapabilities(),
          version,
          defaults,
          initializeTimeout,
          ticker,
          scheduler,
          logListeners,
          listChangedListeners,
          sampling,
          elicitation,
          roots,
          transports,
          restartListeners,
          interceptors,
          eventListeners);
    }

    /**
     * Connects: starts the transport, sends {@code initialize}, checks the server's version, sends
     * {@code notifications/initialized}. The builder's settings are captured here: changing the
     * builder afterwards does not change the connected client.
     *
     * @throws TransportException if the connection fails
     * @throws McpException if the server refuses or answers with a version Herald does not speak
     */
    public McpClient connect(Transport transport) throws InterruptedException {
      return connect(snapshot(null), Objects.requireNonNull(transport, "transport"));
    }

    private static McpClient connect(ClientSettings settings, Transport transport)
        throws InterruptedException {
      McpClient client = new McpClient(settings, transport);
      client.handshake(client.engine);
      return client;
    }

    /**
     * Connects with a source of transports, so the client can start a new session by itself when
     * the server loses this one (Streamable HTTP answers 404): calls in flight fail with {@link
     * dev.herald.transport.http.SessionExpiredException}, then a fresh transport is made, the
     * handshake is redone, subscriptions and the log level are restored, and {@link
     * #onSessionRestart} listeners are told. Every new session is opened from the settings the
     * builder had at this call (client info, capabilities, handlers, timeouts, listeners): changing
     * the builder afterwards does not change the connected client.
     */
    public McpClient connect(java.util.function.Supplier<Transport> transports)
        throws InterruptedException {
      Objects.requireNonNull(transports, "transports");
      return connect(snapshot(transports), Objects.requireNonNull(transports.get(), "transport"));
    }

    /** Told each time the client replaced a session the server lost (see {@link #connect(java.util.function.Supplier)}). */
    public Builder onSessionRestart(Consumer<SessionRestart> listener) {
      restartListeners.add(Objects.requireNonNull(listener));
      return this;
    }
  }
}
