package dev.herald.transport.http;

import dev.herald.client.auth.Authorization;
import dev.herald.transport.Transport;
import dev.herald.transport.TransportException;
import dev.herald.wire.CancelledNotificationParams;
import dev.herald.wire.JsonRpcMessage;
import dev.herald.wire.McpException;
import dev.herald.wire.McpJson;
import dev.herald.wire.McpMethods;
import dev.herald.wire.ProtocolVersion;
import dev.herald.wire.RequestId;
import dev.herald.wire.Tool;
import java.io.IOException;
import java.io.InputStream;
import java.net.ProxySelector;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import org.jspecify.annotations.Nullable;
import tools.jackson.databind.JsonNode;

/**
 * The client side of the Streamable HTTP transport (MCP 2025-11-25 basic/transports §Streamable
 * HTTP). It runs on an HTTP client it builds ({@link Http1Client}, which makes each exchange on the
 * thread that sends it, unless a proxy applies to the endpoint, when it is the JDK's {@link
 * HttpClient}; see {@link HttpEngine}) or on any {@link HttpClient} given to {@link
 * Builder#httpClient}, which the transport does not close.
 *
 * {@snippet :
 * try (McpClient client = McpClient.builder()
 *     .info("my-host", "1.0")
 *     .connect(StreamableHttpClientTransport.builder()
 *         .uri(URI.create("http://127.0.0.1:8080/mcp"))
 *         .header("Authorization", "Bearer " + token)
 *         .build())) {
 *   CallToolResult result = client.callTool("search", args);
 * }
 * }
 *
 * <p><b>Sending.</b> Every message is its own {@code POST} with {@code Accept: application/json,
 * text/event-stream}. {@link #send} returns once the body has been handed to the connection, not
 * when the server answers, so a slow call never blocks its caller (on {@link Http1Client} it waits
 * at most the client's head wait, 10 ms, for the answer: an answer that quick is delivered before
 * {@code send} returns); a server that cannot be reached fails {@code send} at once with a
 * one-line {@link TransportException} ("cannot reach URI: connection refused"). Once the server
 * issues {@code Mcp-Session-Id} (on the response to {@code initialize}) it goes on every later
 * request, and so does {@code MCP-Protocol-Version} once the {@code initialize} result has passed
 * through: the only methods this transport ever looks at are {@code initialize} (to learn those
 * two), {@code notifications/initialized} (to open the standing stream after it) and {@code
 * notifications/cancelled} (a cancelled request's stream, which the server ends without a response,
 * is not resumed).
 *
 * <p><b>Receiving.</b> A {@code 202} carries nothing; an {@code application/json} answer is one
 * frame; a {@code text/event-stream} answer is read event by event (events of type {@code message}
 * with non-empty data; others are skipped). When such a stream ends before the response to its
 * request arrived, it is resumed with {@code GET} and {@code Last-Event-ID} after the server's
 * {@code retry:} delay, again and again (SSE polling, SEP-1699), as the {@link ReconnectPolicy}
 * allows. After {@code notifications/initialized} a standing {@code GET} stream is opened (unless
 * {@link Builder#openStandingStream(boolean) turned off}; a {@code 405} means the server has none)
 * and resumed the same way when it drops.
 *
 * <p><b>Failures.</b> A request whose exchange fails (an HTTP error, a stream that cannot be
 * resumed, an event larger than {@link Builder#maxEventBytes(int)}) is answered locally with a
 * JSON-RPC error ({@code -32603}, or the server's own error when its body carried one), so that
 * call fails and the session goes on. A {@code 404} to a request that carried the session id ends
 * the transport with {@link SessionExpiredException}, reported through {@link
 * Receiver#onClose(Throwable)}.
 *
 * <p><b>Older servers.</b> If {@code initialize} is answered with 400, 404 or 405, the transport
 * falls back to the 2024-11-05 HTTP+SSE transport: it opens a {@code GET} event stream on the same
 * URI, waits for its {@code endpoint} event (which must name the same origin), and from then on
 * posts every message there and reads every reply from that one stream.
 *
 * <p><b>The 2026-07-28 binding.</b> After {@link #modern(ProtocolVersion)} (called by the client
 * once it chose the modern era) the transport speaks MCP 2026-07-28 basic/transports/streamable-http
 * instead: {@code POST} only with the request metadata headers ({@link McpHeaders}), no session,
 * no {@code GET}, no {@code DELETE}, no resumption; cancelling a request closes its stream.
 * {@link #handshake()} goes back before anything was sent the handshake way.
 *
 * <p><b>Threading.</b> Each open event stream is read by a virtual thread of its own; an answer
 * read whole (one JSON frame) is handled where the HTTP client completes it (on {@link
 * Http1Client}, the sending thread when it came within the head wait). Frames reach the
 * receiver one at a time under one lock, in arrival order per stream; none arrive after {@code
 * onClose}. {@link #send} may be called from any thread. {@link #close()} sends {@code DELETE}
 * with the session id (a {@code 405} is fine), cancels every open stream and reports {@code
 * onClose(null)}.
 */
