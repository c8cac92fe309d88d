package dev.herald.http;

import dev.herald.http.internal.Endpoint;
import dev.herald.http.internal.EndpointConfig;
import dev.herald.http.internal.VirtualIoThreads;
import dev.herald.server.McpServer;
import java.net.URI;
import java.util.Objects;
import java.util.concurrent.locks.ReentrantLock;
import org.eclipse.jetty.server.HttpConfiguration;
import org.eclipse.jetty.server.HttpConnectionFactory;
import org.eclipse.jetty.server.Server;
import org.eclipse.jetty.server.ServerConnector;
import org.eclipse.jetty.util.thread.QueuedThreadPool;
import org.eclipse.jetty.util.thread.ThreadPool;
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
 *       Builder#sessionIdleTimeout} ends (a running call or an open stream pauses the clock). At
 *       {@link Builder#maxSessions}, {@code initialize} is refused with 503; a client (remote
 *       address) holding {@link Builder#maxSessionsPerClient} sessions is refused with 429. An
 *       {@code initialize} that fails creates no session and gives its slot back before its
 *       answer is sent.
 *   <li>A POST body that has not fully arrived after {@link Builder#requestBodyTimeout} is
 *       answered 408 and its connection closed. Error bodies never carry Java exception names
 *       or messages; an unexpected failure is 500 with "Internal error".
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
 * GET (SSE polling); a handler does the same for its own request with {@link
 * dev.herald.server.RequestContext#pollStream()}.
 *
 * <p><b>Backpressure.</b> Each stream's outbound queue is bounded ({@link
 * Builder#streamQueueLimit}). Queued events are written together, one flush per batch. A reader
 * that falls behind the limit loses its connection, not the events: it can resume with {@code
 * Last-Event-ID}.
 *
 * <p><b>Events.</b> Streams opened, resumed with {@code Last-Event-ID} and closed for a slow
 * reader are reported to the session's {@link dev.herald.session.EventListener}, which the {@link
 * McpServer}'s {@code eventListenerFactory} makes, along with everything else the session does.
 *
 * <p><b>Legacy HTTP+SSE</b> ({@link Builder#legacySse}): GET {@code /sse} opens a session whose
 * first event, {@code endpoint}, names {@code /messages?sessionId=...}; client messages are
 * POSTed there (202) and everything from the server comes on the one stream. The stream gets
 * keep-alive comments ({@link Builder#sseKeepAlive}), so a client that went away is noticed and
 * its session ended; a legacy session that received nothing and ran nothing for {@link
 * Builder#sessionIdleTimeout} ends too. A POST for an ended session is 404.
 *
 * <p><b>Threading.</b> Jetty's threads (virtual by default on Java 25 and later, see {@link
 * Builder#ioThreads}) parse requests and complete writes without blocking; handlers run on the
 * session engine's virtual threads; an open stream or a waiting request holds no thread.
 * Thread-safe.
 */
public final class McpHttpServer implements AutoCloseable {
  private static final System.Logger LOG = System.getLogger("dev.herald.http");

  /** The protocol machinery; tests in this package reach its sessions through a test-only accessor. */
  final Endpoint endpoint;

  private final String host;
  private final IoThreads ioThreads;
  private final int requestedPort;
  private final String path;
  private final String legacySsePath;

  /** The endpoint's event store, for tests in this package. */
  final EventStore eventStore;

  private final ReentrantLock lifecycle = new ReentrantLock();
  // guarded by lifecycle
  private @Nullable Server jetty;
  private @Nullable ServerConnector connector;
  private boolean stopped;

  private McpHttpServer(Builder b) {
    this.host = b.host;
    this.ioThreads = b.ioThreads;
    b.config.ownName(hostForUri(b.host));
    EndpointConfig config = b.config.build();
    this.endpoint = new Endpoint(config);
    this.requestedPort = b.port;
    this.path = config.path();
    this.legacySsePath = config.legacySsePath();
    this.eventStore = endpoint.eventStore();
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
      Server s = new Server(jettyThreads(ioThreads));
      // Jetty's per-connection header-field cache (HttpConfiguration.headerCacheSize, 1024 by
      // default) is built on a connection's second request as an ArrayTrie of about 80 KB and kept
      // for the connection's life. MCP clients reuse a pooled connection for the standing GET, so
      // each idle session held one: 92 KB per idle session instead of about 8 (docs/benchmarks.md,
      // "List-change fan-out"). Parsing a few headers without it costs a few small objects.
      HttpConfiguration config = new HttpConfiguration();
      config.setHeaderCacheSize(0);
      config.setSendServerVersion(false); // no internals in responses
      config.setSendXPoweredBy(false);
      ServerConnector c = new ServerConnector(s, 1, 1, new HttpConnectionFactory(config));
      c.setHost(host);
      c.setPort(requestedPort);
      s.addConnector(c);
      s.setHandler(new JettyHandler(endpoint));
      s.setErrorHandler(new PlainErrorHandler());
      // The endpoint times out slow bodies itself (requestBodyTimeout, answered 408); Jetty's own
      // idle timeout must not come first with its answer.
      c.setIdleTimeout(
          Math.max(
              30_000L,
              java.util.concurrent.TimeUnit.NANOSECONDS.toMillis(
                      endpoint.config().bodyTimeoutNanos())
                  + 5_000));
      try {
        s.start();
      } catch (Exception e) {
        try {
          s.stop();
        } catch (Exception ignored) {
          // the start failure is what matters
        }
        throw new java.io.UncheckedIOException(
            new java.io.IOException(
                "cannot serve on " + host + ":" + requestedPort + ": " + e.getMessage(), e));
      }
      jetty = s;
      connector = c;
      endpoint.start();
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

  /**
   * 2026-07-28 requests in progress: each has its own server session, ended with its exchange (MCP
   * 2026-07-28 basic/transports/streamable-http).
   */
  public int statelessCount() {
    return endpoint.statelessCount();
  }

  /** Open sessions, both transports. */
  public int sessionCount() {
    return endpoint.sessionCount();
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
    } finally {
      lifecycle.unlock();
    }
    endpoint.close();
    if (s != null) {
      try {
        s.stop();
      } catch (Exception e) {
        LOG.log(System.Logger.Level.DEBUG, "stopping Jetty failed: {0}", e.getMessage());
      }
    }
  }

  /** Ends idle sessions and sends keep-alive comments (the housekeeping timer's job; for tests). */
  void sweep() {
    endpoint.sweep();
  }

  /** Jetty's thread pool for {@code kind}: see {@link IoThreads}. */
  private static ThreadPool jettyThreads(IoThreads kind) {
    return switch (kind) {
      case VIRTUAL -> new VirtualIoThreads();
      case PLATFORM -> {
        QueuedThreadPool threads = new QueuedThreadPool(64, 2);
        threads.setName("herald-http");
        threads.setDaemon(true);
        yield threads;
      }
    };
  }

  private static String hostForUri(String host) {
    return host.contains(":") && !host.startsWith("[") ? "[" + host + "]" : host;
  }

  /**
   * Builds an {@link McpHttpServer}. Setters validate at once and name the problem. Not
   * thread-safe.
   */
  public static final class Builder extends EndpointBuilder<Builder> {
    private String host = "127.0.0.1";
    private int port;
    private IoThreads ioThreads = IoThreads.defaultFor(Runtime.version());

    private Builder() {}

    @Override
    protected Builder self() {
      return this;
    }

    /**
     * The address to bind (default {@code 127.0.0.1}, loopback only). Binding anything else
     * exposes the server to the network: add the names clients will use with {@link
     * #allowedHosts}, and put authentication in front of it. The bound address is accepted in
     * {@code Host} and {@code Origin} like the loopback names.
     *
     * @throws NullPointerException if {@code host} is null
     * @throws IllegalArgumentException if blank
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
     * The port to bind (default 0: any free port, read back with {@link McpHttpServer#port()}
     * after {@link McpHttpServer#start()}).
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
     * The threads that accept connections, read requests and complete writes (default {@link
     * IoThreads#VIRTUAL} on Java 25 and later, {@link IoThreads#PLATFORM} before); handlers run
     * on virtual threads of their own either way. {@link IoThreads#PLATFORM} keeps reading
     * requests, cancellations among them, while CPU-bound handlers occupy every carrier thread, at
     * more CPU per call.
     *
     * @throws NullPointerException if {@code kind} is null
     * @throws IllegalArgumentException for {@link IoThreads#VIRTUAL} on a Java release before 25
     */
    public Builder ioThreads(IoThreads kind) {
      Objects.requireNonNull(kind, "kind");
      if (kind == IoThreads.VIRTUAL && IoThreads.defaultFor(Runtime.version()) != kind) {
        throw new IllegalArgumentException(
            "IoThreads.VIRTUAL needs Java "
                + IoThreads.VIRTUAL_SINCE
                + " or later (this is "
                + Runtime.version().feature()
                + "): before it, a virtual thread waiting in a selector holds its carrier thread");
      }
      this.ioThreads = kind;
      return this;
    }

    /**
     * The Streamable HTTP endpoint's path (default {@code /mcp}). It must differ from the legacy
     * HTTP+SSE paths while those are served, which {@link #build()} checks.
     *
     * @throws NullPointerException if {@code path} is null
     * @throws IllegalArgumentException if it does not start with {@code /}
     */
    public Builder path(String path) {
      config.path(path);
      return this;
    }

    /**
     * A server with these settings, not yet started.
     *
     * @throws IllegalStateException if no {@link #server} was given, or the paths collide
     */
    public McpHttpServer build() {
      return new McpHttpServer(this);
    }
  }
}
