package dev.herald.transport.http;

import java.io.IOException;
import java.net.Authenticator;
import java.net.CookieHandler;
import java.net.ProxySelector;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.ByteBuffer;
import java.time.Duration;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.CancellationException;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Executor;
import java.util.concurrent.Flow;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.ReentrantLock;
import javax.net.ssl.SSLContext;
import javax.net.ssl.SSLParameters;
import org.jspecify.annotations.Nullable;

/**
 * An HTTP/1.1 client that makes each exchange on the thread that sends it: for many small
 * request/response exchanges, such as an MCP client making many tool calls through {@link
 * StreamableHttpClientTransport} ({@code StreamableHttpClientTransport.builder().httpClient(
 * Http1Client.newClient())}). Every feature of that transport works on it: both protocol eras,
 * event-stream answers and their resumption, the standing {@code GET}, session expiry, {@code
 * DELETE}, the authorization retry and the legacy HTTP+SSE fallback.
 *
 * <p><b>How an exchange runs.</b> {@link #sendAsync} takes a pooled keep-alive connection to the
 * request's scheme, host and port (the most recently used first; a new one when none is idle,
 * within the connect timeout), writes the request's head and its whole body in one write (the
 * body publisher is drained synchronously; the body goes out with {@code Content-Length}), then
 * waits on the sending thread for the answer's head for at most the {@linkplain
 * Builder#headWait head wait} (and the request's {@link HttpRequest#timeout() timeout}). When the
 * head comes in time, the body handler runs on the sending thread, and a body subscriber that
 * reads the body whole gets it there too: the response is complete before {@code sendAsync}
 * returns, without a selector thread or a hand-off between threads. When the head does not come
 * in time, a virtual thread waits for it and {@code sendAsync} returns the incomplete future, so
 * a slow answer pins the sender for the head wait at most. A body subscriber that reads as it
 * goes (such as {@link HttpResponse.BodySubscribers#ofInputStream()}) reads from the socket on
 * the thread that asks for more: the one reading the stream. {@link #send} runs the whole
 * exchange on the calling thread.
 *
 * <p><b>Connections.</b> A connection goes back to the pool only once its body was read to the
 * end and the server did not say {@code Connection: close}; after an error, a cancellation (of
 * the future, of the body's subscription, or the closing of a body stream), a timeout or a
 * malformed answer it is closed. A connection idle for more than a second is checked before it is
 * reused (a non-blocking read: the end of the stream means the server closed it). When a reused
 * connection fails before any byte of the answer arrived and before the head wait ran out, the
 * request is sent once more on a new connection: this is what browsers, OkHttp and the JDK client
 * do for idempotent requests, because a server may close an idle keep-alive connection just as a
 * request is written. It is safe enough for MCP {@code POST}s because a server that closes a
 * connection without answering has not read the request (a server that crashed while handling
 * it, after the head wait, is not retried).
 *
 * <p><b>What it does not do.</b> HTTP/2 ({@link #version()} is {@code HTTP_1_1}; a request asking
 * for HTTP/2 gets HTTP/1.1), proxies, redirects ({@link #followRedirects()} is {@code NEVER}: a
 * 3xx is returned as is), cookies, authentication challenges, {@code Expect: 100-continue}, server
 * push, and WebSocket ({@link #newWebSocketBuilder()} throws {@link
 * UnsupportedOperationException}). The fields {@code Host}, {@code Content-Length}, {@code
 * Transfer-Encoding}, {@code Connection} and {@code Upgrade} are its own; a request's values for
 * them are ignored.
 *
 * <p>Thread-safe. {@link #close()} and {@link #shutdownNow()} close every pooled and in-flight
 * connection; {@link #shutdown()} closes the idle ones and lets the exchanges in flight finish.
 */
public final class Http1Client extends HttpClient {
  /** The default {@linkplain Builder#headWait head wait}: 10 ms. */
  public static final Duration DEFAULT_HEAD_WAIT = Duration.ofMillis(10);

  /** The default connect timeout: 10 seconds. */
  public static final Duration DEFAULT_CONNECT_TIMEOUT = Duration.ofSeconds(10);

  /** The default time an idle connection is kept: 30 seconds. */
  public static final Duration DEFAULT_IDLE_TIMEOUT = Duration.ofSeconds(30);

  /** The default number of idle connections kept per scheme, host and port. */
  public static final int DEFAULT_MAX_IDLE_PER_ORIGIN = 64;