public final class StreamableHttpClientTransport implements Transport {
  /** Default largest single event or JSON body accepted: 4 MiB. */
  public static final int DEFAULT_MAX_EVENT_BYTES = 4 * 1024 * 1024;

  /** Default connect timeout, also bounding {@code DELETE} on close and the legacy endpoint wait. */
  public static final Duration DEFAULT_CONNECT_TIMEOUT = Duration.ofSeconds(10);

  static final System.Logger LOG = System.getLogger("dev.herald.transport.http");

  /**
   * The executor of the client the transport builds: the JDK client's own tasks (reading a
   * response, completing its future) run where they arise, on its selector thread or the
   * sender's, instead of a new thread each (a call's answer took several hand-offs before it
   * reached its caller). Nothing the transport runs there blocks: a whole-body answer is decoded
   * and delivered (a response completes its caller's future; an inbound request or notification
   * is handed on by the session), and every stream is read by a virtual thread of its own. The
   * future {@code sendAsync} returns is completed on the JDK's default executor (the common pool)
   * whatever the client's executor is, so a whole-body answer is handled by its body subscriber
   * ({@link WholeBody}) before that hop, not by a dependent of the future.
   */
  private static final java.util.concurrent.Executor INLINE = Runnable::run;

  /** How long a message after {@code initialized} waits for the standing GET's answer at most. */
  static final Duration STANDING_WAIT = Duration.ofMillis(500);

  private final URI uri;
  private final HttpClient client;

  /** Whether the transport built {@link #client} and shuts it down on close. */
  private final boolean ownClient;

  private final Map<String, String> headers;
  private final Duration timeout;
  private final int maxEventBytes;
  private final ReconnectPolicy reconnect;
  private final boolean openStandingStream;
  private final @Nullable Authorization authorization;

  /** Probing, Streamable HTTP or HTTP+SSE, the standing stream's readiness, the session, closed. */
  private final ConnectionStateMachine machine;

  private final Delivery delivery;
  private final Workers workers;

  /** The 2026-07-28 binding: the {@code x-mcp-header} arguments of each known tool. */
  private final Map<String, List<McpHeaders.Param>> toolHeaders = new ConcurrentHashMap<>();

  /** The 2026-07-28 binding: the open exchange of each request, so cancelling closes its stream. */
  private final Map<RequestId, ModernExchange> exchanges = new ConcurrentHashMap<>();

  /** A transport to {@code uri} with every default. */
  public StreamableHttpClientTransport(URI uri) {
    this(builder().uri(uri));
  }

