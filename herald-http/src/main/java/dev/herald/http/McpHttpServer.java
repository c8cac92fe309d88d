package dev.herald.http;

import dev.herald.server.McpServer;
import dev.herald.server.ServerSession;
import dev.herald.session.Scheduler;
import dev.herald.session.Ticker;
import dev.herald.wire.RequestId;
import java.net.URI;
import java.security.SecureRandom;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Base64;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Objects;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.LongAdder;
import java.util.concurrent.locks.ReentrantLock;
import org.eclipse.jetty.server.HttpConfiguration;
import org.eclipse.jetty.server.HttpConnectionFactory;
import org.eclipse.jetty.server.Server;
import org.eclipse.jetty.server.ServerConnector;
import org.eclipse.jetty.util.thread.QueuedThreadPool;
import org.jspecify.annotations.Nullable;

/**
 * Serves an {@link McpServer} over HTTP: the Streamable HTTP transport (protocol versions
 * 2025-03-26 to 2025-11-25) on one endpoint, and the 2024-11-05 HTTP+SSE transport beside it,
 * on Jetty 12 core handlers (no servlet container).
 *
 * {@snippet :
 * McpHttpServer http = McpHttpServer.builder()
 *     .server(server)          // an McpServer
 *     .port(8080)              // 0 (the default) picks a free port
 *     .build()
 *     .start();
 * URI endpoint = http.uri();   // http://127.0.0.1:8080/mcp
 * // ...
 * http.close();
 * }
 *
 * <p><b>The endpoint</b> ({@link Builder#path}, default {@code /mcp}):
 * <ul>
 *   <li>POST carries one JSON-RPC message ({@code Accept} must list {@code application/json} and
 *       {@code text/event-stream}, else 406; {@code Content-Type: application/json}, else 415; a
 *       batch is 400; a body over {@link Builder#maxBodyBytes} is 413; malformed or too deeply
 *       nested JSON is 400 with -32700). A notification or response is answered 202. A request
 *       holds the exchange open: if the first message for it is its response, the answer is
 *       {@code application/json}; if a notification or a server-to-client request comes first,
 *       the answer becomes {@code text/event-stream} and carries those, then the response, and
 *       ends.
 *   <li>{@code initialize} without {@code Mcp-Session-Id} creates a session; its id (128 random
 *       bits, URL-safe base64) comes back in the {@code Mcp-Session-Id} header. Every other
 *       request must carry it: missing is 400, unknown or ended is 404. DELETE ends a session.
 *       A session with no request, no stream and no activity for {@link
 *       Builder#sessionIdleTimeout} ends; at {@link Builder#maxSessions}, {@code initialize} is
 *       refused with 503.
 *   <li>GET ({@code Accept: text/event-stream}, else 406) opens the session's standing stream,
 *       which carries every message not tied to an open request (list changes, logs outside a
 *       call, logs after a call's response). One at a time: a second is 409. What is sent while
 *       none is open waits (bounded by the {@link EventStore}) and comes when one opens.
 *   <li>{@code MCP-Protocol-Version}: any supported version is accepted; missing means
 *       2025-03-26; anything else is 400.
 *   <li>{@code Host}, and {@code Origin} when present, must be this server's own loopback
 *       address (or on {@link Builder#allowedHosts}/{@link Builder#allowedOrigins}), else 403.
 * </ul>
 *
 * <p><b>Routing.</b> Each message goes on exactly one stream: the open stream of the request it
 * relates to (see {@link dev.herald.transport.Transport#send}), else the standing stream;
 * responses never go on the standing stream. A client that disconnects from a request's stream
 * has not cancelled it.
 *
 * <p><b>Resumability.</b> SSE events carry ids {@code <stream>_<seq>}, unique in the session.
 * A GET with {@code Last-Event-ID} replays the rest of that one stream from the {@link
 * EventStore} and then continues it live; for a request whose response is still to come, the
 * response arrives there. Sessions that negotiated 2025-11-25 or later get a priming event (an
 * id with empty data) at the start of each stream, and every stream starts with a {@code retry}
 * field ({@link Builder#sseRetry}). With {@link Builder#ssePollingInterval} set, a request still
 * running after that long has its connection closed after priming, and the client resumes with
 * GET (SSE polling); {@link #closeSseStream} does the same for one request.
 *
 * <p><b>Backpressure.</b> Each stream's outbound queue is bounded ({@link
 * Builder#streamQueueLimit}). Queued events are written together, one flush per batch. A reader
 * that falls behind the limit loses its connection, not the events: it can resume with {@code
 * Last-Event-ID}.
 *
 * <p><b>Legacy HTTP+SSE</b> ({@link Builder#legacySse}): GET {@code /sse} opens a session whose
 * first event, {@code endpoint}, names {@code /messages?sessionId=...}; client messages are
 * POSTed there (202) and everything from the server comes on the one stream.
 *
 * <p><b>Threading.</b> Jetty's threads parse requests and complete writes without blocking;
 * handlers run on the session engine's virtual threads; an open stream or a waiting request
 * holds no thread. Thread-safe.
 */
