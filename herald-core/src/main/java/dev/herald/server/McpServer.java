package dev.herald.server;

import dev.herald.session.Scheduler;
import dev.herald.session.Ticker;
import dev.herald.transport.Transport;
import dev.herald.transport.stdio.StdioTransport;
import dev.herald.wire.Implementation;
import dev.herald.wire.CompletionReference;
import dev.herald.wire.LoggingLevel;
import dev.herald.wire.Prompt;
import dev.herald.wire.Resource;
import dev.herald.wire.ResourceTemplate;
import dev.herald.wire.Tool;
import java.time.Duration;
import java.util.List;
import java.util.Objects;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentSkipListMap;
import java.util.function.BiPredicate;
import org.jspecify.annotations.Nullable;

/**
 * An MCP server: owns the catalog (tools, and more as features land) and serves any number of
 * sessions, one per connection. Sessions are separate objects ({@link ServerSession}); a catalog
 * change notifies every session whose gate is open.
 *
 * {@snippet :
 * McpServer server = McpServer.builder()
 *     .info("my-server", "1.0.0")
 *     .tool(Tool.builder("echo").description("Echoes text").build(),
 *           call -> CallToolResult.text(call.string("text", "")))
 *     .build();
 * server.serveStdio(); // blocks until the client closes stdin
 * }
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
  final ConcurrentSkipListMap<String, RegisteredTool> tools = new ConcurrentSkipListMap<>();
  final Set<ServerSession> sessions = ConcurrentHashMap.newKeySet();
  final ResourceCatalog resourceCatalog = new ResourceCatalog(this::resourcesChanged);
  final PromptCatalog promptCatalog = new PromptCatalog(this::promptsChanged);
  final Completions completions = new Completions();
  final Subscriptions subscriptions;
  final BiPredicate<ServerSession, String> resourceAccess;
  final Pagination pagination;

  record RegisteredTool(Tool tool, ToolHandler handler) {}

  private McpServer(Builder b) {
    this.info = b.info;
    this.instructions = b.instructions;
    this.defaultLogLevel = b.defaultLogLevel;
    this.ticker = b.ticker;
    this.scheduler = b.scheduler;
    this.maxInFlight = b.maxInFlight;
    this.progressInterval = b.progressInterval;
    for (RegisteredTool t : b.tools) {
      tools.put(t.tool().name(), t);
    }
    this.subscriptions = new Subscriptions(b.maxSubscriptionsPerSession);
    this.resourceAccess = b.resourceAccess;
    this.pagination = new Pagination(b.pageSize);
    b.features.forEach(f -> f.accept(this));
  }

  public static Builder builder() {
    return new Builder();
  }

  public Implementation info() {
    return info;
  }

  /**
   * Serves one connection: starts a session on the transport and returns it at once. The session
   * ends when the transport closes or {@link ServerSession#close()} is called.
   */
  public ServerSession connect(Transport transport) {
    ServerSession session = new ServerSession(this, transport);
    sessions.add(session);
    session.engine().closed().whenComplete((cause, err) -> sessions.remove(session));
    session.engine().closed().whenComplete((cause, err) -> subscriptions.drop(session));
    session.start();
    return session;
  }

  /** Serves this process's stdin and stdout and blocks until the client closes stdin. */
  public void serveStdio() throws InterruptedException {
    ServerSession session = connect(StdioTransport.ofSystem());
    try {
      session.engine().closed().get();
    } catch (java.util.concurrent.ExecutionException e) {
      throw new IllegalStateException(e.getCause());
    }
  }

  /** Live sessions. */
  public List<ServerSession> sessions() {
    return List.copyOf(sessions);
  }

  /** The tools, sorted by name. */
  public List<Tool> tools() {
    return tools.values().stream().map(RegisteredTool::tool).toList();
  }

  /** Adds or replaces a tool at run time; sessions that may be told are sent {@code tools/list_changed}. */
  public void addTool(Tool tool, ToolHandler handler) {
    tools.put(tool.name(), new RegisteredTool(Objects.requireNonNull(tool), Objects.requireNonNull(handler)));
    toolsChanged();
  }

  /** Removes a tool; returns false if there was none by that name. */
  public boolean removeTool(String name) {
    boolean removed = tools.remove(name) != null;
    if (removed) {
      toolsChanged();
    }
    return removed;
  }

  private void toolsChanged() {
    for (ServerSession s : sessions) {
      s.toolsListChanged();
    }
  }

  /**
   * The resources and resource templates; changes made through it send {@code
   * resources/list_changed} to every session that may be told.
   */
  public ResourceCatalog resources() {
    return resourceCatalog;
  }

  /** The prompts; changes made through it send {@code prompts/list_changed} to every session that may be told. */
  public PromptCatalog prompts() {
    return promptCatalog;
  }

  /**
   * Tells the sessions subscribed to {@code uri} (and only those) that it changed: one {@code
   * notifications/resources/updated} per subscribed session. Returns how many sessions were told.
   */
  public int notifyResourceUpdated(String uri) {
    Objects.requireNonNull(uri, "uri");
    int sent = 0;
    for (ServerSession s : subscriptions.subscribers(uri)) {
      if (s.resourceUpdated(uri)) {
        sent++;
      }
    }
    return sent;
  }

  private void resourcesChanged() {
    for (ServerSession s : sessions) {
      s.resourcesListChanged();
    }
  }

  private void promptsChanged() {
    for (ServerSession s : sessions) {
      s.promptsListChanged();
    }
  }

  /** Builds an {@link McpServer}. */
  public static final class Builder {
    private Implementation info = Implementation.of("herald-server", "0.1.0");
    private @Nullable String instructions;
    private LoggingLevel defaultLogLevel = LoggingLevel.INFO;
    private Ticker ticker = Ticker.system();
    private Scheduler scheduler = Scheduler.system();
    private int maxInFlight = 256;
    private Duration progressInterval = Duration.ofMillis(50);
    private final java.util.LinkedHashMap<String, RegisteredTool> toolsByName = new java.util.LinkedHashMap<>();
    private final List<RegisteredTool> tools = new java.util.ArrayList<>();
    private final List<java.util.function.Consumer<McpServer>> features = new java.util.ArrayList<>();
    private final Set<String> resourceUris = new java.util.HashSet<>();
    private final Set<String> templateUris = new java.util.HashSet<>();
    private final Set<String> promptNames = new java.util.HashSet<>();
    private int maxSubscriptionsPerSession = Subscriptions.DEFAULT_MAX_PER_SESSION;
    private BiPredicate<ServerSession, String> resourceAccess = (session, uri) -> true;
    private int pageSize = Pagination.DEFAULT_PAGE_SIZE;

    private Builder() {}

    /**
     * Registers a resource. The server then declares {@code resources: {subscribe: true,
     * listChanged: true}}.
     *
     * @throws IllegalArgumentException if a resource with that uri was already registered
     */
    public Builder resource(Resource resource, ResourceHandler handler) {
      Objects.requireNonNull(resource, "resource");
      Objects.requireNonNull(handler, "handler");
      if (!resourceUris.add(resource.uri())) {
        throw new IllegalArgumentException("resource " + resource.uri() + " was already registered");
      }
      features.add(s -> s.resourceCatalog.put(resource, handler, false));
      return this;
    }

    /**
     * Registers a resource template (RFC 6570 level 1: {@code {name}} variables only).
     *
     * @throws IllegalArgumentException if the template is not level 1, or was already registered
     */
    public Builder resourceTemplate(ResourceTemplate template, ResourceHandler handler) {
      Objects.requireNonNull(template, "template");
      Objects.requireNonNull(handler, "handler");
      UriTemplate.parse(template.uriTemplate());
      if (!templateUris.add(template.uriTemplate())) {
        throw new IllegalArgumentException("resource template " + template.uriTemplate() + " was already registered");
      }
      features.add(s -> s.resourceCatalog.putTemplate(template, handler, false));
      return this;
    }

    /**
     * Registers a prompt. The server then declares {@code prompts: {listChanged: true}}.
     *
     * @throws IllegalArgumentException if a prompt with that name was already registered
     */
    public Builder prompt(Prompt prompt, PromptHandler handler) {
      Objects.requireNonNull(prompt, "prompt");
      Objects.requireNonNull(handler, "handler");
      if (!promptNames.add(prompt.name())) {
        throw new IllegalArgumentException("prompt " + prompt.name() + " was already registered");
      }
      features.add(s -> s.promptCatalog.put(prompt, handler, false));
      return this;
    }

    /**
     * Registers the completion handler for a prompt's arguments ({@code PromptReference.of(name)})
     * or a resource template's variables ({@code ResourceTemplateReference.of(uriTemplate)}). The
     * server then declares {@code completions: {}}.
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

    /** Most resource subscriptions one session may hold (default 100). */
    public Builder maxSubscriptionsPerSession(int max) {
      if (max < 1) {
        throw new IllegalArgumentException("maxSubscriptionsPerSession must be at least 1, was " + max);
      }
      this.maxSubscriptionsPerSession = max;
      return this;
    }

    /** Items per page of every list method (default 50). */
    public Builder pageSize(int size) {
      if (size < 1) {
        throw new IllegalArgumentException("pageSize must be at least 1, was " + size);
      }
      this.pageSize = size;
      return this;
    }

    public Builder info(String name, String version) {
      this.info = Implementation.of(name, version);
      return this;
    }

    public Builder info(Implementation info) {
      this.info = Objects.requireNonNull(info, "info");
      return this;
    }

    public Builder instructions(String instructions) {
      this.instructions = instructions;
      return this;
    }

    /**
     * The level each session starts at until it sends {@code logging/setLevel} (default {@code
     * info}).
     */
    public Builder defaultLogLevel(LoggingLevel level) {
      this.defaultLogLevel = Objects.requireNonNull(level, "level");
      return this;
    }

    /**
     * Registers a tool.
     *
     * @throws IllegalArgumentException if a tool with that name was already registered
     */
    public Builder tool(Tool tool, ToolHandler handler) {
      Objects.requireNonNull(tool, "tool");
      Objects.requireNonNull(handler, "handler");
      RegisteredTool t = new RegisteredTool(tool, handler);
      if (toolsByName.putIfAbsent(tool.name(), t) != null) {
        throw new IllegalArgumentException("tool " + tool.name() + " was already registered");
      }
      tools.add(t);
      return this;
    }

    public Builder ticker(Ticker ticker) {
      this.ticker = Objects.requireNonNull(ticker);
      return this;
    }

    public Builder scheduler(Scheduler scheduler) {
      this.scheduler = Objects.requireNonNull(scheduler);
      return this;
    }

    public Builder maxInFlight(int max) {
      if (max < 1) {
        throw new IllegalArgumentException("maxInFlight must be at least 1, was " + max);
      }
      this.maxInFlight = max;
      return this;
    }

    /** Cadence of progress notifications per request (default 50 ms); ZERO sends every update. */
    public Builder progressInterval(Duration interval) {
      if (interval.isNegative()) {
        throw new IllegalArgumentException("progressInterval must not be negative");
      }
      this.progressInterval = interval;
      return this;
    }

    public McpServer build() {
      return new McpServer(this);
    }
  }
}