  private StreamableHttpClientTransport(Builder b) {
    this.uri = Objects.requireNonNull(b.uri, "uri must be set");
    this.headers = Map.copyOf(b.headers);
    this.timeout = b.connectTimeout == null ? DEFAULT_CONNECT_TIMEOUT : b.connectTimeout;
    this.maxEventBytes = b.maxEventBytes;
    this.reconnect = b.reconnect;
    this.openStandingStream = b.openStandingStream;
    this.authorization = b.authorization;
    this.machine = new ConnectionStateMachine(uri);
    this.delivery = new Delivery(machine);
    this.workers = new Workers(machine);
    if (b.client != null) {
      this.client = b.client;
      this.ownClient = false;
    } else {
      this.ownClient = true;
      HttpEngine engine = Objects.requireNonNullElse(b.engine, HttpEngine.AUTO);
      ProxySelector proxy = b.proxy != null ? b.proxy : ProxySelector.getDefault();
      this.client =
          engine.resolve(uri, proxy) == HttpEngine.HTTP1
              ? Http1Client.builder().connectTimeout(timeout).build()
              : jdkClient(uri, timeout, b.proxy);
    }
  }

  /** The JDK client the transport builds: HTTP/1.1, no redirects, tasks run where they arise. */
  private static HttpClient jdkClient(URI uri, Duration timeout, @Nullable ProxySelector proxy) {
    HttpClient.Builder client =
        HttpClient.newBuilder()
            .version(HttpClient.Version.HTTP_1_1)
            .connectTimeout(timeout)
            .followRedirects(HttpClient.Redirect.NEVER)
            .executor(INLINE);
    if (proxy != null) {
      client.proxy(proxy);
    }
    if ("http".equalsIgnoreCase(uri.getScheme())) {
      // plain HTTP, no redirects: no TLS context unless something asks (LazyTls)
      client.sslContext(LazyTls.context()).sslParameters(LazyTls.parameters());
    }
    return client.build();
  }

  /** A builder for a transport to one MCP endpoint; {@link Builder#uri} is required, the rest have the defaults each setter names. */
  public static Builder builder() {
    return new Builder();
  }

  /** The MCP endpoint. */
  public URI uri() {
    return uri;
  }

  /** The session id the server issued, if any. */
  @Override
  public Optional<String> sessionId() {
    return Optional.ofNullable(machine.session().id());
  }

  /** Whether the server turned out to speak only the 2024-11-05 HTTP+SSE transport. */
  public boolean isLegacy() {
    ConnectionState live = machine.state().live();
    return live instanceof ConnectionState.Legacy || live instanceof ConnectionState.FallingBack;
  }

  @Override
  public void start(Receiver receiver) {
    if (delivery.hasReceiver()) {
      throw new IllegalStateException("transport already started");
    }
    delivery.receiver(Objects.requireNonNull(receiver, "receiver"));
    machine.start();
  }

  // ---------------------------------------------------------------- the 2026-07-28 binding

  /**
   * Switches to the 2026-07-28 binding (MCP 2026-07-28 basic/transports/streamable-http): from now
   * on every message is its own {@code POST} carrying {@code MCP-Protocol-Version} (the body's
   * {@code _meta} version, else {@code version}), {@code Mcp-Method}, {@code Mcp-Name} and the
   * {@code Mcp-Param-*} headers of the called tool's {@code x-mcp-header} arguments; no session
   * id, no standing {@code GET}, no {@code DELETE}, no resumption. {@code notifications/cancelled}
   * is not posted: it closes the cancelled request's stream, which is how the 2026-07-28 binding
   * cancels. The client calls this once it chose the modern era, before its first modern request
   * (the {@code server/discover} probe included), and may call it again to change the version.
   *
   * <p>While negotiating, an answer that is not a modern one reaches the caller as an {@link
   * dev.herald.wire.McpException}: the server's own JSON-RPC error when the refusal carried one
   * (a modern server's -32022, -32020, -32021, or an older server's error, code untouched), else
   * -32603 with {@code data.httpStatus} (see {@link #httpStatus}). The client then calls {@link
   * #handshake()} and goes on with {@code initialize}.
   *
   * @throws IllegalArgumentException if {@code version} is not a 2026-07-28-era version
   * @throws IllegalStateException once a handshake-era message was sent, or after close
   */
  public void modern(ProtocolVersion version) {
    if (version.era() != ProtocolVersion.Era.MODERN) {
      throw new IllegalArgumentException(version.wire() + " is not a stateless (modern) version");
    }
    machine.modern(version);
  }