  /** How long a connection may be idle before it is checked for a close by the server. */
  private static final long CHECK_AFTER_IDLE = TimeUnit.SECONDS.toNanos(1);

  private static final Set<String> RESTRICTED =
      Set.of("host", "content-length", "transfer-encoding", "connection", "upgrade", "expect");

  private final @Nullable Duration connectTimeout;
  private final long headWaitNanos;
  private final long idleTimeoutNanos;
  private final int maxIdlePerOrigin;
  private final SSLContext tls;
  private final SSLParameters tlsParameters;

  /** Idle connections per origin, the most recently used last. Guarded by {@link #lock}. */
  private final Map<Origin, ArrayDeque<Http1Connection>> idle = new java.util.HashMap<>();

  /** Exchanges in flight (between taking a connection and giving it back or closing it). */
  private final Set<Http1Exchange<?>> inFlight = ConcurrentHashMap.newKeySet();

  private final ReentrantLock lock = new ReentrantLock();
  private final Condition drained = lock.newCondition();

  /** Set by {@link #shutdown}; guarded by {@link #lock}. */
  private volatile boolean shutdown;

  private Http1Client(Builder b) {
    this.connectTimeout = b.connectTimeout;
    this.headWaitNanos = b.headWait.toNanos();
    this.idleTimeoutNanos = b.idleTimeout.toNanos();
    this.maxIdlePerOrigin = b.maxIdlePerOrigin;
    this.tls = b.sslContext == null ? LazyTls.context() : b.sslContext;
    this.tlsParameters = b.sslParameters == null ? LazyTls.parameters() : b.sslParameters;
  }

  /** A client with every default. */
  public static Http1Client newClient() {
    return builder().build();
  }

  /** A builder; every setting has the default its setter names. */
  public static Builder builder() {
    return new Builder();
  }

  @Override
  public <T> CompletableFuture<HttpResponse<T>> sendAsync(
      HttpRequest request, HttpResponse.BodyHandler<T> handler) {
    Http1Exchange<T> exchange = newExchange(request, handler);
    if (shutdown) {
      return CompletableFuture.failedFuture(shutDown());
    }
    exchange.start(headWaitNanos);
    return exchange.result();
  }

  /** As {@link #sendAsync(HttpRequest, HttpResponse.BodyHandler)}: there is no server push. */
  @Override
  public <T> CompletableFuture<HttpResponse<T>> sendAsync(
      HttpRequest request,
      HttpResponse.BodyHandler<T> handler,
      HttpResponse.@Nullable PushPromiseHandler<T> pushPromiseHandler) {
    return sendAsync(request, handler);
  }

  /**
   * Sends the request and reads the answer's head on the calling thread.
   *
   * @throws java.net.http.HttpConnectTimeoutException when the connection could not be made in
   *     time
   * @throws java.net.http.HttpTimeoutException when the head did not come within the request's
   *     timeout
   * @throws IOException when the server cannot be reached, closed the connection or answered
   *     something that is not HTTP/1.1
   * @throws InterruptedException when interrupted; the exchange is given up
   */
  @Override
  public <T> HttpResponse<T> send(HttpRequest request, HttpResponse.BodyHandler<T> handler)
      throws IOException, InterruptedException {
    Http1Exchange<T> exchange = newExchange(request, handler);
    if (shutdown) {
      throw shutDown();
    }
    exchange.start(Long.MAX_VALUE);
    try {
      return exchange.result().get();
    } catch (InterruptedException e) {
      exchange.abort();
      throw e;
    } catch (CancellationException e) {
      throw new IOException("request to " + request.uri() + " was cancelled", e);
    } catch (ExecutionException e) {
      Throwable cause = e.getCause();
      if (Thread.currentThread().isInterrupted()) {
        // an interrupt of the sender closes the socket (an interruptible channel)
        InterruptedException i = new InterruptedException("interrupted");
        i.initCause(cause);
        throw i;
      }
      if (cause instanceof IOException io) {
        throw io;
      }
      if (cause instanceof RuntimeException r) {
        throw r;
      }
      if (cause instanceof Error err) {
        throw err;
      }
      throw new IOException(cause);
    }
  }

  private <T> Http1Exchange<T> newExchange(
      HttpRequest request, HttpResponse.BodyHandler<T> handler) {
    Objects.requireNonNull(request, "request");
    Objects.requireNonNull(handler, "handler");
    return new Http1Exchange<>(this, request, handler);
  }

