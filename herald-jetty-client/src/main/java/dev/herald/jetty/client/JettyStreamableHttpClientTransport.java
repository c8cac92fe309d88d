package dev.herald.jetty.client;

import dev.herald.transport.Transport;
import dev.herald.transport.TransportException;
import dev.herald.transport.http.ReconnectPolicy;
import dev.herald.transport.http.SessionExpiredException;
import dev.herald.wire.CancelledNotificationParams;
import dev.herald.wire.DecodedMessage;
import dev.herald.wire.ErrorCodes;
import dev.herald.wire.JsonRpcMessage;
import dev.herald.wire.McpJson;
import dev.herald.wire.McpMethods;
import dev.herald.wire.MessageCodec;
import dev.herald.wire.ProtocolVersion;
import dev.herald.wire.RequestId;
import java.net.URI;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.locks.ReentrantLock;
import org.eclipse.jetty.client.ContentResponse;
import org.eclipse.jetty.client.HttpClient;
import org.eclipse.jetty.client.Request;
import org.eclipse.jetty.http.HttpCookieStore;
import org.eclipse.jetty.http.HttpField;
import org.eclipse.jetty.http.HttpFields;
import org.eclipse.jetty.http.HttpHeader;
import org.eclipse.jetty.http.HttpMethod;
import org.jspecify.annotations.Nullable;
import tools.jackson.databind.JsonNode;

/**
 * The client side of the Streamable HTTP transport (MCP 2025-11-25 basic/transports §Streamable
 * HTTP) on Jetty 12's {@link HttpClient}: the same protocol as herald-core's {@link
 * dev.herald.transport.http.StreamableHttpClientTransport} (which runs on the JDK's client), for
 * hosts that make many calls and want less CPU per call. Answers are read as they arrive on
 * Jetty's threads, without a thread per exchange.
 *
 * {@snippet :
 * try (McpClient client = McpClient.builder()
 *     .info("my-host", "1.0")
 *     .connect(JettyStreamableHttpClientTransport.builder()
 *         .uri(URI.create("http://127.0.0.1:8080/mcp"))
 *         .header("Authorization", "Bearer " + token)
 *         .build())) {
 *   CallToolResult result = client.callTool("search", args);
 * }
 * }
 *
 * <p><b>Sending.</b> Every message is its own {@code POST} with {@code Accept: application/json,
 * text/event-stream}; {@link #send} returns once the body was handed to the connection, and a
 * server that cannot be reached fails it with a one-line {@link TransportException}. The {@code
 * Mcp-Session-Id} the server issues with the {@code initialize} answer goes on every later
 * request, and so does {@code MCP-Protocol-Version} once the {@code initialize} result passed
 * through.
 *
 * <p><b>Receiving.</b> {@code 202} carries nothing; an {@code application/json} answer is one
 * frame; a {@code text/event-stream} answer is read event by event. A request's stream that ends
 * before its response is resumed with {@code GET} and {@code Last-Event-ID} after the server's
 * {@code retry:} delay, as the {@link ReconnectPolicy} allows (SSE polling, SEP-1699); a stream
 * that carried no event id cannot be resumed and its request fails. After {@code
 * notifications/initialized} a standing {@code GET} stream is opened (a {@code 405} means the
 * server has none) and resumed the same way when it drops.
 *
 * <p><b>Failures.</b> A request whose exchange fails is answered locally with a JSON-RPC error
 * ({@code -32603}, or the server's own error when the refusal carried one), so that call fails and
 * the session goes on. A {@code 404} to a request that carried the session id ends the transport
 * with {@link SessionExpiredException}. {@link #close()} sends {@code DELETE} with the session id.
 *
 * <p><b>Scope.</b> This transport speaks the handshake era only (2025-03-26 to 2025-11-25): it
 * refuses a 2026-07-28 version in {@link #useProtocolVersion}, so a client set to "latest" falls
 * back to {@code initialize}, and it does not fall back to the 2024-11-05 HTTP+SSE transport. Use
 * herald-core's transport for either.
 *
 * <p><b>Threading.</b> Frames reach the receiver one at a time under one lock, in arrival order
 * per stream; none arrive after {@code onClose}. The receiver runs on Jetty's client threads and
 * must not block (Herald's session engine does not).
 */
