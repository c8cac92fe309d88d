package dev.herald.client;

import dev.herald.session.CallOptions;
import dev.herald.session.InboundCall;
import dev.herald.session.Scheduler;
import dev.herald.session.SessionEngine;
import dev.herald.session.Ticker;
import dev.herald.transport.Transport;
import dev.herald.transport.TransportException;
import dev.herald.wire.CallToolParams;
import dev.herald.wire.CallToolResult;
import dev.herald.wire.ClientCapabilities;
import dev.herald.wire.Implementation;
import dev.herald.wire.InitializeParams;
import dev.herald.wire.InitializeResult;
import dev.herald.wire.ListToolsResult;
import dev.herald.wire.LoggingLevel;
import dev.herald.wire.LoggingMessageParams;
import dev.herald.wire.McpException;
import dev.herald.wire.McpJson;
import dev.herald.wire.McpMethods;
import dev.herald.wire.PaginatedParams;
import dev.herald.wire.ProtocolVersion;
import dev.herald.wire.ServerCapabilities;
import dev.herald.wire.SetLevelParams;
import dev.herald.wire.Tool;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Objects;
import java.util.Set;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ExecutionException;
import java.util.function.Consumer;
import org.jspecify.annotations.Nullable;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * A connected MCP client: one session with one server.
 *
 * {@snippet :
 * try (McpClient client = McpClient.builder()
 *     .info("my-host", "1.0")
 *     .connect(SubprocessTransport.builder("herald", "serve", "--stdio").build())) {
 *   CallToolResult result = client.callTool("slow", args,
 *       CallOptions.builder()
 *           .progress(update -> System.out.println(update.progress() + "/" + update.total()))
 *           .idleTimeout(Duration.ofSeconds(30))
 *           .timeout(Duration.ofMinutes(5))
 *           .build());
 * }
 * }
 *
 * <p>Thread-safe: any number of threads may call at once; each call's progress goes to its own
 * listener only.
 */
public final class McpClient implements AutoCloseable {
  private final SessionEngine engine;
  private final InitializeResult init;
  private final ProtocolVersion version;
  private final CopyOnWriteArrayList<Consumer<LoggingMessageParams>> logListeners;

  private McpClient(SessionEngine engine, InitializeResult init, ProtocolVersion version, CopyOnWriteArrayList<Consumer<LoggingMessageParams>> logListeners) {
    this.engine = engine;
    this.init = init;
    this.version = version;
    this.logListeners = logListeners;
  }

  public static Builder builder() {
    return new Builder();
  }

  public Implementation serverInfo() {
    return init.serverInfo();
  }

  public ServerCapabilities serverCapabilities() {
    return init.capabilities();
  }

  public @Nullable String instructions() {
    return init.instructions();
  }

  public ProtocolVersion protocolVersion() {
    return version;
  }

  /** The session engine under this client (stats, pending counts). */
  public SessionEngine session() {
    return engine;
  }

  /** Sends {@code ping} and waits for the answer. */
  public void ping() throws InterruptedException {
    await(engine.request(McpMethods.PING, null).result());
  }

  /** Every tool, all pages fetched. */
  public List<Tool> listTools() throws InterruptedException {
    List<Tool> out = new ArrayList<>();
    Set<String> seen = new HashSet<>();
    String cursor = null;
    do {
      JsonNode node = await(engine.request(McpMethods.TOOLS_LIST, McpJson.toObject(PaginatedParams.after(cursor))).result());
      ListToolsResult page = McpJson.resultFromTree(node, ListToolsResult.class);
      out.addAll(page.tools());
      cursor = page.nextCursor();
      if (cursor != null && !seen.add(cursor)) {
        throw new McpException(dev.herald.wire.ErrorCodes.INTERNAL_ERROR, "server repeated a pagination cursor");
      }
    } while (cursor != null);
    return out;
  }

  /** Calls a tool and waits for its result, with the connection's default options. */
  public CallToolResult callTool(String name, @Nullable ObjectNode arguments) throws InterruptedException {
    return callTool(name, arguments, CallOptions.defaults());
  }

  /** Calls a tool and waits for its result. */
  public CallToolResult callTool(String name, @Nullable ObjectNode arguments, CallOptions options) throws InterruptedException {
    return callToolAsync(name, arguments, options).await();
  }

  /** Starts a tool call; the handle gives its result, its progress record and cancellation. */
  public ToolCallHandle callToolAsync(String name, @Nullable ObjectNode arguments, CallOptions options) {
    ObjectNode params = McpJson.toObject(CallToolParams.of(name, arguments));
    return new ToolCallHandle(engine.request(McpMethods.TOOLS_CALL, params, options, null));
  }