public final class McpHttpServer implements AutoCloseable {
  private static final System.Logger LOG = System.getLogger("dev.herald.http");
  private static final SecureRandom RANDOM = new SecureRandom();

  final McpServer mcp;
  private final String host;
  private final int requestedPort;
  final String path;
  final String legacySsePath;
  final String legacyPostPath;
  final boolean legacy;
  private final Set<String> extraOrigins;
  private final Set<String> extraHosts;
  final int maxSessions;
  final long idleTimeoutNanos;
  final int maxBodyBytes;
  final EventStore eventStore;
  final int queueFrames;
  final long queueBytes;
  final long pollAfterNanos;
  final byte[] retryField;
  final String retryText;
  private final long keepAliveNanos;
  private final long sweepNanos;
  final Ticker ticker;
  final Scheduler scheduler;

  final ConcurrentHashMap<String, HttpSession> sessions = new ConcurrentHashMap<>();
  final ConcurrentHashMap<String, LegacySession> legacySessions = new ConcurrentHashMap<>();
  private final AtomicInteger sessionCount = new AtomicInteger();
  final LongAdder slowReaderCloses = new LongAdder();
  private final ReentrantLock lifecycle = new ReentrantLock();
  // guarded by lifecycle
  private @Nullable Server jetty;
  private @Nullable ServerConnector connector;
  private Scheduler.@Nullable Cancellable sweep;
  private volatile boolean stopped;
  private volatile Set<String> allowedHosts = Set.of();
  private volatile Set<String> allowedOrigins = Set.of();

  private McpHttpServer(Builder b) {
    this.mcp = Objects.requireNonNull(b.server, "server(McpServer) is required");
    this.host = b.host;
    this.requestedPort = b.port;
    this.path = b.path;
    this.legacy = b.legacySse;
    this.legacySsePath = b.legacySsePath;
    this.legacyPostPath = b.legacyPostPath;
    this.extraOrigins = Set.copyOf(b.origins);
    this.extraHosts = Set.copyOf(b.hosts);
    this.maxSessions = b.maxSessions;
    this.idleTimeoutNanos = b.sessionIdleTimeout.toNanos();
    this.maxBodyBytes = b.maxBodyBytes;
    this.eventStore = b.eventStore == null ? EventStore.inMemory(512) : b.eventStore;
    this.queueFrames = b.queueFrames;
    this.queueBytes = b.queueBytes;
    this.pollAfterNanos = b.pollingInterval.toNanos();
    this.retryText = "retry: " + b.retry.toMillis() + "\n";
    this.retryField = HttpExchanges.ascii(retryText + "\n");
    this.keepAliveNanos = b.keepAlive.toNanos();
    this.sweepNanos = Math.max(1, Math.min(Duration.ofSeconds(1).toNanos(), Math.min(keepAliveNanos, idleTimeoutNanos) / 2));
    this.ticker = b.ticker;
    this.scheduler = b.scheduler;
  }