public final class JettyStreamableHttpClientTransport implements Transport {
  /** Default largest single event or JSON body accepted: 4 MiB. */
  public static final int DEFAULT_MAX_EVENT_BYTES = 4 * 1024 * 1024;

  /** Default connect timeout, also bounding {@code DELETE} on close. */
  public static final Duration DEFAULT_CONNECT_TIMEOUT = Duration.ofSeconds(10);

  static final System.Logger LOG = System.getLogger("dev.herald.jetty.client");

  static final String ACCEPT_BOTH = "application/json, text/event-stream";

  /** A post's {@code Accept}, encoded once. */
  private static final HttpField ACCEPT_BOTH_FIELD =
      new org.eclipse.jetty.http.PreEncodedHttpField(HttpHeader.ACCEPT, ACCEPT_BOTH);

  static final String EVENT_STREAM = "text/event-stream";
  static final String JSON = "application/json";
  static final String SESSION_ID = "Mcp-Session-Id";
  static final String PROTOCOL_VERSION = "MCP-Protocol-Version";
  static final String LAST_EVENT_ID = "Last-Event-ID";

  private final URI uri;
  private final HttpClient client;
  private final boolean ownClient;
  private final Map<String, String> headers;
  private final Duration timeout;
  private final int maxEventBytes;
  private final ReconnectPolicy reconnect;
  private final boolean openStandingStream;

  /** The {@code Host} header of every request, or null to let Jetty make it (a URI with user info). */
  private final @Nullable HttpField host;

  /** The configured headers as fields, made once (every request carries them). */
  private final java.util.List<HttpField> configured;

  /**
   * The session id and protocol version fields of the last request, made again only when either
   * changes.
   */
  private volatile @Nullable SessionFields sessionFields;

  private record SessionFields(
      @Nullable String sid,
      @Nullable String version,
      @Nullable HttpField sidField,
      @Nullable HttpField versionField) {}

  private final ReentrantLock deliveryLock = new ReentrantLock();
  private volatile @Nullable Receiver receiver;
  private boolean closeReported; // guarded by deliveryLock

  private final AtomicBoolean closed = new AtomicBoolean();
  private final AtomicBoolean standingOpened = new AtomicBoolean();
  private volatile @Nullable String sessionId;
  private volatile @Nullable String protocolVersion;
  private volatile @Nullable RequestId initializeId;

  /** Requests posted whose response has not passed through yet (on any stream). */
  private final Set<RequestId> awaiting = ConcurrentHashMap.newKeySet();

  /** Open exchanges, aborted on close. */
  private final Set<Request> open = ConcurrentHashMap.newKeySet();

  private JettyStreamableHttpClientTransport(Builder b) {
    this.uri = Objects.requireNonNull(b.uri, "uri must be set");
    this.headers = Map.copyOf(b.headers);
    this.configured =
        headers.entrySet().stream().map(e -> new HttpField(e.getKey(), e.getValue())).toList();
    this.timeout = b.connectTimeout == null ? DEFAULT_CONNECT_TIMEOUT : b.connectTimeout;
    this.maxEventBytes = b.maxEventBytes;
    this.reconnect = b.reconnect;
    this.openStandingStream = b.openStandingStream;
    this.host =
        uri.getRawUserInfo() == null && uri.getRawAuthority() != null
            ? new HttpField(HttpHeader.HOST, uri.getRawAuthority())
            : null;
    if (b.client != null) {
      this.client = b.client;
      this.ownClient = false;
    } else {
      HttpClient c = new HttpClient();
      c.setConnectTimeout(timeout.toMillis());
      c.setFollowRedirects(false);
      c.setIdleTimeout(0); // a call or a standing stream may be quiet for as long as it likes
      c.setMaxConnectionsPerDestination(1024);
      c.setUserAgentField(null);
      // no cookies, as on the JDK transport; matching a request against the store costs a URI
      // per request
      c.setHttpCookieStore(new HttpCookieStore.Empty());
      try {
        c.start();
      } catch (Exception e) {
        throw new TransportException("cannot start the HTTP client: " + e.getMessage(), e);
      }
      this.client = c;
      this.ownClient = true;
    }
  }