  /**
   * Leaves the 2026-07-28 binding before anything was sent the handshake way: the next {@code
   * initialize} probes the server as on a fresh transport (falling back to HTTP+SSE on 400, 404 or
   * 405). For a client whose modern attempt was answered as an older server answers.
   *
   * @throws IllegalStateException once a handshake-era message was sent, or after close
   */
  public void handshake() {
    machine.handshake();
  }

  /**
   * {@inheritDoc}
   *
   * <p>A stateless version switches this transport to the 2026-07-28 binding ({@link #modern});
   * a handshake version after a modern attempt goes back to the handshake binding ({@link
   * #handshake}), so the next {@code initialize} probes as on a fresh transport.
   */
  @Override
  public boolean useProtocolVersion(ProtocolVersion version) {
    if (!version.handshake()) {
      modern(version);
    } else if (modernVersion().isPresent()) {
      handshake();
    }
    return true;
  }

  /** The 2026-07-28-era version this transport posts with, if it is in that binding. */
  public Optional<ProtocolVersion> modernVersion() {
    ConnectionState.Modern m = machine.modernState();
    return m == null ? Optional.empty() : Optional.of(m.version());
  }

  /**
   * Tells the transport the definitions of these tools, so that a {@code tools/call} mirrors the
   * arguments their {@code inputSchema} marks with {@code x-mcp-header} into {@code Mcp-Param-*}
   * headers. Tools listed by a {@code tools/list} result passing through this transport are learnt
   * by themselves; a tool whose annotations are invalid (see {@link McpHeaders#invalidToolHeaders})
   * is forgotten, and the client must not call it.
   */
  public void learnTools(Collection<Tool> tools) {
    for (Tool t : tools) {
      learnTool(t.name(), t.inputSchema());
    }
  }

  /**
   * The HTTP status a failed request was refused with, when the refusal carried no JSON-RPC error
   * (such errors are {@code -32603} with {@code data.httpStatus}).
   */
  public static OptionalInt httpStatus(McpException e) {
    JsonNode data = e.data();
    JsonNode status = data == null ? null : data.get(HTTP_STATUS);
    return status != null && status.isInt()
        ? OptionalInt.of(status.intValue())
        : OptionalInt.empty();
  }

  /** The {@code data} field naming the HTTP status of a refusal without a JSON-RPC error. */
  static final String HTTP_STATUS = "httpStatus";

  private void learnTool(String name, @Nullable JsonNode inputSchema) {
    List<McpHeaders.Param> params = McpHeaders.params(inputSchema);
    if (params == null) {
      toolHeaders.remove(name);
    } else {
      toolHeaders.put(name, params);
    }
  }

  /** A {@code tools/list} result passed through: learns its tools' mirrored arguments. */
  void learnListedTools(JsonNode result) {
    JsonNode tools = result.get("tools");
    if (tools == null || !tools.isArray()) {
      return;
    }
    for (JsonNode t : tools) {
      JsonNode name = t.get("name");
      if (name != null && name.isString()) {
        learnTool(name.stringValue(), t.get("inputSchema"));
      }
    }
  }

  Map<String, List<McpHeaders.Param>> toolHeaders() {
    return toolHeaders;
  }

  void openExchange(RequestId id, ModernExchange exchange) {
    exchanges.put(id, exchange);
  }

  void closeExchange(RequestId id, ModernExchange exchange) {
    exchanges.remove(id, exchange);
  }

  private void sendModern(JsonRpcMessage message, ProtocolVersion version) {
    if (message instanceof JsonRpcMessage.Notification n
        && McpMethods.CANCELLED.equals(n.method())) {
      RequestId id = cancelledId(n);
      ModernExchange exchange = id == null ? null : exchanges.get(id);
      if (exchange != null) {
        exchange.cancel();
      }
      return;
    }
    if (message instanceof JsonRpcMessage.Response) {
      LOG.log(
          System.Logger.Level.WARNING,
          "not sending a response to {0}: 2026-07-28 clients never answer the server",
          uri);
      return;
    }
    new ModernExchange(this, message, version.wire()).send();
  }