  /** A new builder. */
  public static Builder builder() {
    return new Builder();
  }

  /**
   * Binds and starts serving.
   *
   * @return this server
   * @throws IllegalStateException if already started or closed
   * @throws java.io.UncheckedIOException if the address cannot be bound
   */
  public McpHttpServer start() {
    lifecycle.lock();
    try {
      if (jetty != null || stopped) {
        throw new IllegalStateException("server already started or closed");
      }
      QueuedThreadPool threads = new QueuedThreadPool(64, 2);
      threads.setName("herald-http");
      threads.setDaemon(true);
      Server s = new Server(threads);
      // Jetty's per-connection header-field cache (HttpConfiguration.headerCacheSize, 1024 by
      // default) is built on a connection's second request as an ArrayTrie of about 80 KB and kept
      // for the connection's life. MCP clients reuse a pooled connection for the standing GET, so
      // each idle session held one: 92 KB per idle session instead of about 8 (docs/benchmarks.md,
      // "List-change fan-out"). Parsing a few headers without it costs a few small objects.
      HttpConfiguration config = new HttpConfiguration();
      config.setHeaderCacheSize(0);
      ServerConnector c = new ServerConnector(s, 1, 1, new HttpConnectionFactory(config));
      c.setHost(host);
      c.setPort(requestedPort);
      s.addConnector(c);
      s.setHandler(new McpHandler(this));
      try {
        s.start();
      } catch (Exception e) {
        try {
          s.stop();
        } catch (Exception ignored) {
          // the start failure is what matters
        }
        throw new java.io.UncheckedIOException(
            new java.io.IOException("cannot serve on " + host + ":" + requestedPort + ": " + e.getMessage(), e));
      }
      jetty = s;
      connector = c;
      int port = c.getLocalPort();
      Set<String> hosts = new LinkedHashSet<>();
      Set<String> origins = new LinkedHashSet<>();
      for (String h : List.of(hostForUri(host), "127.0.0.1", "localhost", "[::1]")) {
        hosts.add((h + ":" + port).toLowerCase(Locale.ROOT));
        origins.add(("http://" + h + ":" + port).toLowerCase(Locale.ROOT));
      }
      extraHosts.forEach(h -> hosts.add(h.toLowerCase(Locale.ROOT)));
      extraOrigins.forEach(o -> origins.add(o.toLowerCase(Locale.ROOT)));
      allowedHosts = Set.copyOf(hosts);
      allowedOrigins = Set.copyOf(origins);
      scheduleSweep();
      LOG.log(System.Logger.Level.DEBUG, "serving MCP on {0}", uri());
      return this;
    } finally {
      lifecycle.unlock();
    }
  }

  /**
   * The bound port.
   *
   * @throws IllegalStateException if not started
   */
  public int port() {
    ServerConnector c = connector;
    if (c == null) {
      throw new IllegalStateException("server not started");
    }
    return c.getLocalPort();
  }

  /** The endpoint's URI, e.g. {@code http://127.0.0.1:8080/mcp}. */
  public URI uri() {
    return URI.create("http://" + hostForUri(host) + ":" + port() + path);
  }

  /** The legacy HTTP+SSE stream's URI, e.g. {@code http://127.0.0.1:8080/sse}. */
  public URI legacySseUri() {
    return URI.create("http://" + hostForUri(host) + ":" + port() + legacySsePath);
  }

  /** Open sessions, both transports. */
  public int sessionCount() {
    return sessionCount.get();
  }

  /** How many stream connections were closed because their reader fell behind. */
  public long slowReaderCloseCount() {
    return slowReaderCloses.sum();
  }