  private static IOException shutDown() {
    return new IOException("this Http1Client is shut down");
  }

  /** The head wait of {@link #sendAsync}: how long the sender waits for an answer's head. */
  public Duration headWait() {
    return Duration.ofNanos(headWaitNanos);
  }

  @Override
  public Optional<CookieHandler> cookieHandler() {
    return Optional.empty();
  }

  @Override
  public Optional<Duration> connectTimeout() {
    return Optional.ofNullable(connectTimeout);
  }

  @Override
  public Redirect followRedirects() {
    return Redirect.NEVER;
  }

  @Override
  public Optional<ProxySelector> proxy() {
    return Optional.empty();
  }

  @Override
  public SSLContext sslContext() {
    return tls;
  }

  @Override
  public SSLParameters sslParameters() {
    return copy(tlsParameters);
  }

  @Override
  public Optional<Authenticator> authenticator() {
    return Optional.empty();
  }

  @Override
  public Version version() {
    return Version.HTTP_1_1;
  }

  /** Empty: exchanges run on the thread that sends them, or on virtual threads. */
  @Override
  public Optional<Executor> executor() {
    return Optional.empty();
  }

  /** Refuses new exchanges and closes the idle connections; those in flight finish. */
  @Override
  public void shutdown() {
    List<Http1Connection> closing = new ArrayList<>();
    lock.lock();
    try {
      shutdown = true;
      idle.values().forEach(closing::addAll);
      idle.clear();
      drained.signalAll();
    } finally {
      lock.unlock();
    }
    closing.forEach(Http1Connection::close);
  }

  /** As {@link #shutdown()}, and closes the connections of the exchanges in flight. */
  @Override
  public void shutdownNow() {
    shutdown();
    for (Http1Exchange<?> e : List.copyOf(inFlight)) {
      e.abort();
    }
  }

  @Override
  public boolean awaitTermination(Duration duration) throws InterruptedException {
    long left = duration.toNanos();
    lock.lock();
    try {
      while (!isTerminated()) {
        if (left <= 0) {
          return false;
        }
        left = drained.awaitNanos(left);
      }
      return true;
    } finally {
      lock.unlock();
    }
  }

  @Override
  public boolean isTerminated() {
    return shutdown && inFlight.isEmpty();
  }

  /** Closes every pooled and in-flight connection at once, and refuses new exchanges. */
  @Override
  public void close() {
    shutdownNow();
  }

  // -- the pool, for Http1Exchange

  void started(Http1Exchange<?> exchange) {
    inFlight.add(exchange);
    if (shutdown) {
      exchange.abort(); // shut down between the check and now
    }
  }

  void finished(Http1Exchange<?> exchange) {
    if (inFlight.remove(exchange) && shutdown) {
      lock.lock();
      try {
        drained.signalAll();
      } finally {
        lock.unlock();
      }
    }
  }

  /** An idle connection to {@code origin} that still looks open, else a new one. */
  Http1Connection acquire(Origin origin, Http1Exchange<?> exchange) throws IOException {
    long now = System.nanoTime();
    while (true) {
      Http1Connection c;
      lock.lock();
      try {
        ArrayDeque<Http1Connection> q = idle.get(origin);
        c = q == null ? null : q.pollLast();
      } finally {
        lock.unlock();
      }
      if (c == null) {
        return connect(origin, exchange);
      }
      long idleFor = now - c.idleSince;
      if (c.isClosed() || idleFor > idleTimeoutNanos || (idleFor > CHECK_AFTER_IDLE && c.stale())) {
        c.close();
        continue;
      }
      c.reused = true;
      c.readSinceTaken = 0;
      return c;
    }
  }

  /** A new connection to {@code origin}. */
  Http1Connection connect(Origin origin, Http1Exchange<?> exchange) throws IOException {
    Duration t = connectTimeout;
    int millis = t == null ? 0 : (int) Math.max(1, Math.min(t.toMillis(), Integer.MAX_VALUE));
    Http1Connection c = Http1Connection.open(origin, millis, tls, copy(tlsParameters));
    if (shutdown) {
      c.close();
      throw shutDown();
    }
    return c;
  }

  /** Takes back a connection whose answer was read to the end. */
  void release(Http1Connection c, Http1Exchange<?> exchange) {
    boolean kept = false;
    lock.lock();
    try {
      if (!shutdown && !c.isClosed()) {
        ArrayDeque<Http1Connection> q = idle.computeIfAbsent(c.origin, o -> new ArrayDeque<>());
        if (q.size() < maxIdlePerOrigin) {
          c.idleSince = System.nanoTime();
          q.addLast(c);
          kept = true;
        }
      }
    } finally {
      lock.unlock();
    }
    if (!kept) {
      c.close();
    }
    finished(exchange);
  }