  private static @Nullable RequestId cancelledId(JsonRpcMessage.Notification cancelled) {
    try {
      return McpJson.fromTree(cancelled.params(), CancelledNotificationParams.class).requestId();
    } catch (RuntimeException e) {
      return null;
    }
  }

  @Override
  public void send(JsonRpcMessage message, @Nullable RequestId relatedTo) {
    if (!delivery.hasReceiver()) {
      throw new IllegalStateException("transport not started");
    }
    ensureOpen();
    ConnectionState.Modern modern = machine.modernState();
    if (modern != null) {
      sendModern(message, modern.version());
      return;
    }
    boolean probe = false;
    if (message instanceof JsonRpcMessage.Request r && McpMethods.INITIALIZE.equals(r.method())) {
      probe = machine.initializeSending(r.id());
    } else {
      machine.messageSending();
    }
    ConnectionState route = probe ? machine.state() : machine.awaitRoute();
    machine.awaitStanding(STANDING_WAIT);
    if (message instanceof JsonRpcMessage.Notification n
        && McpMethods.INITIALIZED.equals(n.method())) {
      machine.initializedSending(openStandingStream);
    }
    if (message instanceof JsonRpcMessage.Notification n
        && McpMethods.CANCELLED.equals(n.method())) {
      stopAwaiting(n);
    }
    if (route instanceof ConnectionState.Legacy legacy) {
      legacy.connection().post(message);
    } else {
      new PostExchange(this, message).send();
    }
  }

  /**
   * This side cancelled one of its requests (MCP 2025-11-25 basic/utilities/cancellation): no
   * response will come, so the server ends that request's stream, and the stream must not be
   * resumed as if it had dropped.
   */
  private void stopAwaiting(JsonRpcMessage.Notification cancelled) {
    try {
      RequestId id =
          McpJson.fromTree(cancelled.params(), CancelledNotificationParams.class).requestId();
      if (id != null) {
        delivery.forget(id);
      }
    } catch (RuntimeException e) {
      LOG.log(System.Logger.Level.DEBUG, "unreadable cancellation sent: {0}", e.getMessage());
    }
  }

  private void ensureOpen() {
    if (machine.isClosed()) {
      throw machine.closedException();
    }
  }

  // ---------------------------------------------------------------- shared with the streams

  HttpRequest.Builder request(URI target) {
    HttpRequest.Builder b = HttpRequest.newBuilder(target);
    headers.forEach(b::header);
    if (authorization != null) {
      authorization.authorizationHeader(uri).ifPresent(v -> b.header("Authorization", v));
    }
    ConnectionState.SessionFacts session = machine.session();
    String sid = session.id();
    if (sid != null) {
      b.header(Http.SESSION_ID, sid);
    }
    String version = session.protocolVersion();
    if (version != null) {
      b.header(Http.PROTOCOL_VERSION, version);
    }
    return b;
  }

  /** The headers of the last post made without an {@link Authorization}; see {@link PostRequest}. */
  private volatile PostRequest.@Nullable Headers postHeaders;

  /**
   * The {@code POST} of one encoded message to {@code target}, with the headers of every post:
   * made once per session state when the transport has no {@link Authorization}.
   */
  HttpRequest post(URI target, HttpRequest.BodyPublisher body) {
    if (authorization != null) {
      return request(target)
          .header("Accept", Http.ACCEPT_BOTH)
          .header("Content-Type", Http.JSON)
          .POST(body)
          .build();
    }
    ConnectionState.SessionFacts session = machine.session();
    PostRequest.Headers h =
        PostRequest.Headers.of(postHeaders, headers, session.id(), session.protocolVersion());
    postHeaders = h;
    return new PostRequest(target, h.all(), body);
  }