  /** Asks the server to send logs at {@code level} and above. */
  public void setLoggingLevel(LoggingLevel level) throws InterruptedException {
    await(engine.request(McpMethods.LOGGING_SET_LEVEL, McpJson.toObject(new SetLevelParams(level.wire(), null))).result());
  }

  /** Adds a listener for log messages; called in order, off the transport's reader. */
  public void onLog(Consumer<LoggingMessageParams> listener) {
    logListeners.add(Objects.requireNonNull(listener));
  }

  /** Ends the session and closes the transport (for a subprocess: stdin, SIGTERM, SIGKILL). */
  @Override
  public void close() {
    engine.close();
  }

  static <T> T await(java.util.concurrent.CompletableFuture<T> future) throws InterruptedException {
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
    private final List<Runnable> toolsChangedListeners = new ArrayList<>();

    private Builder() {}

    public Builder info(String name, String version) {
      this.info = Implementation.of(name, version);
      return this;
    }

    public Builder info(Implementation info) {
      this.info = Objects.requireNonNull(info);
      return this;
    }

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

    /** Default clocks for every call that sets none. */
    public Builder defaultCallOptions(CallOptions options) {
      this.defaults = Objects.requireNonNull(options);
      return this;
    }

    public Builder initializeTimeout(Duration timeout) {
      this.initializeTimeout = Objects.requireNonNull(timeout);
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

    /** A log listener registered before the handshake, so no early log is missed. */
    public Builder onLog(Consumer<LoggingMessageParams> listener) {
      logListeners.add(Objects.requireNonNull(listener));
      return this;
    }

    /**
     * A listener for {@code notifications/tools/list_changed}: the server's tool list changed and
     * the next {@link McpClient#listTools()} will see it. Called in arrival order, off the
     * transport's reader, on the same thread as log listeners.
     */
    public Builder onToolsListChanged(Runnable listener) {
      toolsChangedListeners.add(Objects.requireNonNull(listener));
      return this;
    }

    /**
     * Connects: starts the transport, sends {@code initialize}, checks the server's version, sends
     * {@code notifications/initialized}.
     *
     * @throws TransportException if the connection fails
     * @throws McpException if the server refuses or answers with a version Herald does not speak
     */
    public McpClient connect(Transport transport) throws InterruptedException {
      CopyOnWriteArrayList<Consumer<LoggingMessageParams>> listeners = new CopyOnWriteArrayList<>(logListeners);
      List<Runnable> toolsChanged = List.copyOf(toolsChangedListeners);
      java.util.concurrent.Executor logExecutor = java.util.concurrent.Executors.newSingleThreadExecutor(
          Thread.ofVirtual().name("herald-client-logs").factory());
      SessionEngine engine =
          SessionEngine.builder()
              .name("client")
              .transport(transport)
              .requests(ClientMethods::handle)
              .onNotification(McpMethods.MESSAGE, params -> {
                LoggingMessageParams p;
                try {
                  p = McpJson.fromTree(params, LoggingMessageParams.class);
                } catch (McpException e) {
                  return;
                }
                logExecutor.execute(() -> listeners.forEach(l -> l.accept(p)));
              })
              .onNotification(McpMethods.TOOLS_LIST_CHANGED, params -> {
                if (!toolsChanged.isEmpty()) {
                  logExecutor.execute(() -> toolsChanged.forEach(Runnable::run));
                }
              })
              .ticker(ticker)
              .scheduler(scheduler)
              .defaultCallOptions(defaults)
              .build();
      engine.start();
      InitializeResult result;
      try {
        JsonNode node = await(engine.request(
                McpMethods.INITIALIZE,
                McpJson.toObject(new InitializeParams(version.wire(), capabilities, info, null)),
                CallOptions.builder().timeout(initializeTimeout).build(),
                null)
            .result());
        result = McpJson.resultFromTree(node, InitializeResult.class);
      } catch (RuntimeException | InterruptedException e) {
        engine.close();
        throw e;
      }
      ProtocolVersion agreed = ProtocolVersion.parse(result.protocolVersion()).filter(ProtocolVersion::handshake).orElse(null);
      if (agreed == null) {
        engine.close();
        throw new McpException(
            dev.herald.wire.ErrorCodes.INVALID_REQUEST,
            "server chose protocol version " + result.protocolVersion() + ", which this client does not support");
      }
      engine.version(agreed);
      engine.notify(McpMethods.INITIALIZED, null, null);
      return new McpClient(engine, result, agreed, listeners);
    }
  }

  /** The client's answers to server requests; grows with sampling, elicitation and roots. */
  static final class ClientMethods {
    private ClientMethods() {}

    static JsonNode handle(InboundCall call) {
      if (McpMethods.PING.equals(call.method())) {
        return McpJson.object();
      }
      throw McpException.methodNotFound(call.method());
    }
  }
}