  /**
   * The head block of the last request sent, kept for the next one with the same method, URI and
   * headers: the transport's posts share their {@link java.net.http.HttpHeaders} while the session
   * does not change ({@code PostRequest}), so their head is encoded once.
   */
  private static final class HeadBlock {
    final String method;
    final URI uri;
    final java.net.http.HttpHeaders headers;
    final Origin origin;
    final byte[] bytes;

    HeadBlock(
        String method, URI uri, java.net.http.HttpHeaders headers, Origin origin, byte[] bytes) {
      this.method = method;
      this.uri = uri;
      this.headers = headers;
      this.origin = origin;
      this.bytes = bytes;
    }
  }

  private volatile @Nullable HeadBlock lastHead;

  /** {@link Http1Exchange#headBlock} of {@code request}, from the last request's when it is the same. */
  @SuppressWarnings("ReferenceEquality") // the same headers object: equal, and cheap to check
  byte[] headBlock(HttpRequest request, Origin origin) {
    HeadBlock last = lastHead;
    if (last != null
        && last.headers == request.headers()
        && last.uri.equals(request.uri())
        && last.method.equals(request.method())
        && last.origin.equals(origin)) {
      return last.bytes;
    }
    byte[] bytes = Http1Exchange.headBlock(request, origin);
    lastHead = new HeadBlock(request.method(), request.uri(), request.headers(), origin, bytes);
    return bytes;
  }

  /** The number of idle connections in the pool (for tests). */
  int idleConnections() {
    lock.lock();
    try {
      return idle.values().stream().mapToInt(ArrayDeque::size).sum();
    } finally {
      lock.unlock();
    }
  }

  /** The number of exchanges in flight (for tests). */
  int inFlight() {
    return inFlight.size();
  }

  static boolean isRestricted(String name) {
    return RESTRICTED.contains(name.toLowerCase(Locale.ROOT));
  }

  private static SSLParameters copy(SSLParameters p) {
    SSLParameters c = new SSLParameters();
    c.setCipherSuites(p.getCipherSuites());
    c.setProtocols(p.getProtocols());
    c.setNeedClientAuth(p.getNeedClientAuth());
    if (!p.getNeedClientAuth()) {
      c.setWantClientAuth(p.getWantClientAuth());
    }
    c.setEndpointIdentificationAlgorithm(p.getEndpointIdentificationAlgorithm());
    c.setServerNames(p.getServerNames());
    c.setApplicationProtocols(p.getApplicationProtocols());
    c.setUseCipherSuitesOrder(p.getUseCipherSuitesOrder());
    c.setAlgorithmConstraints(p.getAlgorithmConstraints());
    c.setSNIMatchers(p.getSNIMatchers());
    c.setMaximumPacketSize(p.getMaximumPacketSize());
    return c;
  }

  /**
   * A request's whole body: its publisher is subscribed and drained at once (every publisher of
   * {@link HttpRequest.BodyPublishers} that does not read a file or a stream of its own hands its
   * bytes over synchronously; others are waited for).
   */
  static byte[] collect(HttpRequest request) {
    Optional<HttpRequest.BodyPublisher> publisher = request.bodyPublisher();
    if (publisher.isEmpty() || publisher.get().contentLength() == 0) {
      return new byte[0];
    }
    Gather gather = new Gather();
    publisher.get().subscribe(gather);
    try {
      return gather.done.get();
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException("interrupted while reading the request body", e);
    } catch (ExecutionException e) {
      throw new IllegalArgumentException("the request body failed: " + e.getCause(), e.getCause());
    }
  }

  /** Collects a request body publisher's bytes. */
  private static final class Gather implements Flow.Subscriber<ByteBuffer> {
    final CompletableFuture<byte[]> done = new CompletableFuture<>();
    private byte[] bytes = new byte[0];
    private int length;

    @Override
    public void onSubscribe(Flow.Subscription s) {
      s.request(Long.MAX_VALUE);
    }

    @Override
    public void onNext(ByteBuffer b) {
      int n = b.remaining();
      if (length + n > bytes.length) {
        bytes = Arrays.copyOf(bytes, Math.max(length + n, bytes.length * 2));
      }
      b.get(bytes, length, n);
      length += n;
    }