  /**
   * Closes the connection of one request's SSE stream without ending the stream (SSE polling,
   * protocol 2025-11-25 and later): a request still answered as JSON is switched to SSE and
   * primed first; the client resumes with GET and {@code Last-Event-ID}, and the response comes
   * there. Use it from a tool handler: {@code http.closeSseStream(ctx.session(),
   * ctx.requestId())}.
   *
   * @return false if the session is not on this server, is older than 2025-11-25, or the request
   *     has no open stream
   */
  public boolean closeSseStream(ServerSession session, RequestId request) {
    for (HttpSession s : sessions.values()) {
      if (s.serverSession() == session) {
        return s.priming() && s.closeStream(request);
      }
    }
    return false;
  }

  /** Ends every session and stops serving. Idempotent. */
  @Override
  public void close() {
    Server s;
    lifecycle.lock();
    try {
      stopped = true;
      s = jetty;
      jetty = null;
      if (sweep != null) {
        sweep.cancel();
        sweep = null;
      }
    } finally {
      lifecycle.unlock();
    }
    for (HttpSession session : new ArrayList<>(sessions.values())) {
      session.close();
    }
    for (LegacySession session : new ArrayList<>(legacySessions.values())) {
      session.shutdown();
    }
    if (s != null) {
      try {
        s.stop();
      } catch (Exception e) {
        LOG.log(System.Logger.Level.DEBUG, "stopping Jetty failed: {0}", e.getMessage());
      }
    }
  }

  // ---------------------------------------------------------------- for the handler

  boolean hostAllowed(@Nullable String hostHeader) {
    return hostHeader != null
        && (extraHosts.contains("*") || allowedHosts.contains(hostHeader.toLowerCase(Locale.ROOT)));
  }

  boolean originAllowed(@Nullable String origin) {
    return origin == null || extraOrigins.contains("*") || allowedOrigins.contains(origin.toLowerCase(Locale.ROOT));
  }

  /** Reserves a session slot; false when full. */
  boolean reserveSession() {
    while (true) {
      int n = sessionCount.get();
      if (n >= maxSessions || stopped) {
        return false;
      }
      if (sessionCount.compareAndSet(n, n + 1)) {
        return true;
      }
    }
  }

  void sessionEnded() {
    sessionCount.decrementAndGet();
  }

  /** A new session in a reserved slot, connected to the MCP server. */
  HttpSession newSession() {
    HttpSession s = new HttpSession(this, newSessionId());
    sessions.put(s.id, s);
    s.connect();
    return s;
  }

  static String newSessionId() {
    byte[] b = new byte[16];
    RANDOM.nextBytes(b);
    return Base64.getUrlEncoder().withoutPadding().encodeToString(b);
  }

  // ---------------------------------------------------------------- housekeeping

  private void scheduleSweep() {
    sweep = scheduler.schedule(this::sweepAndReschedule, sweepNanos);
  }

  private void sweepAndReschedule() {
    sweep();
    lifecycle.lock();
    try {
      if (!stopped && jetty != null) {
        scheduleSweep();
      }
    } finally {
      lifecycle.unlock();
    }
  }

  /** Ends idle sessions and sends keep-alive comments on quiet standing streams. */
  void sweep() {
    long now = ticker.nanos();
    long sysNow = System.nanoTime();
    for (HttpSession s : sessions.values()) {
      if (s.idleSince(now, idleTimeoutNanos)) {
        LOG.log(System.Logger.Level.DEBUG, "session {0} idle: ended", s.id);
        s.close();
      } else {
        s.keepAlive(sysNow, keepAliveNanos);
      }
    }
  }

  private static String hostForUri(String host) {
    return host.contains(":") && !host.startsWith("[") ? "[" + host + "]" : host;
  }