  /** A {@code GET} for an event stream, resuming after {@code lastEventId} when it is not empty. */
  HttpResponse<InputStream> get(String lastEventId) throws IOException, InterruptedException {
    HttpRequest.Builder b = request(uri).header("Accept", Http.EVENT_STREAM).GET();
    if (!lastEventId.isEmpty()) {
      b.header(Http.LAST_EVENT_ID, lastEventId);
    }
    return client.send(b.build(), HttpResponse.BodyHandlers.ofInputStream());
  }

  ConnectionStateMachine machine() {
    return machine;
  }

  /** The authorization set on the builder, if any. */
  @Nullable Authorization authorization() {
    return authorization;
  }

  Delivery delivery() {
    return delivery;
  }

  HttpClient client() {
    return client;
  }

  Duration timeout() {
    return timeout;
  }

  int maxEventBytes() {
    return maxEventBytes;
  }

  ReconnectPolicy reconnect() {
    return reconnect;
  }

  boolean hasSession() {
    return machine.session().id() != null;
  }

  boolean isClosed() {
    return machine.isClosed();
  }

  /** Whether the response to {@code id} has yet to pass through. */
  boolean isAwaiting(RequestId id) {
    return delivery.isAwaiting(id);
  }

  /** The session is gone: ends the transport with {@link SessionExpiredException}. */
  void sessionExpired() {
    fail(
        new SessionExpiredException(
            "the server at " + uri + " ended session " + machine.session().id() + " (HTTP 404)"));
  }

  /** Hands one event's data to the receiver; priming events (blank data) are skipped. */
  void deliverEvent(byte[] data, int length) {
    delivery.deliverEvent(data, length);
  }

  /** Answers a request locally with an error, so its call fails and the session goes on. */
  void failRequest(RequestId id, String reason) {
    delivery.failRequest(id, reason);
  }

  /** Runs {@code task} on a new virtual thread that {@link #close()} interrupts. */
  void spawn(String name, Runnable task) {
    workers.spawn(name, task);
  }

  /** See {@link Workers#answerAwaited()}. */
  void answerAwaited() {
    workers.answerAwaited();
  }

  void answerHandled() {
    workers.answerHandled();
  }

  /** Threads still working for this transport (tests check that close ends them). */
  int workerCount() {
    return workers.count();
  }

  /** Registers a response body so that {@link #close()} can cancel it. */
  InputStream track(InputStream in) {
    return workers.track(in);
  }

  void untrack(InputStream in) {
    workers.untrack(in);
  }

  // ---------------------------------------------------------------- close

  /** Ends the transport because of {@code cause}: no {@code DELETE}, the receiver is told why. */
  void fail(Throwable cause) {
    if (machine.close(cause) == null) {
      return;
    }
    LOG.log(
        System.Logger.Level.DEBUG, "HTTP transport to {0} failed: {1}", uri, cause.getMessage());
    workers.cancelAll();
    delivery.reportClose(cause);
    releaseClient();
  }

  @Override
  public void close() {
    ConnectionState last = machine.close(null);
    if (last == null) {
      return;
    }
    workers.cancelAll();
    if (last instanceof ConnectionState.Streamable s && s.session().id() != null) {
      deleteSession();
    }
    delivery.reportClose(null);
    releaseClient();
  }

