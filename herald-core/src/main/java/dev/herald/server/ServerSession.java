package dev.herald.server;

import dev.herald.session.SessionEngine;
import dev.herald.transport.Transport;
import dev.herald.wire.ClientCapabilities;
import dev.herald.wire.Implementation;
import dev.herald.wire.LoggingLevel;
import dev.herald.wire.LoggingMessageParams;
import dev.herald.wire.McpJson;
import dev.herald.wire.McpMethods;
import dev.herald.wire.ProtocolVersion;
import dev.herald.wire.RequestId;
import dev.herald.wire.ResourceUpdatedParams;
import dev.herald.wire.ServerCapabilities;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.atomic.AtomicReference;
import java.util.concurrent.atomic.LongAdder;
import org.jspecify.annotations.Nullable;

/**
 * One client's session with an {@link McpServer}: its lifecycle, the capabilities both sides
 * declared at bring-up (fixed for the session), its log level, and the gate that decides what may
 * be sent to it.
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
  private final AtomicReference<State> state = new AtomicReference<>(State.NEW);
  private volatile @Nullable Implementation clientInfo;
  private volatile ClientCapabilities clientCapabilities = ClientCapabilities.none();
  private volatile LoggingLevel logLevel;
  private final LongAdder gated = new LongAdder();
  private volatile ServerCapabilities declared = ServerCapabilities.none();
  private final ReverseCalls.RootsCache rootsCache = new ReverseCalls.RootsCache();

  ServerSession(McpServer server, Transport transport) {
    this.server = server;
    this.logLevel = server.defaultLogLevel;
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
    engine.closed().whenComplete((c, e) -> state.set(State.CLOSED));
  }

  void start() {
    engine.start();
  }

  /** The session engine under this session. */
  public SessionEngine engine() {
    return engine;
  }

  public McpServer server() {
    return server;
  }

  public State state() {
    return state.get();
  }

  public Optional<Implementation> clientInfo() {
    return Optional.ofNullable(clientInfo);
  }

  /** What the client declared at bring-up. */
  public ClientCapabilities clientCapabilities() {
    return clientCapabilities;
  }

  public Optional<ProtocolVersion> protocolVersion() {
    return engine.version();
  }

  public LoggingLevel logLevel() {
    return logLevel;
  }

  /** What the server declared to this session at bring-up (none before {@code initialize}). */
  public ServerCapabilities serverCapabilities() {
    return declared;
  }

  /** The resource uris this session is subscribed to. */
  public Set<String> subscriptions() {
    return server.subscriptions.of(this);
  }

  /** Notifications not sent because a gate was closed. */
  public long gatedCount() {
    return gated.sum();
  }

  /** Ends the session. */
  public void close() {
    engine.close();
  }

  // ---------------------------------------------------------------- lifecycle, called by ServerMethods

  boolean beginInitialize(Implementation client, ClientCapabilities caps, ProtocolVersion version) {
    if (!state.compareAndSet(State.NEW, State.INITIALIZING)) {
      return false;
    }
    this.clientInfo = client;
    this.clientCapabilities = caps;
    engine.version(version);
    return true;
  }

  private void onInitialized() {
    state.compareAndSet(State.INITIALIZING, State.OPERATING);
  }

  void declared(ServerCapabilities capabilities) {
    this.declared = capabilities;
  }

  ReverseCalls.RootsCache rootsCache() {
    return rootsCache;
  }

  void logLevel(LoggingLevel level) {
    this.logLevel = level;
  }

  // ---------------------------------------------------------------- outbound, gated

  /**
   * Sends a log message if the session's level admits it. Before {@code initialized} only logs and
   * pings may be sent, so logs pass that gate.
   *
   * @param relatedTo the request whose handler logs, or {@code null}
   */
  public void log(LoggingLevel level, @Nullable String logger, Object data, @Nullable RequestId relatedTo) {
    if (!level.admittedBy(logLevel) || state.get() == State.NEW || state.get() == State.CLOSED) {
      gated.increment();
      return;
    }
    LoggingMessageParams params = new LoggingMessageParams(level, logger, McpJson.toTree(data), null);
    try {
      engine.notify(McpMethods.MESSAGE, McpJson.toObject(params), relatedTo);
    } catch (RuntimeException e) {
      gated.increment();
    }
  }

  /** Tells this session its tool list changed, if it may be told. */
  void toolsListChanged() {
    if (state.get() != State.OPERATING) {
      gated.increment();
      return;
    }
    try {
      engine.notify(McpMethods.TOOLS_LIST_CHANGED, null, null);
    } catch (RuntimeException e) {
      gated.increment();
    }
  }

  /** Tells this session its resource list changed, if it may be told. */
  void resourcesListChanged() {
    if (!declared.resourcesListChanged()) {
      gated.increment();
      return;
    }
    listChanged(McpMethods.RESOURCES_LIST_CHANGED);
  }

  /** Tells this session its prompt list changed, if it may be told. */
  void promptsListChanged() {
    if (!declared.promptsListChanged()) {
      gated.increment();
      return;
    }
    listChanged(McpMethods.PROMPTS_LIST_CHANGED);
  }

  private void listChanged(String method) {
    if (state.get() != State.OPERATING) {
      gated.increment();
      return;
    }
    try {
      engine.notify(method, null, null);
    } catch (RuntimeException e) {
      gated.increment();
    }
  }

  /** Sends {@code notifications/resources/updated} (the caller checked the subscription); false if gated. */
  boolean resourceUpdated(String uri) {
    if (!declared.resourcesSubscribe() || state.get() != State.OPERATING) {
      gated.increment();
      return false;
    }
    try {
      engine.notify(McpMethods.RESOURCES_UPDATED, McpJson.toObject(ResourceUpdatedParams.of(uri)), null);
      return true;
    } catch (RuntimeException e) {
      gated.increment();
      return false;
    }
  }
}