  /**
   * Builds an {@link McpHttpServer}. Setters validate at once and name the problem. Not
   * thread-safe.
   */
  public static final class Builder {
    private @Nullable McpServer server;
    private String host = "127.0.0.1";
    private int port;
    private String path = "/mcp";
    private boolean legacySse = true;
    private String legacySsePath = "/sse";
    private String legacyPostPath = "/messages";
    private final Set<String> origins = new LinkedHashSet<>();
    private final Set<String> hosts = new LinkedHashSet<>();
    private int maxSessions = 1024;
    private Duration sessionIdleTimeout = Duration.ofMinutes(10);
    private int maxBodyBytes = 4 * 1024 * 1024;
    private @Nullable EventStore eventStore;
    private int queueFrames = 1024;
    private long queueBytes = 4L * 1024 * 1024;
    private Duration pollingInterval = Duration.ZERO;
    private Duration retry = Duration.ofSeconds(1);
    private Duration keepAlive = Duration.ofSeconds(15);
    private Ticker ticker = Ticker.system();
    private Scheduler scheduler = Scheduler.system();

    private Builder() {}

    /** The MCP server to serve (required). */
    public Builder server(McpServer server) {
      this.server = Objects.requireNonNull(server, "server");
      return this;
    }

    /**
     * The address to bind (default {@code 127.0.0.1}). Binding anything but loopback exposes
     * the server to the network: add the names clients will use with {@link #allowedHosts}.
     */
    public Builder host(String host) {
      Objects.requireNonNull(host, "host");
      if (host.isBlank()) {
        throw new IllegalArgumentException("host must not be blank");
      }
      this.host = host;
      return this;
    }

    /**
     * The port (default 0: any free port; see {@link McpHttpServer#port()}).
     *
     * @throws IllegalArgumentException outside 0..65535
     */
    public Builder port(int port) {
      if (port < 0 || port > 65535) {
        throw new IllegalArgumentException("port must be in 0..65535, was " + port);
      }
      this.port = port;
      return this;
    }

    /**
     * The Streamable HTTP endpoint's path (default {@code /mcp}).
     *
     * @throws IllegalArgumentException if it does not start with {@code /}
     */
    public Builder path(String path) {
      this.path = checkPath(path, "path");
      return this;
    }

    /**
     * Whether to serve the 2024-11-05 HTTP+SSE transport too (default true), at {@code
     * ssePath} (GET) and {@code postPath} (POST).
     */
    public Builder legacySse(boolean enabled, String ssePath, String postPath) {
      this.legacySse = enabled;
      this.legacySsePath = checkPath(ssePath, "ssePath");
      this.legacyPostPath = checkPath(postPath, "postPath");
      return this;
    }

    /** Whether to serve the 2024-11-05 HTTP+SSE transport at {@code /sse} and {@code /messages}. */
    public Builder legacySse(boolean enabled) {
      this.legacySse = enabled;
      return this;
    }

    /**
     * More {@code Origin} values to accept, exactly as browsers send them (e.g. {@code
     * https://app.example.com}), or {@code "*"} for any. The server's own loopback origins are
     * always accepted; requests without {@code Origin} are not checked.
     */
    public Builder allowedOrigins(String... origins) {
      for (String o : origins) {
        this.origins.add(Objects.requireNonNull(o, "origin"));
      }
      return this;
    }

    /**
     * More {@code Host} header values to accept, as {@code name:port} (e.g. {@code
     * mcp.example.com:443}), or {@code "*"} for any. The bound host and the loopback names with
     * the bound port are always accepted.
     */
    public Builder allowedHosts(String... hosts) {
      for (String h : hosts) {
        this.hosts.add(Objects.requireNonNull(h, "host"));
      }
      return this;
    }

    /**
     * Most open sessions, both transports together (default 1024). {@code initialize} beyond it
     * is refused with 503.
     *
     * @throws IllegalArgumentException if less than 1
     */
    public Builder maxSessions(int max) {
      if (max < 1) {
        throw new IllegalArgumentException("maxSessions must be at least 1, was " + max);
      }
      this.maxSessions = max;
      return this;
    }

    /**
     * How long a session with no open request or stream may stay silent before it ends (default
     * 10 minutes).
     *
     * @throws IllegalArgumentException if not positive
     */
    public Builder sessionIdleTimeout(Duration timeout) {
      if (timeout.isNegative() || timeout.isZero()) {
        throw new IllegalArgumentException("sessionIdleTimeout must be positive, was " + timeout);
      }
      this.sessionIdleTimeout = timeout;
      return this;
    }

