package dev.herald.transport.http;

import dev.herald.transport.Transport;
import dev.herald.transport.TransportException;
import dev.herald.wire.DecodedMessage;
import dev.herald.wire.ErrorCodes;
import dev.herald.wire.JsonRpcMessage;
import dev.herald.wire.McpMethods;
import dev.herald.wire.MessageCodec;
import dev.herald.wire.ProtocolVersion;
import dev.herald.wire.RequestId;
import java.io.IOException;
import java.io.InputStream;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicReference;
import java.util.concurrent.locks.ReentrantLock;
import org.jspecify.annotations.Nullable;
import tools.jackson.databind.JsonNode;

/**
 * The client side of the Streamable HTTP transport (MCP 2025-11-25 basic/transports §Streamable
 * HTTP), on the JDK's {@link HttpClient}.
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
 * when the server answers, so a slow call never blocks its caller; a server that cannot be reached
 * fails {@code send} at once with a one-line {@link TransportException} ("cannot reach URI:
 * connection refused"). Once the server issues {@code Mcp-Session-Id} (on the response to {@code
 * initialize}) it goes on every later request, and so does {@code MCP-Protocol-Version} once the
 * {@code initialize} result has passed through: the only method this transport ever looks at is
 * {@code initialize} (to learn those two) and {@code notifications/initialized} (to open the
 * standing stream after it).
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
 * <p><b>Threading.</b> All I/O runs on virtual threads, one per open stream. Frames reach the
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

  private enum Mode {
    /** Nothing sent yet. */
    NEW,
    /** {@code initialize} is out; other senders wait to learn which transport the server speaks. */
    PROBING,
    STREAMABLE,
    LEGACY
  }

  private final URI uri;
  private final HttpClient client;
  private final @Nullable ExecutorService ownExecutor;
  private final Map<String, String> headers;
  private final Duration timeout;
  private final int maxEventBytes;
  private final ReconnectPolicy reconnect;
  private final boolean openStandingStream;

  private final AtomicBoolean started = new AtomicBoolean();
  private final AtomicBoolean closed = new AtomicBoolean();
  private final AtomicBoolean standingOpened = new AtomicBoolean();
  /**
   * Completes once the standing GET has been answered (or was not opened, or failed). Messages
   * sent after {@code notifications/initialized} wait for it, briefly, so the standing stream is
   * established before the first call's stream: a server then never mistakes the standing GET
   * for the resumption of a call's stream.
   */
  private final java.util.concurrent.CompletableFuture<Void> standingReady = new java.util.concurrent.CompletableFuture<>();
  private volatile boolean initializedSent;
  /** How long a message after {@code initialized} waits for the standing GET's answer at most. */
  static final java.time.Duration STANDING_WAIT = java.time.Duration.ofMillis(500);
  private final AtomicReference<Mode> mode = new AtomicReference<>(Mode.NEW);
  /** Completes when the mode leaves PROBING; fails when the probe fails. */
  private final CompletableFuture<@Nullable Void> routed = new CompletableFuture<>();
  /** Guards delivery to the receiver and {@link #closeReported}. */
  private final ReentrantLock deliveryLock = new ReentrantLock();
  /** Requests posted whose response has not passed through yet (any stream). */
  private final Set<RequestId> awaiting = ConcurrentHashMap.newKeySet();
  private final Set<Thread> workers = ConcurrentHashMap.newKeySet();
  private final Set<InputStream> openBodies = ConcurrentHashMap.newKeySet();

  private volatile @Nullable Receiver receiver;
  /** Guarded by {@link #deliveryLock}. */
  private boolean closeReported;
  /** Written once, by the thread reading the response to {@code initialize}. */
  private volatile @Nullable String sessionId;
  /** Written once, by the delivery of the {@code initialize} result. */
  private volatile @Nullable String protocolVersion;
  private volatile @Nullable RequestId initializeId;
  private volatile @Nullable LegacySseConnection legacy;

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
    if (b.client != null) {
      this.client = b.client;
      this.ownExecutor = null;
    } else {
      this.ownExecutor = Executors.newVirtualThreadPerTaskExecutor();
      this.client =
          HttpClient.newBuilder()
              .version(HttpClient.Version.HTTP_1_1)
              .connectTimeout(timeout)
              .followRedirects(HttpClient.Redirect.NEVER)
              .executor(ownExecutor)
              .build();
    }
  }

  public static Builder builder() {
    return new Builder();
  }

  /** The MCP endpoint. */
  public URI uri() {
    return uri;
  }

  /** The session id the server issued, if any. */
  public java.util.Optional<String> sessionId() {
    return java.util.Optional.ofNullable(sessionId);
  }

  /** Whether the server turned out to speak only the 2024-11-05 HTTP+SSE transport. */
  public boolean isLegacy() {
    return mode.get() == Mode.LEGACY;
  }

  @Override
  public void start(Receiver receiver) {
    if (!started.compareAndSet(false, true)) {
      throw new IllegalStateException("transport already started");
    }
    this.receiver = Objects.requireNonNull(receiver, "receiver");
  }

  @Override
  public void send(JsonRpcMessage message, @Nullable RequestId relatedTo) {
    if (receiver == null) {
      throw new IllegalStateException("transport not started");
    }
    ensureOpen();
    boolean probe = false;
    if (message instanceof JsonRpcMessage.Request r && McpMethods.INITIALIZE.equals(r.method())) {
      initializeId = r.id();
      probe = mode.compareAndSet(Mode.NEW, Mode.PROBING);
    } else if (mode.compareAndSet(Mode.NEW, Mode.STREAMABLE)) {
      routed.complete(null); // the first message is not initialize: no fallback to try
    }
    if (!probe) {
      awaitRoute();
    }
    if (initializedSent) {
      awaitStanding();
    }
    if (message instanceof JsonRpcMessage.Notification n && McpMethods.INITIALIZED.equals(n.method())) {
      initializedSent = true;
      if (!openStandingStream) {
        standingReady.complete(null);
      }
    }
    LegacySseConnection old = legacy;
    if (old != null) {
      old.post(message);
      standingSettled(); // the old transport has one stream for everything: nothing to wait for
    } else {
      post(message, probe);
    }
  }

  private void awaitStanding() {
    if (standingReady.isDone()) {
      return;
    }
    try {
      standingReady.get(STANDING_WAIT.toMillis(), java.util.concurrent.TimeUnit.MILLISECONDS);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new TransportException("interrupted while waiting for the standing stream of " + uri, e);
    } catch (ExecutionException | java.util.concurrent.TimeoutException e) {
      // a server that holds back the GET's headers, or none at all: go on without waiting again
      standingReady.complete(null);
    }
  }

  /** The standing GET was answered, refused or not opened: later messages need not wait. */
  void standingSettled() {
    standingReady.complete(null);
  }

  private void awaitRoute() {
    try {
      routed.get();
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new TransportException("interrupted while waiting for " + uri + " to answer initialize", e);
    } catch (ExecutionException e) {
      throw e.getCause() instanceof TransportException te ? te : Http.unreachable(uri, e.getCause());
    }
    ensureOpen();
  }

  private void ensureOpen() {
    if (closed.get()) {
      throw new TransportException("HTTP transport to " + uri + " is closed");
    }
  }

  // ---------------------------------------------------------------- POST

  private void post(JsonRpcMessage message, boolean probe) {
    boolean carriedSession = sessionId != null;
    Http.SignallingPublisher body = new Http.SignallingPublisher(MessageCodec.encode(message));
    HttpRequest request =
        request(uri).header("Accept", Http.ACCEPT_BOTH).header("Content-Type", Http.JSON).POST(body).build();
    RequestId id = message instanceof JsonRpcMessage.Request r ? r.id() : null;
    if (id != null) {
      awaiting.add(id);
    }
    CompletableFuture<HttpResponse<InputStream>> response = client.sendAsync(request, HttpResponse.BodyHandlers.ofInputStream());
    try {
      CompletableFuture.anyOf(body.sent(), response).get();
    } catch (InterruptedException e) {
      response.cancel(true);
      forget(id);
      Thread.currentThread().interrupt();
      throw failProbe(probe, new TransportException("interrupted while sending to " + uri, e));
    } catch (ExecutionException e) {
      forget(id);
      throw failProbe(probe, Http.unreachable(uri, e.getCause()));
    }
    spawn("post", () -> onPostResponse(message, probe, carriedSession, response));
  }

  private TransportException failProbe(boolean probe, TransportException e) {
    if (probe) {
      routed.completeExceptionally(e);
    }
    return e;
  }

  private void forget(@Nullable RequestId id) {
    if (id != null) {
      awaiting.remove(id);
    }
  }

  private void onPostResponse(
      JsonRpcMessage message, boolean probe, boolean carriedSession, CompletableFuture<HttpResponse<InputStream>> pending) {
    RequestId id = message instanceof JsonRpcMessage.Request r ? r.id() : null;
    HttpResponse<InputStream> response;
    try {
      response = pending.get();
    } catch (InterruptedException e) {
      pending.cancel(true);
      return; // closing
    } catch (ExecutionException e) {
      TransportException failure = Http.unreachable(uri, e.getCause());
      if (probe) {
        routed.completeExceptionally(failure);
        fail(failure);
      } else {
        failMessage(id, failure.getMessage());
      }
      return;
    }
    InputStream in = track(response.body());
    try {
      int status = response.statusCode();
      if (probe && (status == 400 || status == 404 || status == 405)) {
        Http.discard(in);
        fallBackToLegacy(message, status);
        return;
      }
      if (status == 404 && carriedSession) {
        Http.discard(in);
        fail(new SessionExpiredException("the server at " + uri + " ended session " + sessionId + " (HTTP 404)"));
        return;
      }
      if (probe) {
        if (Http.isSuccess(status) && !captureSession(response)) {
          Http.discard(in);
          return;
        }
        mode.set(Mode.STREAMABLE);
        routed.complete(null);
      }
      if (!Http.isSuccess(status)) {
        onHttpError(id, status, in);
        return;
      }
      if (Http.isMediaType(response.headers(), Http.EVENT_STREAM)) {
        afterAccepted(message);
        if (id != null) {
          new ResumableStream(this, id).readThenResume(in);
        } else {
          new ResumableStream(this, null).readOnce(in); // a stream for a notification: never resumed
        }
        return;
      }
      byte[] bytes = Http.readBounded(in, maxEventBytes);
      afterAccepted(message);
      if (bytes.length > 0 && status != 202) {
        if (Http.isMediaType(response.headers(), Http.JSON)) {
          deliver(MessageCodec.decode(bytes));
        } else {
          failMessage(id, "unexpected Content-Type "
              + response.headers().firstValue("Content-Type").orElse("(none)") + " from " + uri);
        }
      }
      if (id != null) {
        // A request answered with neither its response nor a stream would otherwise wait forever.
        failRequest(id, uri + " answered request " + id + " with HTTP " + status + " but no response");
      }
    } catch (IOException | TransportException e) {
      if (!closed.get()) {
        failMessage(id, "reading the response from " + uri + " failed: " + Http.reason(e));
      }
    } finally {
      untrack(in);
    }
  }

  /** Reads {@code Mcp-Session-Id} from the answer to {@code initialize}; false when it is invalid. */
  private boolean captureSession(HttpResponse<?> response) {
    String sid = response.headers().firstValue(Http.SESSION_ID).orElse(null);
    if (sid == null) {
      return true;
    }
    for (int i = 0; i < sid.length(); i++) {
      char c = sid.charAt(i);
      if (c < 0x21 || c > 0x7E) {
        TransportException e = new TransportException("server at " + uri + " issued an invalid session id (MCP-Session-Id must be visible ASCII)");
        routed.completeExceptionally(e);
        fail(e);
        return false;
      }
    }
    sessionId = sid;
    return true;
  }

  private void afterAccepted(JsonRpcMessage message) {
    if (message instanceof JsonRpcMessage.Notification n && McpMethods.INITIALIZED.equals(n.method())) {
      if (openStandingStream && mode.get() == Mode.STREAMABLE && standingOpened.compareAndSet(false, true)) {
        spawn("get", () -> new ResumableStream(this, null).openStanding());
      } else {
        standingSettled();
      }
    }
  }

  private void onHttpError(@Nullable RequestId id, int status, InputStream in) throws IOException {
    byte[] bytes;
    try {
      bytes = Http.readBounded(in, 64 * 1024);
    } catch (TransportException e) {
      bytes = new byte[0];
    }
    if (id == null) {
      LOG.log(System.Logger.Level.WARNING, "{0} refused a message with HTTP {1}", uri, status);
      return;
    }
    // The server may explain itself with a JSON-RPC error (with our id, or with none).
    if (bytes.length > 0
        && MessageCodec.decode(bytes) instanceof DecodedMessage.Valid v
        && v.message() instanceof JsonRpcMessage.Error e
        && (e.id() == null || e.id().equals(id))) {
      deliver(new DecodedMessage.Valid(new JsonRpcMessage.Error(id, e.error())));
      return;
    }
    failRequest(id, "HTTP " + status + " from " + uri);
  }

  private void failMessage(@Nullable RequestId id, String reason) {
    if (id != null) {
      failRequest(id, reason);
    } else {
      LOG.log(System.Logger.Level.WARNING, "{0}", reason);
    }
  }

  /** Answers a request locally with an error, so its call fails and the session goes on. */
  void failRequest(RequestId id, String reason) {
    if (closed.get() || !awaiting.contains(id)) {
      return;
    }
    deliver(new DecodedMessage.Valid(
        new JsonRpcMessage.Error(id, new JsonRpcMessage.ErrorObject(ErrorCodes.INTERNAL_ERROR, reason, null))));
  }

  // ---------------------------------------------------------------- legacy fallback

  private void fallBackToLegacy(JsonRpcMessage initialize, int status) {
    LegacySseConnection connection = new LegacySseConnection(this, uri);
    try {
      connection.open(status, timeout);
      legacy = connection;
      mode.set(Mode.LEGACY);
      connection.post(initialize);
      routed.complete(null);
    } catch (TransportException e) {
      routed.completeExceptionally(e);
      fail(e);
    }
  }

  // ---------------------------------------------------------------- shared with the streams

  HttpRequest.Builder request(URI target) {
    HttpRequest.Builder b = HttpRequest.newBuilder(target);
    headers.forEach(b::header);
    String sid = sessionId;
    if (sid != null) {
      b.header(Http.SESSION_ID, sid);
    }
    String version = protocolVersion;
    if (version != null) {
      b.header(Http.PROTOCOL_VERSION, version);
    }
    return b;
  }

  /** A {@code GET} for an event stream, resuming after {@code lastEventId} when it is not empty. */
  HttpResponse<InputStream> get(String lastEventId) throws IOException, InterruptedException {
    HttpRequest.Builder b = request(uri).header("Accept", Http.EVENT_STREAM).GET();
    if (!lastEventId.isEmpty()) {
      b.header(Http.LAST_EVENT_ID, lastEventId);
    }
    return client.send(b.build(), HttpResponse.BodyHandlers.ofInputStream());
  }

  HttpClient client() {
    return client;
  }

  int maxEventBytes() {
    return maxEventBytes;
  }

  ReconnectPolicy reconnect() {
    return reconnect;
  }

  boolean hasSession() {
    return sessionId != null;
  }

  boolean isClosed() {
    return closed.get();
  }

  /** Whether the response to {@code id} has yet to pass through. */
  boolean isAwaiting(RequestId id) {
    return awaiting.contains(id);
  }

  /** The session is gone: ends the transport with {@link SessionExpiredException}. */
  void sessionExpired() {
    fail(new SessionExpiredException("the server at " + uri + " ended session " + sessionId + " (HTTP 404)"));
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

  private void noteResponses(DecodedMessage frame) {
    switch (frame) {
      case DecodedMessage.Valid v -> {
        if (v.message() instanceof JsonRpcMessage.Response response && response.id() != null) {
          awaiting.remove(response.id());
          if (response instanceof JsonRpcMessage.Result result && result.id().equals(initializeId)) {
            learnVersion(result.result());
          }
        }
      }
      case DecodedMessage.Batch batch -> batch.items().forEach(this::noteResponses);
      case DecodedMessage.Invalid invalid -> {}
    }
  }

  /** Peeks at the {@code initialize} result: the version to name in {@code MCP-Protocol-Version}. */
  private void learnVersion(JsonNode result) {
    JsonNode v = result.get("protocolVersion");
    if (v != null && v.isString()) {
      ProtocolVersion.parse(v.stringValue())
          .filter(ProtocolVersion::protocolVersionHeader)
          .ifPresent(p -> protocolVersion = p.wire());
    }
    initializeId = null;
  }

  /** Runs {@code task} on a new virtual thread that {@link #close()} interrupts. */
  void spawn(String name, Runnable task) {
    Thread t = Thread.ofVirtual().name("herald-http-" + name).unstarted(() -> {
      try {
        if (!closed.get()) {
          task.run();
        }
      } catch (RuntimeException e) {
        if (!closed.get()) {
          LOG.log(System.Logger.Level.WARNING, "HTTP transport worker failed", e);
        }
      } finally {
        workers.remove(Thread.currentThread());
      }
    });
    workers.add(t);
    t.start();
  }

  /** Threads still working for this transport (tests check that close ends them). */
  int workerCount() {
    return workers.size();
  }

  /** Registers a response body so that {@link #close()} can cancel it. */
  InputStream track(InputStream in) {
    openBodies.add(in);
    if (closed.get()) {
      Http.discard(in);
    }
    return in;
  }

  void untrack(InputStream in) {
    openBodies.remove(in);
  }

  // ---------------------------------------------------------------- close

  /** Ends the transport because of {@code cause}: no {@code DELETE}, the receiver is told why. */
  void fail(Throwable cause) {
    if (!closed.compareAndSet(false, true)) {
      return;
    }
    LOG.log(System.Logger.Level.DEBUG, "HTTP transport to {0} failed: {1}", uri, cause.getMessage());
    routed.completeExceptionally(cause);
    cancelStreams();
    reportClose(cause);
    releaseClient();
  }

  @Override
  public void close() {
    if (!closed.compareAndSet(false, true)) {
      return;
    }
    routed.completeExceptionally(new TransportException("HTTP transport to " + uri + " is closed"));
    cancelStreams();
    String sid = sessionId;
    if (sid != null && mode.get() == Mode.STREAMABLE) {
      deleteSession();
    }
    reportClose(null);
    releaseClient();
  }

  private void deleteSession() {
    try {
      HttpResponse<Void> r = client.send(request(uri).timeout(timeout).DELETE().build(), HttpResponse.BodyHandlers.discarding());
      if (r.statusCode() != 405 && !Http.isSuccess(r.statusCode())) {
        LOG.log(System.Logger.Level.DEBUG, "DELETE {0} answered HTTP {1}", uri, r.statusCode());
      }
    } catch (IOException e) {
      LOG.log(System.Logger.Level.DEBUG, "DELETE {0} failed: {1}", uri, Http.reason(e));
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }

  private void cancelStreams() {
    for (InputStream in : openBodies) {
      Http.discard(in);
    }
    openBodies.clear();
    for (Thread t : workers) {
      if (t != Thread.currentThread()) {
        t.interrupt();
      }
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
    if (ownExecutor != null) {
      client.shutdownNow();
      ownExecutor.shutdown();
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
        Set.of("accept", "content-type", "mcp-session-id", "mcp-protocol-version", "last-event-id");

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
     * The client to use (for TLS, proxies, authenticators, HTTP/2). By default the transport
     * builds its own HTTP/1.1 client on virtual threads and shuts it down on close; a client
     * given here is never shut down by the transport.
     *
     * @throws IllegalStateException if {@link #connectTimeout} was set: set it on this client
     */
    public Builder httpClient(HttpClient client) {
      if (connectTimeout != null) {
        throw new IllegalStateException("connectTimeout was already set; set it on the HttpClient instead");
      }
      this.client = Objects.requireNonNull(client, "client");
      return this;
    }

    /**
     * A header sent on every request, e.g. {@code Authorization}.
     *
     * @throws IllegalArgumentException for a header the transport manages ({@code Accept}, {@code
     *     Content-Type}, {@code Mcp-Session-Id}, {@code MCP-Protocol-Version}, {@code
     *     Last-Event-ID}) or one the JDK client refuses ({@code Host}, {@code Connection}…)
     */
    public Builder header(String name, String value) {
      Objects.requireNonNull(name, "name");
      Objects.requireNonNull(value, "value");
      if (MANAGED.contains(name.toLowerCase(Locale.ROOT))) {
        throw new IllegalArgumentException("header " + name + " is managed by the transport");
      }
      HttpRequest.newBuilder().header(name, value); // the JDK's own checks: restricted names, bad characters
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
      if (client != null) {
        throw new IllegalStateException("an HttpClient was already set; set its connectTimeout instead");
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
        throw new IllegalArgumentException("maxEventBytes must be at least 1024, was " + maxEventBytes);
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
    public StreamableHttpClientTransport build() {
      if (uri == null) {
        throw new IllegalStateException("uri must be set");
      }
      return new StreamableHttpClientTransport(this);
    }
  }
}