  private void deleteSession() {
    try {
      HttpResponse<Void> r =
          client.send(
              request(uri).timeout(timeout).DELETE().build(),
              HttpResponse.BodyHandlers.discarding());
      if (r.statusCode() != 405 && !Http.isSuccess(r.statusCode())) {
        LOG.log(System.Logger.Level.DEBUG, "DELETE {0} answered HTTP {1}", uri, r.statusCode());
      }
    } catch (IOException e) {
      LOG.log(System.Logger.Level.DEBUG, "DELETE {0} failed: {1}", uri, Http.reason(e));
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }

  private void releaseClient() {
    if (ownClient) {
      client.shutdownNow();
    }
  }

  /**
   * Builds a {@link StreamableHttpClientTransport}. Only {@link #uri(URI)} is required.
   *
   * {@snippet :
   * StreamableHttpClientTransport transport = StreamableHttpClientTransport.builder()
   *     .uri(URI.create("https://example.com/mcp"))
   *     .header("Authorization", "Bearer " + token)
   *     .connectTimeout(Duration.ofSeconds(5))
   *     .reconnect(ReconnectPolicy.DEFAULT)
   *     .build();
   * }
   */
  public static final class Builder {
    private static final Set<String> MANAGED =
        Set.of(
            "accept",
            "content-type",
            "mcp-session-id",
            "mcp-protocol-version",
            "last-event-id",
            "mcp-method",
            "mcp-name");

    private @Nullable URI uri;
    private @Nullable HttpClient client;

    /** Null until {@link #httpEngine} is called: {@link HttpEngine#AUTO}. */
    private @Nullable HttpEngine engine;

    private @Nullable ProxySelector proxy;
    private final Map<String, String> headers = new LinkedHashMap<>();
    private @Nullable Duration connectTimeout;
    private int maxEventBytes = DEFAULT_MAX_EVENT_BYTES;
    private ReconnectPolicy reconnect = ReconnectPolicy.DEFAULT;
    private boolean openStandingStream = true;
    private @Nullable Authorization authorization;

    private Builder() {}

    /**
     * The MCP endpoint.
     *
     * @throws IllegalArgumentException unless it is an absolute {@code http} or {@code https} URI
     */
    public Builder uri(URI uri) {
      Objects.requireNonNull(uri, "uri");
      String scheme = uri.getScheme() == null ? "" : uri.getScheme().toLowerCase(Locale.ROOT);
      if ((!scheme.equals("http") && !scheme.equals("https")) || uri.getHost() == null) {
        throw new IllegalArgumentException("uri must be an absolute http or https URI, was " + uri);
      }
      this.uri = uri;
      return this;
    }

    /**
     * The client to use (for a TLS context of your own, an authenticator, HTTP/2, cookies), which
     * the transport never shuts down. Without one the transport builds its own, as {@link
     * #httpEngine} chooses, and shuts it down on close.
     *
     * @throws IllegalStateException if {@link #connectTimeout}, {@link #httpEngine} or {@link
     *     #proxy} was set: each configures the client the transport builds
     */
    public Builder httpClient(HttpClient client) {
      Objects.requireNonNull(client, "client");
      if (connectTimeout != null) {
        throw new IllegalStateException(
            "connectTimeout was already set; set it on the HttpClient instead");
      }
      if (engine != null || proxy != null) {
        throw new IllegalStateException(
            "an httpEngine or proxy was already set; they choose the client the transport builds");
      }
      this.client = client;
      return this;
    }

    /**
     * Which HTTP client the transport builds (default {@link HttpEngine#AUTO}: {@link
     * Http1Client} when no proxy applies to the endpoint, else the JDK's).
     *
     * @throws IllegalStateException if an {@link #httpClient(HttpClient)} was given
     */
    public Builder httpEngine(HttpEngine engine) {
      Objects.requireNonNull(engine, "engine");
      requireNoClient("httpEngine");
      this.engine = engine;
      return this;
    }

    /**
     * The proxy selector for the client the transport builds (default {@link
     * ProxySelector#getDefault()}). When it selects a proxy for the endpoint, {@link
     * HttpEngine#AUTO} builds the JDK client, which sends through it.
     *
     * @throws IllegalStateException if an {@link #httpClient(HttpClient)} was given
     */
    public Builder proxy(ProxySelector selector) {
      Objects.requireNonNull(selector, "selector");
      requireNoClient("proxy");
      this.proxy = selector;
      return this;
    }

    private void requireNoClient(String setting) {
      if (client != null) {
        throw new IllegalStateException(
            "an HttpClient was already set; "
                + setting
                + " configures the client the transport builds");
      }
    }

    /**
     * A header sent on every request, e.g. {@code Authorization}.
     *
     * @throws IllegalArgumentException for a header the transport manages ({@code Accept}, {@code
     *     Content-Type}, {@code Mcp-Session-Id}, {@code MCP-Protocol-Version}, {@code
     *     Last-Event-ID}, {@code Mcp-Method}, {@code Mcp-Name}, {@code Mcp-Param-*}) or one the JDK client refuses ({@code Host}, {@code Connection}…)
     */
    public Builder header(String name, String value) {
      Objects.requireNonNull(name, "name");
      Objects.requireNonNull(value, "value");
      String lower = name.toLowerCase(Locale.ROOT);
      if (lower.equals("authorization") && authorization != null) {
        throw new IllegalStateException(
            "an authorization was already set; it supplies the Authorization header");
      }
      if (MANAGED.contains(lower) || lower.startsWith("mcp-param-")) {
        throw new IllegalArgumentException("header " + name + " is managed by the transport");
      }
      HttpRequest.newBuilder()
          .header(name, value); // the JDK's own checks: restricted names, bad characters
      headers.put(name, value);
      return this;
    }

    /** Several headers; see {@link #header(String, String)}. */
    public Builder headers(Map<String, String> headers) {
      headers.forEach(this::header);
      return this;
    }

    /**
     * How long to wait for a connection (default 10 s); it also bounds {@code DELETE} on close and
     * the wait for the legacy {@code endpoint} event.
     *
     * @throws IllegalArgumentException if not positive
     * @throws IllegalStateException if an {@link #httpClient(HttpClient)} was given
     */
    public Builder connectTimeout(Duration timeout) {
      Objects.requireNonNull(timeout, "timeout");
      if (timeout.isNegative() || timeout.isZero()) {
        throw new IllegalArgumentException("connectTimeout must be positive, was " + timeout);
      }
      requireNoClient("connectTimeout");
      this.connectTimeout = timeout;
      return this;
    }

    /**
     * The largest single SSE event or JSON body accepted (default 4 MiB). A larger one fails the
     * stream carrying it rather than growing memory.
     *
     * @throws IllegalArgumentException if below 1024
     */
    public Builder maxEventBytes(int maxEventBytes) {
      if (maxEventBytes < 1024) {
        throw new IllegalArgumentException(
            "maxEventBytes must be at least 1024, was " + maxEventBytes);
      }
      this.maxEventBytes = maxEventBytes;
      return this;
    }

    /** How dropped streams are resumed (default {@link ReconnectPolicy#DEFAULT}). */
    public Builder reconnect(ReconnectPolicy policy) {
      this.reconnect = Objects.requireNonNull(policy, "policy");
      return this;
    }

    /**
     * How to authorize with a protected server (MCP 2025-11-25 basic/authorization): its header
     * goes on every request, and a {@code 401}, or a {@code 403} with {@code
     * error="insufficient_scope"}, is answered by it ({@link
     * dev.herald.client.auth.OAuthClient} runs the OAuth 2.1 flow) and the request sent again, at
     * most three times per message. A {@code 401} that cannot be answered ends the transport with
     * an {@link dev.herald.client.auth.AuthorizationException} carrying the server's challenge; an
     * unanswered step-up fails its own request (-32603 with {@code data.httpStatus} 403 and {@code
     * data.wwwAuthenticate}). Without one, a {@code 401} ends the transport the same way.
     *
     * @throws IllegalStateException if an {@code Authorization} {@link #header} was set
     */
    public Builder authorization(Authorization authorization) {
      Objects.requireNonNull(authorization, "authorization");
      for (String name : headers.keySet()) {
        if (name.equalsIgnoreCase("authorization")) {
          throw new IllegalStateException(
              "an Authorization header was already set; use either header or authorization");
        }
      }
      this.authorization = authorization;
      return this;
    }

    /** Whether to open the standing {@code GET} stream after initialization (default true). */
    public Builder openStandingStream(boolean open) {
      this.openStandingStream = open;
      return this;
    }

    /**
     * Builds the transport; nothing is connected until the first message is sent.
     *
     * @throws IllegalStateException if no {@link #uri(URI)} was set
     */
    public StreamableHttpClientTransport build() {
      if (uri == null) {
        throw new IllegalStateException("uri must be set");
      }
      return new StreamableHttpClientTransport(this);
    }
  }
}