    /**
     * Largest POST body accepted (default 4 MiB); larger is 413. The JSON itself is also
     * bounded in depth by the codec.
     *
     * @throws IllegalArgumentException if less than 1
     */
    public Builder maxBodyBytes(int max) {
      if (max < 1) {
        throw new IllegalArgumentException("maxBodyBytes must be at least 1, was " + max);
      }
      this.maxBodyBytes = max;
      return this;
    }

    /** Where SSE events are kept for resumption (default {@link EventStore#inMemory} of 512). */
    public Builder eventStore(EventStore store) {
      this.eventStore = Objects.requireNonNull(store, "store");
      return this;
    }

    /**
     * Each stream connection's outbound queue: at most {@code events} events and {@code bytes}
     * bytes waiting to be written (default 1024 and 4 MiB). A reader further behind loses its
     * connection and may resume.
     *
     * @throws IllegalArgumentException if either is less than 1
     */
    public Builder streamQueueLimit(int events, long bytes) {
      if (events < 1 || bytes < 1) {
        throw new IllegalArgumentException("streamQueueLimit must be positive, was " + events + " events, " + bytes + " bytes");
      }
      this.queueFrames = events;
      this.queueBytes = bytes;
      return this;
    }

    /**
     * SSE polling (2025-11-25 and later): a request still running after {@code interval} has
     * its connection closed after the priming event, and the client picks up the rest with GET
     * and {@code Last-Event-ID}. ZERO (the default) never does.
     *
     * @throws IllegalArgumentException if negative
     */
    public Builder ssePollingInterval(Duration interval) {
      if (interval.isNegative()) {
        throw new IllegalArgumentException("ssePollingInterval must not be negative, was " + interval);
      }
      this.pollingInterval = interval;
      return this;
    }

    /**
     * The {@code retry} sent at the start of every stream: how long a client waits before
     * reconnecting (default 1 s).
     *
     * @throws IllegalArgumentException if negative
     */
    public Builder sseRetry(Duration retry) {
      if (retry.isNegative()) {
        throw new IllegalArgumentException("sseRetry must not be negative, was " + retry);
      }
      this.retry = retry;
      return this;
    }

    /**
     * How long a standing stream may stay silent before a keep-alive comment is sent (default
     * 15 s).
     *
     * @throws IllegalArgumentException if not positive
     */
    public Builder sseKeepAlive(Duration interval) {
      if (interval.isNegative() || interval.isZero()) {
        throw new IllegalArgumentException("sseKeepAlive must be positive, was " + interval);
      }
      this.keepAlive = interval;
      return this;
    }

    /** The clock for session idleness (default {@link Ticker#system()}). */
    public Builder ticker(Ticker ticker) {
      this.ticker = Objects.requireNonNull(ticker, "ticker");
      return this;
    }

    /** The timer for housekeeping and SSE polling (default {@link Scheduler#system()}). */
    public Builder scheduler(Scheduler scheduler) {
      this.scheduler = Objects.requireNonNull(scheduler, "scheduler");
      return this;
    }

    /**
     * A server with these settings, not yet started.
     *
     * @throws IllegalStateException if no {@link #server} was given, or the paths collide
     */
    public McpHttpServer build() {
      if (server == null) {
        throw new IllegalStateException("server(McpServer) is required");
      }
      if (legacySse && (path.equals(legacySsePath) || path.equals(legacyPostPath) || legacySsePath.equals(legacyPostPath))) {
        throw new IllegalStateException(
            "paths collide: path " + path + ", legacy SSE " + legacySsePath + ", legacy POST " + legacyPostPath);
      }
      return new McpHttpServer(this);
    }

    private static String checkPath(String p, String what) {
      Objects.requireNonNull(p, what);
      if (!p.startsWith("/")) {
        throw new IllegalArgumentException(what + " must start with /, was " + p);
      }
      return p;
    }
  }
}
