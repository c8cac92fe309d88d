package dev.herald.client;

import dev.herald.internal.session.EngineAccess;
import dev.herald.internal.session.MethodTable;
import dev.herald.internal.session.OneListener;
import dev.herald.internal.session.OutboundCall;
import dev.herald.internal.session.SessionEngine;
import dev.herald.session.CallOptions;
import dev.herald.session.EventListener;
import dev.herald.session.Interceptor;
import dev.herald.session.Scheduler;
import dev.herald.session.Ticker;
import dev.herald.transport.Transport;
import dev.herald.transport.TransportException;
import dev.herald.transport.http.McpHeaders;
import dev.herald.wire.CacheableResult;
import dev.herald.wire.CallToolParams;
import dev.herald.wire.CallToolResult;
import dev.herald.wire.ClientCapabilities;
import dev.herald.wire.CompleteParams;
import dev.herald.wire.CompleteResult;
import dev.herald.wire.DiscoverResult;
import dev.herald.wire.ErrorCodes;
import dev.herald.wire.GetPromptParams;
import dev.herald.wire.GetPromptResult;
import dev.herald.wire.Implementation;
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
import dev.herald.wire.MetaKeys;
import dev.herald.wire.PaginatedParams;
import dev.herald.wire.Prompt;
import dev.herald.wire.ProtocolVersion;
import dev.herald.wire.ReadResourceParams;
import dev.herald.wire.ReadResourceResult;
import dev.herald.wire.RequestMeta;
import dev.herald.wire.Resource;
import dev.herald.wire.ResourceTemplate;
import dev.herald.wire.ResourceUpdatedParams;
import dev.herald.wire.Root;
import dev.herald.wire.ServerCapabilities;
import dev.herald.wire.SetLevelParams;
import dev.herald.wire.SubscribeParams;
import dev.herald.wire.SubscriptionFilter;
import dev.herald.wire.Tool;
import dev.herald.wire.UnsubscribeParams;
import java.time.Duration;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
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
 * <p>Both protocol eras (MCP 2026-07-28 basic/versioning): by default the client probes with
 * {@code server/discover} and speaks 2026-07-28 (every request carries its metadata in {@code
 * _meta}; no handshake, no session; {@code input_required} results are fulfilled with the same
 * handlers; list changes and resource updates come through {@link #listen}), and falls back to the
 * {@code initialize} handshake with a handshake-era server ({@link Builder#eras}, {@link
 * Builder#protocolVersion}). {@link #era()} says which it speaks; the API is the same in both.
 *
 * <p>Thread-safe: any number of threads may call at once; each call's progress goes to its own
 * listener only. Listeners run in arrival order on one virtual thread, never on the transport's
 * reader.
 */
public final class McpClient implements AutoCloseable {
  private volatile SessionEngine engine;

  /** The first session's transport, as the engine sees it. */
  private final ModernWire wire;

  /** The builder's settings, frozen at connect: every session is opened from these. */
  private final ClientSettings settings;

  /** Replaces a session the server lost; null when connected with a single transport. */
  private final @Nullable SessionRestarter restarter;

  private final java.util.concurrent.atomic.AtomicBoolean closing =
      new java.util.concurrent.atomic.AtomicBoolean();
  private volatile @Nullable LoggingLevel requestedLevel;
  private final AtomicReference<@Nullable InitializeResult> init = new AtomicReference<>();

  /** The server's last {@code server/discover} answer (2026-07-28 era); null in the handshake era. */
  private final AtomicReference<@Nullable DiscoverResult> discovered = new AtomicReference<>();

  /** When {@link #discovered} arrived, on the settings' ticker. */
  private volatile long discoveredAt;

  /** The subscriptions opened with {@link #listen}, and the demultiplexer of their notifications. */
  private final Listens listens;

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

  /** {@code resources/read} results a 2026-07-28 server marked cacheable. */
  private final ReadCache reads;

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
    this.version = s.eras().triesModernFirst() ? s.modernVersion() : s.legacyVersion();
    this.listens = new Listens(this);
    this.answers =
        new ClientMethods(
            s.sampling(),
            s.elicitation(),
            s.roots() == null ? null : roots::get,
            s.tasks().host() ? new HostedTasks() : null);
    this.methods = ClientMethods.table(s.interceptors());
    this.settings = s;
    java.util.function.Supplier<Transport> transports = s.transports();
    this.restarter =
        transports == null
            ? null
            : new SessionRestarter(transports, s.restartListeners(), new Restarts());
    this.reads = new ReadCache(s.ticker());
    this.wire = new ModernWire(transport, listens::take);
    this.engine = newEngine(wire);
    this.tools =
        cache(
            McpMethods.TOOLS_LIST,
            ListToolsResult.class,
            page -> usableTools(page.tools()),
            ListToolsResult::nextCursor);
    this.prompts =
        cache(
            McpMethods.PROMPTS_LIST,
            ListPromptsResult.class,
            ListPromptsResult::prompts,
            ListPromptsResult::nextCursor);
    this.resources =
        cache(
            McpMethods.RESOURCES_LIST,
            ListResourcesResult.class,
            ListResourcesResult::resources,
            ListResourcesResult::nextCursor);
    this.templates =
        cache(
            McpMethods.RESOURCES_TEMPLATES_LIST,
            ListResourceTemplatesResult.class,
            ListResourceTemplatesResult::resourceTemplates,
            ListResourceTemplatesResult::nextCursor);
  }

  /** A builder with the defaults each setter names; connect it with {@link Builder#connect}. */
  public static Builder builder() {
    return new Builder();
  }

  ClientMethods answers() {
    return answers;
  }

  ClientSettings settings() {
    return settings;
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
        .senders(s.interceptors())
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

  /**
   * What the server declared in its {@code initialize} or {@code server/discover} answer, once it
   * was read; null before.
   */
  @Nullable ServerCapabilities announced() {
    return announced;
  }

  /** Whether the server's {@code initialize} or {@code server/discover} answer arrived. */
  boolean isInitialized() {
    return init.get() != null || discovered.get() != null;
  }

  /**
   * The server's {@code initialize} answer (handshake era), or empty in the 2026-07-28 era, which
   * has no handshake (see {@link #discoverResult()}).
   */
  public Optional<InitializeResult> initializeResult() {
    return Optional.ofNullable(init.get());
  }

  /**
   * The server's last {@code server/discover} answer (2026-07-28 era: server info in its {@code
   * _meta}, capabilities, instructions, supported versions, caching hints), or empty in the
   * handshake era. {@link #discover()} refreshes it when its {@code ttlMs} ran out.
   */
  public Optional<DiscoverResult> discoverResult() {
    return Optional.ofNullable(discovered.get());
  }

  /**
   * The server's {@code server/discover} answer, from the cache while fresh ({@code ttlMs}, MCP
   * 2026-07-28 server/utilities/caching; absent or negative means 0), asked again otherwise.
   *
   * @throws IllegalStateException in the handshake era (use {@link #initializeResult()})
   * @throws McpException for an error response
   */
  public DiscoverResult discover() throws InterruptedException {
    if (era() != ProtocolVersion.Era.MODERN) {
      throw new IllegalStateException(
          "server/discover exists only in 2026-07-28; this client speaks " + version.wire());
    }
    DiscoverResult d = discovered.get();
    if (d != null
        && settings.ticker().nanos() - (discoveredAt + d.effectiveTtlMs() * 1_000_000L) < 0) {
      return d;
    }
    JsonNode node =
        await(
            send(McpMethods.SERVER_DISCOVER, null, CallOptions.defaults(), this::learnDiscovered)
                .result());
    DiscoverResult fresh = Negotiation.asDiscover(node);
    if (fresh == null) {
      throw new McpException(
          ErrorCodes.INTERNAL_ERROR, "server/discover answered with no discover result");
    }
    return fresh;
  }

  /** The server's implementation: from {@code initialize}, or from {@code server/discover}'s {@code _meta}. */
  public Implementation serverInfo() {
    InitializeResult i = init.get();
    if (i != null) {
      return i.serverInfo();
    }
    DiscoverResult d = discovered();
    Implementation info = d.serverInfo();
    return info != null ? info : Implementation.of("unknown", "unknown");
  }

  public ServerCapabilities serverCapabilities() {
    InitializeResult i = init.get();
    return i != null ? i.capabilities() : discovered().capabilities();
  }

  public @Nullable String instructions() {
    InitializeResult i = init.get();
    return i != null ? i.instructions() : discovered().instructions();
  }

  private DiscoverResult discovered() {
    DiscoverResult d = discovered.get();
    if (d == null) {
      throw new IllegalStateException("not connected");
    }
    return d;
  }

  /** The protocol version negotiated with the server (before {@code connect} returns: the one tried). */
  public ProtocolVersion protocolVersion() {
    return version;
  }

  /**
   * The era the client speaks with this server: {@link ProtocolVersion.Era#MODERN} for 2026-07-28
   * (stateless, per-request {@code _meta}), {@link ProtocolVersion.Era#LEGACY} for the handshake.
   */
  public ProtocolVersion.Era era() {
    return version.era();
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

  /**
   * Sends {@code ping} and waits for the answer. 2026-07-28 has no {@code ping}: there the round
   * trip is a {@code server/discover}, which also refreshes {@link #discoverResult()}.
   */
  public void ping() throws InterruptedException {
    if (era() == ProtocolVersion.Era.MODERN) {
      await(
          send(McpMethods.SERVER_DISCOVER, null, CallOptions.defaults(), this::learnDiscovered)
              .result());
      return;
    }
    await(engine.request(McpMethods.PING, null).result());
  }

  // ---------------------------------------------------------------- catalogs

  /** Every tool, fetched fresh (all pages); also refreshes the cache. */
  public List<Tool> listTools() throws InterruptedException {
    tools.invalidate();
    return tools.get();
  }

  /**
   * The tools, from the cache; fetched when the cache is empty or a list change made it stale. From
   * a 2026-07-28 server, tools with invalid {@code x-mcp-header} annotations are left out (see
   * {@link McpHeaders#invalidToolHeaders}).
   */
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

  /** How many pages of an area's list were fetched from the server (for diagnostics and tests). */
  long pageFetchCount(Area area) {
    return switch (area) {
      case TOOLS -> tools.pageFetchCount();
      case PROMPTS -> prompts.pageFetchCount();
      case RESOURCES -> resources.pageFetchCount();
    };
  }

  /**
   * A catalog cache whose pages are fetched with {@code method}; a handshake-era page lives until
   * the area's {@code list_changed}, a 2026-07-28 page for its {@code ttlMs}.
   */
  private <R extends CacheableResult, T> CatalogCache<T> cache(
      String method,
      Class<R> type,
      Function<R, List<T>> items,
      Function<R, @Nullable String> next) {
    return new CatalogCache<>(
        cursor -> {
          JsonNode node =
              await(
                  send(
                          method,
                          McpJson.toObject(PaginatedParams.after(cursor)),
                          CallOptions.defaults(),
                          null)
                      .result());
          R page = McpJson.resultFromTree(node, type);
          return new CatalogCache.Page<>(
              items.apply(page),
              next.apply(page),
              CatalogCache.ttlOf(version.handshake(), page.ttlMs()),
              page.cacheScope());
        },
        settings.ticker(),
        settings.cacheIdentity());
  }

  /**
   * The listed tools this client exposes. In the 2026-07-28 era a tool whose {@code x-mcp-header}
   * annotations are invalid is dropped (MCP 2026-07-28 basic/transports/streamable-http, "Custom
   * Headers from Tool Parameters": clients MUST exclude such tools from the list they expose), on
   * every transport, so the catalog does not depend on the binding. A handshake-era list is kept
   * whole: that era has no {@code Mcp-Param-*} headers, and the keyword means nothing to its
   * servers.
   */
  private List<Tool> usableTools(List<Tool> listed) {
    if (version.handshake()) {
      return listed;
    }
    List<Tool> usable = new ArrayList<>(listed.size());
    for (Tool t : listed) {
      Optional<String> invalid = McpHeaders.invalidToolHeaders(t);
      if (invalid.isEmpty()) {
        usable.add(t);
      } else {
        System.getLogger("dev.herald.client")
            .log(
                System.Logger.Level.WARNING,
                "dropped tool {0} from the list: {1}",
                t.name(),
                invalid.get());
      }
    }
    return usable;
  }

  /** Marks an area's cache stale (a matching notification arrived). */
  void invalidate(Area area) {
    switch (area) {
      case TOOLS -> tools.invalidate();
      case PROMPTS -> prompts.invalidate();
      case RESOURCES -> {
        resources.invalidate();
        templates.invalidate();
      }
    }
  }

  /** A subscribed resource changed ({@code notifications/resources/updated}). */
  void resourceChanged(String uri) {
    reads.invalidate(uri);
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
    if (era() == ProtocolVersion.Era.LEGACY && serverDeclaresTaskToolCalls()) {
      tools(); // the tool's taskSupport decides whether the call must run as a task
    }
    if (mayBeTask(name)) {
      return callToolAsync(name, arguments, options).await();
    }
    // a plain call: its rounds run on this thread, each response wakes it where it is delivered
    JsonNode result =
        InputRounds.await(
            McpMethods.TOOLS_CALL,
            toolParams(name, arguments),
            p ->
                engine.requestDirect(
                    McpMethods.TOOLS_CALL, paramsFor(version, p, options), options),
            answers,
            settings.maxInputRounds());
    return CallToolResults.fromTree(result);
  }

  /** Whether a call of tool {@code name} is (or may become) a task, which {@link #callToolAsync} follows. */
  private boolean mayBeTask(String name) {
    return era() == ProtocolVersion.Era.MODERN
        ? settings.tasks().extension()
        : serverDeclaresTaskToolCalls()
            && knownTaskSupport(name) == dev.herald.wire.TaskSupport.REQUIRED;
  }

  /**
   * The params of a plain {@code tools/call}: {@code name} and a copy of {@code arguments} (an
   * in-memory peer sees the tree itself, and the caller keeps theirs).
   */
  private static ObjectNode toolParams(String name, @Nullable ObjectNode arguments) {
    ObjectNode params = McpJson.object();
    params.put("name", name);
    if (arguments != null) {
      params.set("arguments", arguments.deepCopy());
    }
    return params;
  }

  /**
   * Starts a tool call; the handle gives its result, its progress record and cancellation. A
   * 2026-07-28 server may answer {@code input_required}: the client fulfils the input requests
   * with the builder's handlers and retries, up to {@link Builder#maxInputRounds} rounds.
   */
  public ToolCallHandle callToolAsync(
      String name, @Nullable ObjectNode arguments, CallOptions options) {
    ObjectNode params = toolParams(name, arguments);
    if (era() == ProtocolVersion.Era.MODERN && settings.tasks().extension()) {
      // the server may answer with a task (the request declares the extension): follow it
      return new ToolCallHandle(taskCall(params, options, null, true));
    }
    if (era() == ProtocolVersion.Era.LEGACY
        && serverDeclaresTaskToolCalls()
        && knownTaskSupport(name) == dev.herald.wire.TaskSupport.REQUIRED) {
      // MCP 2025-11-25 basic/utilities/tasks: a required tool MUST be task-augmented
      params.set("task", McpJson.toTree(taskMetadata()));
      return new ToolCallHandle(taskCall(params, options, null, false));
    }
    return new ToolCallHandle(rounds(McpMethods.TOOLS_CALL, params, options));
  }

  // ---------------------------------------------------------------- tasks

  /**
   * Calls a tool as a task and returns once the server created it (MCP 2025-11-25
   * basic/utilities/tasks; the 2026-07-28 extension {@code io.modelcontextprotocol/tasks}). The
   * handle follows the task: {@code listener} hears each status change once, in order; progress
   * goes to the options' listener as for a plain call, its token active until the task is
   * terminal; the options' clocks bound the whole task (when one runs out the client sends {@code
   * tasks/cancel} and the result fails with {@link dev.herald.session.TimeoutException}).
   *
   * <p>Handshake era: the request carries {@code params.task} (with the builder's {@link
   * Builder#taskTtl}), only if the server declared {@code tasks.requests.tools.call} and the tool
   * is not {@code forbidden}. 2026-07-28: the request declares the extension and the server
   * decides; a call it answers at once gives an already complete handle ({@link
   * TaskHandle#hasTask()} false).
   *
   * @throws IllegalStateException before sending anything, when the server or the tool does not
   *     support tasks (or the builder turned the 2026-07-28 extension off)
   * @throws McpException for an error response to the call itself
   * @throws dev.herald.session.CancelledException if the calling thread was interrupted (its
   *     interrupt flag is set again) or the call was cancelled before the task was created
   */
  public TaskHandle callToolAsTask(
      String name,
      @Nullable ObjectNode arguments,
      CallOptions options,
      @Nullable TaskListener listener) {
    Objects.requireNonNull(name, "name");
    Objects.requireNonNull(options, "options");
    ObjectNode params = objectOf(CallToolParams.of(name, arguments));
    boolean modern = era() == ProtocolVersion.Era.MODERN;
    if (modern) {
      if (!settings.tasks().extension()) {
        throw new IllegalStateException(
            "this client does not declare the io.modelcontextprotocol/tasks extension;"
                + " give McpClient.Builder.taskExtension(true)");
      }
    } else {
      if (!serverDeclaresTaskToolCalls()) {
        throw new IllegalStateException(
            "the server did not declare tasks.requests.tools.call: it runs no tool as a task");
      }
      dev.herald.wire.TaskSupport support;
      try {
        support = taskSupportOf(name);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        throw new dev.herald.session.CancelledException("interrupted");
      }
      if (support == dev.herald.wire.TaskSupport.FORBIDDEN) {
        throw new IllegalStateException(
            "tool " + name + " does not support tasks (its execution.taskSupport is forbidden)");
      }
      params.set("task", McpJson.toTree(taskMetadata()));
    }
    TaskCall call = taskCall(params, options, listener, modern);
    TaskFollower follower;
    try {
      follower = call.created().get();
    } catch (InterruptedException e) {
      call.cancel("interrupted");
      Thread.currentThread().interrupt();
      throw new dev.herald.session.CancelledException("interrupted");
    } catch (ExecutionException e) {
      throw unwrap(e);
    }
    if (follower != null) {
      return new TaskHandle(follower);
    }
    JsonNode answered = call.result().join(); // done: the server answered without a task
    return new TaskHandle(
        McpJson.resultFromTree(answered, CallToolResult.class), call.progressRecord().orElse(null));
  }

  /**
   * Follows a task by id, e.g. after a reconnect or a restart of the client (its progress is not
   * seen again: the token belonged to the old request). No clock bounds it; {@link
   * TaskHandle#cancel} still sends {@code tasks/cancel}.
   *
   * @throws McpException when the server does not know the task (-32602), e.g. it expired or
   *     belongs to another session or principal
   * @throws dev.herald.session.CancelledException if the calling thread was interrupted
   */
  public TaskHandle task(String taskId, @Nullable TaskListener listener) {
    Objects.requireNonNull(taskId, "taskId");
    boolean modern = era() == ProtocolVersion.Era.MODERN;
    JsonNode got =
        uninterruptibly(
            send(McpMethods.TASKS_GET, taskGetParams(taskId), CallOptions.defaults(), null)
                .result());
    TaskFollower f =
        new TaskFollower(this, taskId, modern, listener, null, null, settings.ticker().nanos());
    if (modern) {
      f.start(null, McpJson.resultFromTree(got, dev.herald.wire.TasksExtension.DetailedTask.class));
    } else {
      f.start(
          TaskSnapshot.of(McpJson.resultFromTree(got, dev.herald.wire.GetTaskResult.class)), null);
    }
    return new TaskHandle(f);
  }

  /**
   * The caller's tasks on the server ({@code tasks/list}, every page; MCP 2025-11-25
   * basic/utilities/tasks).
   *
   * @throws UnsupportedOperationException in the 2026-07-28 era: the tasks extension has no
   *     {@code tasks/list} (keep the ids of the tasks you start)
   * @throws IllegalStateException if the server did not declare {@code tasks.list}
   */
  public List<TaskSnapshot> listTasks() {
    if (era() == ProtocolVersion.Era.MODERN) {
      throw new UnsupportedOperationException(
          "tasks/list does not exist in 2026-07-28 (the io.modelcontextprotocol/tasks extension"
              + " has no list); keep the ids of the tasks you start and use getTask(id)");
    }
    ServerCapabilities caps = serverCapabilities();
    if (caps.tasks() == null || !caps.tasks().has("list")) {
      throw new IllegalStateException("the server did not declare tasks.list");
    }
    List<TaskSnapshot> out = new ArrayList<>();
    java.util.Set<String> seen = new java.util.HashSet<>();
    String cursor = null;
    do {
      JsonNode node =
          uninterruptibly(
              send(
                      McpMethods.TASKS_LIST,
                      McpJson.toObject(PaginatedParams.after(cursor)),
                      CallOptions.defaults(),
                      null)
                  .result());
      dev.herald.wire.ListTasksResult page =
          McpJson.resultFromTree(node, dev.herald.wire.ListTasksResult.class);
      page.tasks().forEach(t -> out.add(TaskSnapshot.of(t)));
      cursor = page.nextCursor();
      if (cursor != null && !seen.add(cursor)) {
        throw new McpException(
            ErrorCodes.INTERNAL_ERROR, "server repeated a pagination cursor (" + cursor + ")");
      }
    } while (cursor != null);
    return out;
  }

  /**
   * One {@code tasks/get}: the task's status now.
   *
   * @throws McpException -32602 when the server does not know the task
   */
  public TaskSnapshot getTask(String taskId) {
    Objects.requireNonNull(taskId, "taskId");
    JsonNode got =
        uninterruptibly(
            send(McpMethods.TASKS_GET, taskGetParams(taskId), CallOptions.defaults(), null)
                .result());
    if (era() == ProtocolVersion.Era.MODERN) {
      return TaskSnapshot.of(
          McpJson.resultFromTree(got, dev.herald.wire.TasksExtension.DetailedTask.class));
    }
    return TaskSnapshot.of(McpJson.resultFromTree(got, dev.herald.wire.GetTaskResult.class));
  }

  /**
   * Sends {@code tasks/cancel} for a task (never {@code notifications/cancelled}); a task this
   * client follows then fails its result with {@link dev.herald.session.CancelledException}.
   *
   * @throws IllegalStateException in the handshake era when the server did not declare {@code
   *     tasks.cancel}
   * @throws McpException -32602 when the server does not know the task or (2025-11-25) it is
   *     already terminal
   */
  public void cancelTask(String taskId) {
    Objects.requireNonNull(taskId, "taskId");
    if (era() == ProtocolVersion.Era.LEGACY && !serverDeclaresTaskCancel()) {
      throw new IllegalStateException("the server did not declare tasks.cancel");
    }
    uninterruptibly(
        send(
                McpMethods.TASKS_CANCEL,
                McpJson.toObject(dev.herald.wire.CancelTaskParams.of(taskId)),
                CallOptions.defaults(),
                null)
            .result());
    for (TaskFollower f : followed.getOrDefault(taskId, new CopyOnWriteArrayList<>())) {
      f.finish(
          null,
          new dev.herald.session.CancelledException("cancelled"),
          dev.herald.session.ProgressRecord.Terminal.CANCELLED);
    }
  }

  /** The tasks this client follows now, by id. */
  private final Map<String, CopyOnWriteArrayList<TaskFollower>> followed =
      new ConcurrentHashMap<>();

  void following(TaskFollower f) {
    followed.computeIfAbsent(f.taskId(), k -> new CopyOnWriteArrayList<>()).add(f);
  }

  void unfollow(TaskFollower f) {
    followed.computeIfPresent(
        f.taskId(),
        (k, list) -> {
          list.remove(f);
          return list.isEmpty() ? null : list;
        });
  }

  /** How many tasks the client follows (for tests). */
  int followedTasks() {
    return followed.size();
  }

  /** A {@code notifications/tasks/status} of the session (2025-11-25). */
  void onTaskStatus(dev.herald.wire.@Nullable TaskStatusNotificationParams p) {
    if (p == null) {
      return;
    }
    for (TaskFollower f : followed.getOrDefault(p.taskId(), new CopyOnWriteArrayList<>())) {
      f.notified(TaskSnapshot.of(p.task()), null, null);
    }
  }

  boolean serverDeclaresTaskToolCalls() {
    ServerCapabilities caps = announced;
    ObjectNode tasks = caps == null ? null : caps.tasks();
    return tasks != null
        && tasks.get("requests") instanceof ObjectNode r
        && r.get("tools") instanceof ObjectNode t
        && t.has("call");
  }

  boolean serverDeclaresTaskCancel() {
    ServerCapabilities caps = announced;
    return caps != null && caps.tasks() != null && caps.tasks().has("cancel");
  }

  /** The tool's taskSupport, from the cached list (fetched if never fetched). */
  private dev.herald.wire.TaskSupport taskSupportOf(String name) throws InterruptedException {
    for (Tool t : tools()) {
      if (t.name().equals(name)) {
        return t.taskSupport();
      }
    }
    return dev.herald.wire.TaskSupport.OPTIONAL; // not listed: the server answers for itself
  }

  /** The tool's taskSupport as last listed, without asking; forbidden when unknown. */
  private dev.herald.wire.TaskSupport knownTaskSupport(String name) {
    List<Tool> listed = tools.peek();
    if (listed != null) {
      for (Tool t : listed) {
        if (t.name().equals(name)) {
          return t.taskSupport();
        }
      }
    }
    return dev.herald.wire.TaskSupport.FORBIDDEN;
  }

  private dev.herald.wire.TaskMetadata taskMetadata() {
    Duration ttl = settings.tasks().ttl();
    return dev.herald.wire.TaskMetadata.of(ttl == null ? null : ttl.toMillis());
  }

  private ObjectNode taskGetParams(String taskId) {
    return objectOf(dev.herald.wire.GetTaskParams.of(taskId));
  }

  static ObjectNode objectOf(Object params) {
    ObjectNode o = McpJson.toObject(params);
    return o == null ? McpJson.object() : o;
  }

  /** A {@code tools/call} that may end in a task, which is then followed. */
  private TaskCall taskCall(
      ObjectNode params, CallOptions options, @Nullable TaskListener listener, boolean modern) {
    long started = settings.ticker().nanos();
    java.util.function.Predicate<JsonNode> isTask = node -> TaskCall.isTask(node, modern);
    InputRounds rounds =
        InputRounds.start(
            McpMethods.TOOLS_CALL,
            params,
            p ->
                engine.request(
                    McpMethods.TOOLS_CALL,
                    paramsFor(version, p, options),
                    options,
                    null,
                    null,
                    isTask),
            answers,
            settings.maxInputRounds(),
            isTask);
    return new TaskCall(this, rounds, modern, listener, options, started);
  }

  private static JsonNode uninterruptibly(CompletableFuture<JsonNode> future) {
    try {
      return await(future);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      future.cancel(false);
      throw new dev.herald.session.CancelledException("interrupted");
    }
  }

  /** A call that may take several round trips ({@code input_required}, MCP 2026-07-28 MRTR). */
  private InputRounds rounds(String method, @Nullable ObjectNode params, CallOptions options) {
    return InputRounds.start(
        method,
        params == null ? McpJson.object() : params,
        p -> send(method, p, options, null),
        answers,
        settings.maxInputRounds());
  }

  // ---------------------------------------------------------------- prompts, resources,
  // completions

  public GetPromptResult getPrompt(String name, @Nullable Map<String, String> arguments)
      throws InterruptedException {
    return getPrompt(name, arguments, CallOptions.defaults());
  }

  /**
   * Gets a prompt with per-call options (clocks, progress, per-request capabilities); input the
   * server asks for ({@code input_required}) is given as for {@link #callToolAsync}.
   */
  public GetPromptResult getPrompt(
      String name, @Nullable Map<String, String> arguments, CallOptions options)
      throws InterruptedException {
    ObjectNode params = McpJson.toObject(GetPromptParams.of(name, arguments));
    return McpJson.resultFromTree(
        await(rounds(McpMethods.PROMPTS_GET, params, options).result()), GetPromptResult.class);
  }

  public ReadResourceResult readResource(String uri) throws InterruptedException {
    return readResource(uri, CallOptions.defaults());
  }

  /**
   * Reads a resource with per-call options; see {@link #getPrompt(String, Map, CallOptions)}. From
   * a 2026-07-28 server a result is reused while its {@code ttlMs} lasts (per {@link
   * Builder#cacheIdentity} when {@code private}), until {@code notifications/resources/updated}
   * for the uri arrives on a {@link #listen}; one reached through {@code input_required} rounds is
   * never reused.
   */
  public ReadResourceResult readResource(String uri, CallOptions options)
      throws InterruptedException {
    boolean modern = era() == ProtocolVersion.Era.MODERN;
    String who = settings.cacheIdentity().get();
    if (modern) {
      ReadResourceResult cached = reads.get(uri, who);
      if (cached != null) {
        return cached;
      }
    }
    ObjectNode params = McpJson.toObject(ReadResourceParams.of(uri));
    InputRounds call = rounds(McpMethods.RESOURCES_READ, params, options);
    ReadResourceResult result =
        McpJson.resultFromTree(await(call.result()), ReadResourceResult.class);
    if (modern && call.rounds() == 1) {
      reads.put(uri, who, result, settings.ticker().nanos());
    }
    return result;
  }

  public CompleteResult complete(CompleteParams params) throws InterruptedException {
    return call(McpMethods.COMPLETION_COMPLETE, params, CompleteResult.class);
  }

  /**
   * Subscribes to a resource: {@code listener} gets each {@code notifications/resources/updated}
   * for that uri, in order. Closing the returned handle removes the listener and, when it was the
   * uri's last, unsubscribes on the wire.
   *
   * In the 2026-07-28 era this is a {@link #listen} for that one uri.
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
    if (era() == ProtocolVersion.Era.MODERN) {
      Subscription s =
          listen(
              new SubscriptionFilter(null, null, null, List.of(uri), null),
              new SubscriptionListener() {
                @Override
                public void resourceUpdated(ResourceUpdatedParams update) {
                  listener.accept(update);
                }
              });
      awaitAcknowledgement(s);
      return new ResourceSubscription(uri, s::close);
    }
    return subscribeOnSession(uri, listener);
  }

  /**
   * Subscribes to list changes and resource updates (MCP 2026-07-28 basic/patterns/subscriptions):
   * the listener gets only what {@code filter} asks for, and the subscription's {@link
   * Subscription#honoured()} what the server acknowledged (compare it with the filter: a server may
   * honour a subset). The client invalidates its caches on the matching notifications itself.
   *
   * <p>On a 2026-07-28 server this is a {@code subscriptions/listen} request held open, its
   * notifications told apart by their {@code subscriptionId}, re-sent with a new id after the
   * server ends it or its stream breaks (with a bounded backoff). On a handshake-era server the
   * same call maps onto the session's {@code list_changed} notifications and {@code
   * resources/subscribe}, honouring what the server declared; callers need not care about the era.
   * Closing the subscription cancels the listen (stdio: {@code notifications/cancelled}; HTTP:
   * closing its stream) or unsubscribes.
   *
   * {@snippet :
   * try (Subscription s = client.listen(
   *     new SubscriptionFilter(true, null, null, List.of("file:///config.json"), null),
   *     new SubscriptionListener() {
   *       public void listChanged(McpClient.Area area) { refresh(area); }
   *       public void resourceUpdated(ResourceUpdatedParams p) { reload(p.uri()); }
   *     })) {
   *   SubscriptionFilter honoured = s.honoured().get();
   * }
   * }
   *
   * @throws TransportException if the connection ended
   */
  public Subscription listen(SubscriptionFilter filter, SubscriptionListener listener)
      throws InterruptedException {
    return listens.open(
        Objects.requireNonNull(filter, "filter"), Objects.requireNonNull(listener, "listener"));
  }

  /** How many {@code subscriptions/listen} requests are open (for tests). */
  int openListens() {
    return listens.openCount();
  }

  /**
   * Waits until the server acknowledged a listen (as a handshake-era {@code resources/subscribe}
   * returns once the subscription is in effect): an update sent right after {@link #subscribe}
   * returns is not lost to a listen the server has not yet registered.
   */
  private void awaitAcknowledgement(Subscription s) throws InterruptedException {
    try {
      s.honoured()
          .get(settings.initializeTimeout().toMillis(), java.util.concurrent.TimeUnit.MILLISECONDS);
    } catch (ExecutionException e) {
      throw new TransportException(
          "the server ended the subscription before acknowledging it", e.getCause());
    } catch (java.util.concurrent.TimeoutException e) {
      s.close();
      throw new TransportException("the server did not acknowledge the subscription in time", e);
    }
  }

  /** A handshake-era {@code resources/subscribe} for {@code uri}, shared by its listeners. */
  ResourceSubscription subscribeOnSession(String uri, Consumer<ResourceUpdatedParams> listener)
      throws InterruptedException {
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

  /**
   * Asks the server to send logs at {@code level} and above: {@code logging/setLevel} in the
   * handshake era; in 2026-07-28, which has no such method, every later request names the level in
   * its {@code _meta["io.modelcontextprotocol/logLevel"]} and gets its own logs.
   */
  public void setLoggingLevel(LoggingLevel level) throws InterruptedException {
    requestedLevel = level;
    if (era() == ProtocolVersion.Era.MODERN) {
      return;
    }
    call(McpMethods.LOGGING_SET_LEVEL, new SetLevelParams(level.wire(), null), JsonNode.class);
  }

  /** Adds a log listener; called in order, off the transport's reader. */
  public void onLog(Consumer<LoggingMessageParams> listener) {
    listeners.logs.add(Objects.requireNonNull(listener));
  }

  /**
   * Adds a listener called after an area's cache was marked stale by the server. On a 2026-07-28
   * server list changes arrive only on a {@code subscriptions/listen}: the first listener of an
   * area opens one for it (if the server announces that area's changes), and changes made before
   * the server acknowledged it are not heard; use {@link #listen} to wait for the
   * acknowledgement.
   */
  public void onListChanged(Area area, Runnable listener) {
    Objects.requireNonNull(listeners.listChanged.get(area))
        .add(Objects.requireNonNull(listener)); // every area has a list
    if (era() == ProtocolVersion.Era.MODERN) {
      listenFor(EnumSet.of(area));
    }
  }

  /** The areas a list-change listen is open for (2026-07-28), so each is opened once. */
  private final Set<Area> listChangeListens = ConcurrentHashMap.newKeySet();

  /**
   * Opens one {@code subscriptions/listen} for those of {@code areas} the server announces and no
   * listen covers yet; its notifications run the area's list-change listeners.
   */
  private void listenFor(Set<Area> areas) {
    ServerCapabilities caps = serverCapabilities();
    boolean t = areas.contains(Area.TOOLS) && caps.toolsListChanged();
    boolean p = areas.contains(Area.PROMPTS) && caps.promptsListChanged();
    boolean r = areas.contains(Area.RESOURCES) && caps.resourcesListChanged();
    t = t && listChangeListens.add(Area.TOOLS);
    p = p && listChangeListens.add(Area.PROMPTS);
    r = r && listChangeListens.add(Area.RESOURCES);
    if (!t && !p && !r) {
      return;
    }
    try {
      listen(
          new SubscriptionFilter(
              t ? Boolean.TRUE : null,
              p ? Boolean.TRUE : null,
              r ? Boolean.TRUE : null,
              null,
              null),
          new SubscriptionListener() {
            @Override
            public void listChanged(Area area) {
              Objects.requireNonNull(listeners.listChanged.get(area)).forEach(Runnable::run);
            }
          });
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
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
    if (capabilities.supportsRootsListChanged() && era() == ProtocolVersion.Era.LEGACY) {
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
    invalidate(area);
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
    JsonNode node =
        await(send(method, McpJson.toObject(params), CallOptions.defaults(), null).result());
    return type == JsonNode.class ? type.cast(node) : McpJson.resultFromTree(node, type);
  }

  /** Sends a request of this client, with the request metadata of its era. */
  OutboundCall send(String method, @Nullable ObjectNode params, CallOptions options) {
    return send(method, params, options, null);
  }

  private OutboundCall send(
      String method,
      @Nullable ObjectNode params,
      CallOptions options,
      java.util.function.@Nullable Consumer<JsonNode> inOrder) {
    return engine.request(method, paramsFor(version, params, options), options, null, inOrder);
  }

  /**
   * {@code params} with the request metadata of {@code v} in {@code _meta}: in 2026-07-28 the
   * protocol version, the client's capabilities with the call's own added, {@code clientInfo} and
   * the log level the host asked for (MCP 2026-07-28 basic/index, "_meta"; the progress token is
   * added by the engine); in the handshake era only the call's own capabilities, when it has some
   * (SEP-2575). Keys the caller put in {@code _meta} stay unless they are these.
   */
  @Nullable ObjectNode paramsFor(
      ProtocolVersion v, @Nullable ObjectNode params, CallOptions options) {
    ClientCapabilities extra = options.capabilities();
    ObjectNode ours;
    if (!v.handshake()) {
      ours =
          new RequestMeta(
                  v, modernCapabilities().union(extra), settings.info(), requestedLevel, null)
              .toMeta();
    } else if (extra != null) {
      ours = McpJson.object();
      ours.set(MetaKeys.CLIENT_CAPABILITIES, McpJson.toTree(extra));
    } else {
      return params;
    }
    ObjectNode out = params == null ? McpJson.object() : params.deepCopy();
    ObjectNode meta = out.get("_meta") instanceof ObjectNode m ? m : McpJson.object();
    meta.setAll(ours);
    out.set("_meta", meta);
    return out;
  }

  /**
   * What a 2026-07-28 request declares: the client's capabilities without the handshake-era
   * {@code tasks} member, plus the {@code io.modelcontextprotocol/tasks} extension when the builder
   * kept it on.
   */
  private ClientCapabilities modernCapabilities() {
    ClientCapabilities c = capabilities;
    ObjectNode ext = c.extensions();
    if (settings.tasks().extension()) {
      ext = ext == null ? McpJson.object() : ext.deepCopy();
      if (!ext.has(dev.herald.wire.TasksExtension.ID)) {
        ext.set(dev.herald.wire.TasksExtension.ID, McpJson.object());
      }
    }
    return new ClientCapabilities(
        c.experimental(), c.roots(), c.sampling(), c.elicitation(), null, ext);
  }

  /** On the reader, as the {@code initialize} answer arrives: what the server declared. */
  void learnCapabilities(JsonNode initializeResult) {
    announced = McpJson.resultFromTree(initializeResult, InitializeResult.class).capabilities();
  }

  /** On the reader, as a {@code server/discover} answer arrives: what the server declared. */
  void learnDiscovered(JsonNode result) {
    DiscoverResult d = Negotiation.asDiscover(result);
    if (d != null) {
      discoveredAt = settings.ticker().nanos();
      discovered.set(d);
      announced = d.capabilities();
    }
  }

  /** The version the client speaks from now on (set by the negotiation at each attempt). */
  void speaking(ProtocolVersion v) {
    version = v;
  }

  /** Whether the current session's connection is up. */
  boolean connected() {
    return engine.isOpen();
  }

  /** Runs {@code task} on the listener thread, in order. */
  void tell(Runnable task) {
    listeners.run(task);
  }

  /** Adds a subscription's listener to an area's list changes; returns its removal. */
  Runnable addListChanged(Area area, SubscriptionListener listener) {
    Runnable r = () -> listener.listChanged(area);
    CopyOnWriteArrayList<Runnable> list = Objects.requireNonNull(listeners.listChanged.get(area));
    list.add(r);
    return () -> list.remove(r);
  }

  private void handshake(SessionEngine engine, Transport wire) throws InterruptedException {
    engine.start();
    Negotiation.Negotiated agreed;
    try {
      agreed = new Negotiation(this, engine, wire, settings).run();
    } catch (RuntimeException | InterruptedException e) {
      engine.close();
      throw e;
    }
    version = agreed.version();
    if (agreed.initialize() != null) {
      init.set(agreed.initialize());
      discovered.set(null);
      if (restarter != null) {
        restarter.watch(engine);
      }
    } else {
      listenForBuilderListeners();
    }
  }

  /**
   * In the 2026-07-28 era list changes arrive only on a {@code subscriptions/listen}: the
   * list-change listeners given to the builder get one, for the areas the server says it announces,
   * so they hear what they would hear on a handshake-era session.
   */
  private void listenForBuilderListeners() {
    Map<Area, List<Runnable>> given = settings.listChangedListeners();
    Set<Area> areas = EnumSet.noneOf(Area.class);
    for (Area a : Area.values()) {
      if (!given.getOrDefault(a, List.of()).isEmpty()) {
        areas.add(a);
      }
    }
    listenFor(areas);
  }

  /**
   * What the {@link SessionRestarter} does to this client: a new session from the frozen settings;
   * once it is up, it replaces the lost one, the caches go stale, and the subscriptions and the log
   * level the host set up are restored on it.
   */
  private final class Restarts implements SessionRestarter.Host {
    @Override
    public SessionEngine open(Transport transport) throws InterruptedException {
      ModernWire wire = new ModernWire(transport, listens::take);
      SessionEngine next = newEngine(wire);
      handshake(next, wire);
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
    private ProtocolVersion legacyVersion = ProtocolVersion.LATEST_LEGACY;
    private ProtocolVersion modernVersion = ProtocolVersion.LATEST;
    private EraPreference eras = EraPreference.LATEST;
    private Duration discoverTimeout = Duration.ofSeconds(10);
    private int maxInputRounds = 8;
    private java.util.function.Supplier<@Nullable String> cacheIdentity = () -> "connection";
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
    private ClientTasks tasks = ClientTasks.DEFAULTS;

    private Builder() {}

    /**
     * Whether 2026-07-28 requests declare the tasks extension ({@code
     * extensions["io.modelcontextprotocol/tasks"] = {}} in their per-request capabilities), so a
     * server may answer a {@code tools/call} with a task; {@link McpClient#callTool} then follows
     * it to the final result without the caller noticing (default: on; a server that needs a task
     * for a tool answers -32021 to a client without it).
     */
    public Builder taskExtension(boolean enabled) {
      this.tasks = new ClientTasks(enabled, tasks.ttl(), tasks.host());
      return this;
    }

    /**
     * The retention asked for in a 2025-11-25 task-augmented {@code tools/call} ({@code
     * params.task.ttl}; the server may grant another). Default: none asked.
     *
     * @throws IllegalArgumentException if zero or negative
     */
    public Builder taskTtl(Duration ttl) {
      if (ttl.isZero() || ttl.isNegative()) {
        throw new IllegalArgumentException("taskTtl must be positive, was " + ttl);
      }
      this.tasks = new ClientTasks(tasks.extension(), ttl, tasks.host());
      return this;
    }

    /**
     * Whether the client hosts tasks (MCP 2025-11-25 basic/utilities/tasks, the client as
     * receiver): it declares {@code tasks.requests.sampling.createMessage} and {@code
     * tasks.requests.elicitation.create} (for the handlers it has), {@code tasks.list} and {@code
     * tasks.cancel}, answers a task-augmented request with a task at once, runs the handler in the
     * background and serves {@code tasks/get|result|list|cancel} and {@code
     * notifications/tasks/status} for it. Default: off.
     */
    public Builder hostTasks(boolean enabled) {
      this.tasks = new ClientTasks(tasks.extension(), tasks.ttl(), enabled);
      return this;
    }

    /**
     * Adds an interceptor that every request the server sends ({@code ping}, {@code
     * sampling/createMessage}, {@code elicitation/create}, {@code roots/list}) runs through, after
     * the ones added before it and before Herald's own gates (method and protocol version,
     * declared capability) and the host's handler; see {@link Interceptor} for the contract. Use
     * it to audit or refuse what a server asks of the host. Its {@link Interceptor#sending} also
     * sees every request this client sends, and may add {@code _meta} entries to it (trace
     * context). Default: none.
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
      return eventListenerFactory(new OneListener(listener));
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
     * Pins the protocol version: the client speaks exactly this one, in its era, and fails {@code
     * connect} when the server does not (default: none pinned, {@link EraPreference#LATEST}). A
     * handshake version is offered in {@code initialize} ({@link EraPreference#HANDSHAKE_ONLY}); a
     * 2026-07-28 one is named in every request's {@code _meta} ({@link
     * EraPreference#MODERN_ONLY}). Replaces an earlier {@link #eras}.
     *
     * @throws NullPointerException if {@code version} is null
     */
    public Builder protocolVersion(ProtocolVersion version) {
      Objects.requireNonNull(version, "version");
      if (version.handshake()) {
        this.legacyVersion = version;
        this.eras = EraPreference.HANDSHAKE_ONLY;
      } else {
        this.modernVersion = version;
        this.eras = EraPreference.MODERN_ONLY;
      }
      return this;
    }

    /**
     * Which era the client tries first and whether it may change era (default {@link
     * EraPreference#LATEST}: 2026-07-28 first, the handshake when the server answers as a
     * handshake-era server). The versions tried are the newest of each era unless {@link
     * #protocolVersion} pinned one. Replaces an earlier {@link #protocolVersion} pin (keeping its
     * version as the one offered in its era).
     *
     * @throws NullPointerException if {@code eras} is null
     */
    public Builder eras(EraPreference eras) {
      this.eras = Objects.requireNonNull(eras, "eras");
      return this;
    }

    /**
     * How long the {@code server/discover} probe waits before the client takes the server for a
     * handshake-era one that ignores unknown requests (default 10 s; MCP 2026-07-28
     * basic/transports/stdio, "Backward Compatibility": a timeout falls back to {@code initialize}).
     *
     * @throws IllegalArgumentException if zero or negative
     */
    public Builder discoverTimeout(Duration timeout) {
      if (timeout.isZero() || timeout.isNegative()) {
        throw new IllegalArgumentException("discoverTimeout must be positive, was " + timeout);
      }
      this.discoverTimeout = timeout;
      return this;
    }

    /**
     * How many rounds one {@code tools/call}, {@code prompts/get} or {@code resources/read} may
     * take when a 2026-07-28 server keeps answering {@code input_required} (default 8); the round
     * after the last fails the call with an {@link McpException} saying so.
     *
     * @throws IllegalArgumentException if less than 1
     */
    public Builder maxInputRounds(int rounds) {
      if (rounds < 1) {
        throw new IllegalArgumentException("maxInputRounds must be at least 1, was " + rounds);
      }
      this.maxInputRounds = rounds;
      return this;
    }

    /**
     * Who the transport's credentials speak for, asked each time a list page is cached or looked
     * up (default: one fixed identity, the connection's). A page the server marked {@code
     * cacheScope: "private"} is served only to the identity that fetched it (MCP 2026-07-28
     * server/utilities/caching: private entries never cross authorization contexts); return the
     * principal of the current token when it can change during the connection, or {@code null} to
     * keep no private page at all. Public pages are shared.
     */
    public Builder cacheIdentity(java.util.function.Supplier<@Nullable String> identity) {
      this.cacheIdentity = Objects.requireNonNull(identity, "identity");
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
     * off the transport's reader. With a 2026-07-28 server, where list changes arrive only on a
     * {@code subscriptions/listen}, the client opens one listen at connect for the areas that have
     * such listeners and that the server announces.
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
              hostedTasks(),
              null);
      return capabilities.union(declared);
    }

    /** {@code capabilities.tasks} when the client hosts tasks, for the handlers it has. */
    private @Nullable ObjectNode hostedTasks() {
      if (!tasks.host() || (sampling == null && elicitation == null)) {
        return null;
      }
      ObjectNode t = McpJson.object();
      t.putObject("list");
      t.putObject("cancel");
      ObjectNode requests = t.putObject("requests");
      if (sampling != null) {
        requests.putObject("sampling").putObject("createMessage");
      }
      if (elicitation != null) {
        requests.putObject("elicitation").putObject("create");
      }
      return t;
    }

    /** What this builder says now, frozen for a client that connects with {@code transports}. */
    ClientSettings snapshot(java.util.function.@Nullable Supplier<Transport> transports) {
      return new ClientSettings(
          info,
          effectiveCapabilities(),
          legacyVersion,
          modernVersion,
          eras,
          discoverTimeout,
          maxInputRounds,
          cacheIdentity,
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
          eventListeners,
          tasks);
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
      try {
        client.handshake(client.engine, client.wire);
      } catch (RuntimeException | InterruptedException e) {
        client.close();
        throw e;
      }
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