  /** A builder for a transport to one MCP endpoint; {@link Builder#uri} is required. */
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
    return Optional.ofNullable(sessionId);
  }

  @Override
  public void start(Receiver receiver) {
    if (this.receiver != null) {
      throw new IllegalStateException("transport already started");
    }
    this.receiver = Objects.requireNonNull(receiver, "receiver");
  }

  /** Refuses the 2026-07-28 era (see "Scope" above); carries every handshake version. */
  @Override
  public boolean useProtocolVersion(ProtocolVersion version) {
    return version.handshake();
  }

  // ---------------------------------------------------------------- sending

  @Override
  public void send(JsonRpcMessage message, @Nullable RequestId relatedTo) {
    if (receiver == null) {
      throw new IllegalStateException("transport not started");
    }
    if (closed.get()) {
      throw new TransportException("transport to " + uri + " is closed");
    }
    RequestId id = null;
    if (message instanceof JsonRpcMessage.Request r) {
      id = r.id();
      if (McpMethods.INITIALIZE.equals(r.method())) {
        initializeId = id;
      }
      awaiting.add(id);
    } else if (message instanceof JsonRpcMessage.Notification n
        && McpMethods.CANCELLED.equals(n.method())) {
      stopAwaiting(n); // no response will come, so the stream is not resumed
    }
    boolean initialized =
        message instanceof JsonRpcMessage.Notification n
            && McpMethods.INITIALIZED.equals(n.method());
    Request request =
        request(HttpMethod.POST, "")
            .headers(h -> h.put(ACCEPT_BOTH_FIELD))
            .body(new JsonBody(MessageCodec.encode(message)));
    CompletableFuture<@Nullable Void> sent = new CompletableFuture<>();
    request.onRequestSuccess(r -> sent.complete(null));
    request.onRequestFailure((r, failure) -> sent.completeExceptionally(failure));
    Exchange exchange = new Exchange(this, request, id, sessionId != null, initialized, sent);
    open.add(request);
    request.send(exchange);
    try {
      sent.get();
    } catch (InterruptedException e) {
      request.abort(e);
      forget(id);
      Thread.currentThread().interrupt();
      throw new TransportException("interrupted while sending to " + uri, e);
    } catch (ExecutionException e) {
      forget(id);
      throw new TransportException("cannot reach " + uri + ": " + reason(e.getCause()), e);
    }
  }

  private void stopAwaiting(JsonRpcMessage.Notification cancelled) {
    try {
      RequestId id =
          McpJson.fromTree(cancelled.params(), CancelledNotificationParams.class).requestId();
      if (id != null) {
        awaiting.remove(id);
      }
    } catch (RuntimeException e) {
      LOG.log(System.Logger.Level.DEBUG, "unreadable cancellation sent: {0}", e.getMessage());
    }
  }

  /** A request to the endpoint with the configured headers, the session id and the version. */
  Request request(HttpMethod method, String lastEventId) {
    SessionFields session = sessionFields();
    HttpField sid = session.sidField();
    HttpField version = session.versionField();
    return client
        .newRequest(uri)
        .method(method)
        .headers(h -> {
          if (host != null) {
            h.put(host); // else Jetty builds the request's URI to find it
          }
          configured.forEach(h::put);
          if (sid != null) {
            h.put(sid);
          }
          if (version != null) {
            h.put(version);
          }
          if (!lastEventId.isEmpty()) {
            h.put(LAST_EVENT_ID, lastEventId);
          }
        });
  }

  /** The fields of the current session id and protocol version, made once per pair. */
  private SessionFields sessionFields() {
    String sid = sessionId;
    String version = protocolVersion;
    SessionFields last = sessionFields;
    if (last != null
        && Objects.equals(last.sid(), sid)
        && Objects.equals(last.version(), version)) {
      return last;
    }
    SessionFields made =
        new SessionFields(
            sid,
            version,
            sid == null ? null : new HttpField(SESSION_ID, sid),
            version == null ? null : new HttpField(PROTOCOL_VERSION, version));
    sessionFields = made;
    return made;
  }

  /** Opens an event stream with {@code GET}: the standing stream, or a resumption. */
  void get(Exchange exchange) {
    Request r = exchange.request();
    open.add(r);
    if (closed.get()) {
      open.remove(r); // closed meanwhile: abortAll may have run before this request was added
      return;
    }
    r.send(exchange);
  }

  // ---------------------------------------------------------------- shared with the exchanges

  URI endpoint() {
    return uri;
  }

  int maxEventBytes() {
    return maxEventBytes;
  }

  ReconnectPolicy reconnect() {
    return reconnect;
  }

  boolean isClosed() {
    return closed.get();
  }

  boolean hasSession() {
    return sessionId != null;
  }

  boolean isAwaiting(RequestId id) {
    return awaiting.contains(id);
  }

  void forget(@Nullable RequestId id) {
    if (id != null) {
      awaiting.remove(id);
    }
  }

  void ended(Request request) {
    open.remove(request);
  }

  /** Runs {@code task} after {@code delay} on the client's scheduler. */
  void later(Runnable task, Duration delay) {
    client.getScheduler().schedule(task, delay.toNanos(), TimeUnit.NANOSECONDS);
  }

  /** Whether {@code id} is the {@code initialize} request's, still unanswered. */
  boolean isInitialize(@Nullable RequestId id) {
    return id != null && id.equals(initializeId) && sessionId == null;
  }

  /**
   * Keeps the session id the server issued with its {@code initialize} answer; an invalid one
   * (not visible ASCII) ends the transport.
   */
  void sessionIssued(@Nullable String sid) {
    if (sid == null) {
      return;
    }
    for (int i = 0; i < sid.length(); i++) {
      char c = sid.charAt(i);
      if (c < 0x21 || c > 0x7E) {
        fail(
            new TransportException(
                "server at "
                    + uri
                    + " issued an invalid session id (MCP-Session-Id must be visible ASCII)"));
        return;
      }
    }
    sessionId = sid;
  }

  /** After {@code notifications/initialized} was accepted, the standing stream opens once. */
  void initializedAccepted() {
    if (openStandingStream && !closed.get() && standingOpened.compareAndSet(false, true)) {
      Exchange.standing(this).open();
    }
  }

  /** Hands one event's data to the receiver; priming events (blank data) are skipped. */
  void deliverEvent(byte[] data, int length) {
    for (int i = 0; i < length; i++) {
      byte b = data[i];
      if (b != ' ' && b != '\t' && b != '\n' && b != '\r') {
        deliver(MessageCodec.decode(data, 0, length));
        return;
      }
    }
  }

  /** Hands one frame to the receiver, under the delivery lock, unless the close was reported. */
  void deliver(DecodedMessage frame) {
    noteResponses(frame);
    Receiver r = Objects.requireNonNull(receiver);
    deliveryLock.lock();
    try {
      if (!closeReported) {
        r.onFrame(frame);
      }
    } finally {
      deliveryLock.unlock();
    }
  }

  /**
   * Delivers the JSON-RPC error a server explained an HTTP refusal of request {@code id} with (an
   * error with that id, or with none) as that request's error.
   *
   * @return false when {@code body} holds no such error
   */
  boolean deliverRefusal(RequestId id, byte[] body, int length) {
    if (length > 0
        && MessageCodec.decode(body, 0, length) instanceof DecodedMessage.Valid v
        && v.message() instanceof JsonRpcMessage.Error e
        && (e.id() == null || e.id().equals(id))) {
      deliver(new DecodedMessage.Valid(new JsonRpcMessage.Error(id, e.error())));
      return true;
    }
    return false;
  }

  /** Answers a request locally with an error, so its call fails and the session goes on. */
  void failRequest(RequestId id, String reason) {
    if (closed.get() || !awaiting.contains(id)) {
      return;
    }
    deliver(
        new DecodedMessage.Valid(
            new JsonRpcMessage.Error(
                id, new JsonRpcMessage.ErrorObject(ErrorCodes.INTERNAL_ERROR, reason, null))));
  }

  /** The session is gone: ends the transport with {@link SessionExpiredException}. */
  void sessionExpired() {
    fail(
        new SessionExpiredException(
            "the server at " + uri + " ended session " + sessionId + " (HTTP 404)"));
  }

  private void noteResponses(DecodedMessage frame) {
    switch (frame) {
      case DecodedMessage.Valid v -> {
        if (v.message() instanceof JsonRpcMessage.Response response && response.id() != null) {
          awaiting.remove(response.id());
          if (response instanceof JsonRpcMessage.Result result
              && result.id().equals(initializeId)) {
            String version = headerVersion(result.result());
            if (version != null) {
              protocolVersion = version;
            }
          }
        }
      }
      case DecodedMessage.Batch batch -> batch.items().forEach(this::noteResponses);
      case DecodedMessage.Invalid invalid -> {}
    }
  }

  /** The version the {@code initialize} result names, if one sent in {@code MCP-Protocol-Version}. */
  private static @Nullable String headerVersion(JsonNode result) {
    JsonNode v = result.get("protocolVersion");
    if (v != null && v.isString()) {
      return ProtocolVersion.parse(v.stringValue())
          .filter(ProtocolVersion::protocolVersionHeader)
          .map(ProtocolVersion::wire)
          .orElse(null);
    }
    return null;
  }

  /** A short reason for an I/O failure. */
  static String reason(@Nullable Throwable t) {
    String found = null;
    for (Throwable c = t; c != null; c = c.getCause()) {
      if (c instanceof java.net.ConnectException) {
        return "connection refused";
      }
      if (c instanceof java.nio.channels.UnresolvedAddressException
          || c instanceof java.net.UnknownHostException) {
        return "unknown host";
      }
      if (c.getMessage() != null && !c.getMessage().isBlank()) {
        found = c.getMessage();
      }
    }
    return found != null ? found : t == null ? "unknown failure" : t.getClass().getSimpleName();
  }

  // ---------------------------------------------------------------- close

  /** Ends the transport because of {@code cause}: no {@code DELETE}, the receiver is told why. */
  void fail(Throwable cause) {
    if (!closed.compareAndSet(false, true)) {
      return;
    }
    LOG.log(
        System.Logger.Level.DEBUG, "HTTP transport to {0} failed: {1}", uri, cause.getMessage());
    abortAll();
    reportClose(cause);
    releaseClient();
  }

  @Override
  public void close() {
    if (!closed.compareAndSet(false, true)) {
      return;
    }
    abortAll();
    if (sessionId != null) {
      deleteSession();
    }
    reportClose(null);
    releaseClient();
  }

  private void abortAll() {
    TransportException closing = new TransportException("transport closed");
    for (Request r : open) {
      r.abort(closing);
    }
    open.clear();
  }

  private void deleteSession() {
    try {
      ContentResponse r =
          request(HttpMethod.DELETE, "").timeout(timeout.toMillis(), TimeUnit.MILLISECONDS).send();
      if (r.getStatus() != 405 && (r.getStatus() < 200 || r.getStatus() > 299)) {
        LOG.log(System.Logger.Level.DEBUG, "DELETE {0} answered HTTP {1}", uri, r.getStatus());
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    } catch (ExecutionException | java.util.concurrent.TimeoutException e) {
      LOG.log(System.Logger.Level.DEBUG, "DELETE {0} failed: {1}", uri, reason(e));
    }
  }

  private void reportClose(@Nullable Throwable cause) {
    Receiver r = receiver;
    deliveryLock.lock();
    try {
      if (closeReported) {
        return;
      }
      closeReported = true;
    } finally {
      deliveryLock.unlock();
    }
    if (r != null) {
      r.onClose(cause);
    }
  }

  private void releaseClient() {
    if (ownClient) {
      // stopped from a thread of its own: close may run on one of the client's threads
      Thread.ofVirtual()
          .name("herald-jetty-client-stop")
          .start(() -> {
            try {
              client.stop();
            } catch (Exception e) {
              LOG.log(System.Logger.Level.DEBUG, "stopping the HTTP client failed", e);
            }
          });
    }
  }

  /**
   * Builds a {@link JettyStreamableHttpClientTransport}. Only {@link #uri(URI)} is required.
   *
   * {@snippet :
   * JettyStreamableHttpClientTransport transport = JettyStreamableHttpClientTransport.builder()
   *     .uri(URI.create("https://example.com/mcp"))
   *     .header("Authorization", "Bearer " + token)
   *     .connectTimeout(Duration.ofSeconds(5))
   *     .build();
   * }
   */
  public static final class Builder {
    private static final Set<String> MANAGED =
        Set.of(
            "accept",
            "content-type",
            "content-length",
            "host",
            "mcp-session-id",
            "mcp-protocol-version",
            "last-event-id");

    private @Nullable URI uri;
    private @Nullable HttpClient client;
    private final Map<String, String> headers = new LinkedHashMap<>();
    private @Nullable Duration connectTimeout;
    private int maxEventBytes = DEFAULT_MAX_EVENT_BYTES;
    private ReconnectPolicy reconnect = ReconnectPolicy.DEFAULT;
    private boolean openStandingStream = true;

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
     * The Jetty client to use (for TLS, proxies, HTTP/2), already started. By default the
     * transport makes its own and stops it on close; a client given here is never stopped by the
     * transport.
     *
     * @throws IllegalStateException if {@link #connectTimeout} was set: set it on this client
     */
    public Builder httpClient(HttpClient client) {
      if (connectTimeout != null) {
        throw new IllegalStateException(
            "connectTimeout was already set; set it on the HttpClient instead");
      }
      this.client = Objects.requireNonNull(client, "client");
      return this;
    }

    /**
     * A header sent on every request, e.g. {@code Authorization}.
     *
     * @throws IllegalArgumentException for a header the transport manages ({@code Accept}, {@code
     *     Content-Type}, {@code Mcp-Session-Id}, {@code MCP-Protocol-Version}, {@code
     *     Last-Event-ID}…) or a name or value with line breaks
     */
    public Builder header(String name, String value) {
      Objects.requireNonNull(name, "name");
      Objects.requireNonNull(value, "value");
      String lower = name.toLowerCase(Locale.ROOT);
      if (MANAGED.contains(lower) || lower.startsWith("mcp-")) {
        throw new IllegalArgumentException("header " + name + " is managed by the transport");
      }
      if (name.isEmpty() || name.chars().anyMatch(c -> c <= 0x20 || c >= 0x7F || c == ':')) {
        throw new IllegalArgumentException("invalid header name " + name);
      }
      if (value.chars().anyMatch(c -> c == '\r' || c == '\n' || c == 0)) {
        throw new IllegalArgumentException("invalid value for header " + name);
      }
      HttpFields.build().put(name, value); // Jetty's own checks
      headers.put(name, value);
      return this;
    }

    /** Several headers; see {@link #header(String, String)}. */
    public Builder headers(Map<String, String> headers) {
      headers.forEach(this::header);
      return this;
    }

    /**
     * How long to wait for a connection (default 10 s); it also bounds {@code DELETE} on close.
     *
     * @throws IllegalArgumentException if not positive
     * @throws IllegalStateException if an {@link #httpClient(HttpClient)} was given
     */
    public Builder connectTimeout(Duration timeout) {
      Objects.requireNonNull(timeout, "timeout");
      if (timeout.isNegative() || timeout.isZero()) {
        throw new IllegalArgumentException("connectTimeout must be positive, was " + timeout);
      }
      if (client != null) {
        throw new IllegalStateException(
            "an HttpClient was already set; set its connectTimeout instead");
      }
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
    public JettyStreamableHttpClientTransport build() {
      if (uri == null) {
        throw new IllegalStateException("uri must be set");
      }
      return new JettyStreamableHttpClientTransport(this);
    }
  }
}