    @Override
    public void onError(Throwable t) {
      done.completeExceptionally(t);
    }

    @Override
    public void onComplete() {
      done.complete(length == bytes.length ? bytes : Arrays.copyOf(bytes, length));
    }
  }

  /**
   * Where a connection goes: scheme, host and port.
   *
   * @param tls whether the scheme is {@code https}
   * @param host the host, as in the URI (an IPv6 literal without brackets)
   * @param port the port, the scheme's default when the URI has none
   */
  record Origin(boolean tls, String host, int port) {
    static Origin of(URI uri) {
      String scheme = uri.getScheme();
      boolean tls;
      if ("http".equalsIgnoreCase(scheme)) {
        tls = false;
      } else if ("https".equalsIgnoreCase(scheme)) {
        tls = true;
      } else {
        throw new IllegalArgumentException("unsupported URI scheme " + scheme + ": " + uri);
      }
      String host = uri.getHost();
      if (host == null) {
        throw new IllegalArgumentException("no host in " + uri);
      }
      if (host.startsWith("[") && host.endsWith("]")) {
        host = host.substring(1, host.length() - 1);
      }
      int port = uri.getPort() == -1 ? (tls ? 443 : 80) : uri.getPort();
      return new Origin(tls, host, port);
    }

    /** The {@code Host} field: the port only when it is not the scheme's default. */
    String hostHeader() {
      String h = host.indexOf(':') >= 0 ? "[" + host + "]" : host;
      return port == (tls ? 443 : 80) ? h : h + ":" + port;
    }

    @Override
    public String toString() {
      return (tls ? "https://" : "http://") + hostHeader();
    }
  }

  /**
   * Builds an {@link Http1Client}. Every setting is optional.
   *
   * <pre>{@code
   * Http1Client http = Http1Client.builder().connectTimeout(Duration.ofSeconds(5)).build();
   * }</pre>
   */
  public static final class Builder {
    private @Nullable Duration connectTimeout = DEFAULT_CONNECT_TIMEOUT;
    private Duration headWait = DEFAULT_HEAD_WAIT;
    private Duration idleTimeout = DEFAULT_IDLE_TIMEOUT;
    private int maxIdlePerOrigin = DEFAULT_MAX_IDLE_PER_ORIGIN;
    private @Nullable SSLContext sslContext;
    private @Nullable SSLParameters sslParameters;

    private Builder() {}

    /** How long making a connection (and its TLS handshake) may take; default 10 seconds. */
    public Builder connectTimeout(Duration timeout) {
      if (timeout.isNegative() || timeout.isZero()) {
        throw new IllegalArgumentException("connectTimeout must be positive, was " + timeout);
      }
      this.connectTimeout = timeout;
      return this;
    }

    /**
     * How long {@link Http1Client#sendAsync} waits on the sending thread for the answer's head
     * (and, once the head came, for a body read whole) before it hands the exchange to a virtual
     * thread and returns; default 10 ms. Zero hands every exchange over at once.
     */
    public Builder headWait(Duration wait) {
      if (wait.isNegative()) {
        throw new IllegalArgumentException("headWait must not be negative, was " + wait);
      }
      this.headWait = wait;
      return this;
    }

    /** How long an idle connection is kept for reuse; default 30 seconds. */
    public Builder idleTimeout(Duration timeout) {
      if (timeout.isNegative()) {
        throw new IllegalArgumentException("idleTimeout must not be negative, was " + timeout);
      }
      this.idleTimeout = timeout;
      return this;
    }

    /** How many idle connections are kept per scheme, host and port; default 64. */
    public Builder maxIdlePerOrigin(int max) {
      if (max < 0) {
        throw new IllegalArgumentException("maxIdlePerOrigin must not be negative, was " + max);
      }
      this.maxIdlePerOrigin = max;
      return this;
    }

    /** The TLS context of {@code https} connections; default the JDK's default context. */
    public Builder sslContext(SSLContext context) {
      this.sslContext = Objects.requireNonNull(context, "context");
      return this;
    }

    /**
     * The TLS parameters of {@code https} connections (protocols, cipher suites); the server's
     * name is checked unless they set another endpoint identification algorithm.
     */
    public Builder sslParameters(SSLParameters parameters) {
      this.sslParameters = copy(Objects.requireNonNull(parameters, "parameters"));
      return this;
    }

    public Http1Client build() {
      return new Http1Client(this);
    }
  }
}
