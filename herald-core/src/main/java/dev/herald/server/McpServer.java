package dev.herald.server;

import dev.herald.session.Scheduler;
import dev.herald.session.Ticker;
import dev.herald.transport.Transport;
import dev.herald.transport.stdio.StdioTransport;
import dev.herald.wire.Implementation;
import dev.herald.wire.LoggingLevel;
import dev.herald.wire.Tool;
import java.time.Duration;
import java.util.List;
import java.util.Objects;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentSkipListMap;
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

    private Builder() {}

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
