package dev.herald.http;

import dev.herald.http.internal.Exchange;
import java.io.ByteArrayOutputStream;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.ByteBuffer;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;
import org.eclipse.jetty.http.HttpField;
import org.eclipse.jetty.http.HttpFields;
import org.eclipse.jetty.http.HttpHeader;
import org.eclipse.jetty.http.PreEncodedHttpField;
import org.eclipse.jetty.io.Content;
import org.eclipse.jetty.server.Request;
import org.eclipse.jetty.server.Response;
import org.eclipse.jetty.util.Callback;
import org.eclipse.jetty.util.Fields;
import org.jspecify.annotations.Nullable;

/**
 * An {@link Exchange} over Jetty core's {@link Request}, {@link Response} and {@link Callback}.
 *
 * <p>Design note. Writes go straight to {@link Response#write}; the last one completes
 * the handler's callback, and a failed write fails it, which makes Jetty drop the connection.
 * Bodies are read with {@link Request#demand} callbacks, chunk by chunk, up to the limit. A
 * response that ends before its request's body was read to the end (a refusal: too large, wrong
 * type, too slow) says {@code Connection: close} (RFC 9112 section 9.6): Jetty closes such a
 * connection after the exchange, and a client that was not told could send its next request on it
 * and find it closed before any answer.
 *
 * <p>Thread-safe as {@link Exchange} requires; {@link #ended} makes the handler's callback
 * complete once.
 */
final class JettyExchange implements Exchange {
  private final Request request;
  private final Response response;
  private final Callback callback;
  private final int localPort;
  // Plain volatile flags, not AtomicBooleans: a standing GET keeps its exchange for the
  // session's life, so each flag object would be heap per idle session. Only `ended` needs a
  // compare-and-set (ENDED); the others are only ever set to true.
  private volatile boolean ended; // set once through ENDED
  private volatile boolean bodyRead;

  /** Set when a body over the limit, or refused unread, is being read and discarded; the exchange ends after. */
  private volatile boolean draining;

  private volatile boolean drained;
  private volatile boolean responseEnded;
  private volatile boolean readStarted;

  /**
   * Set when the answer goes out while the body is still being read (a 408 for a body too slow):
   * the reader then only discards, so that Jetty never reads the rest beside it.
   */
  private volatile boolean answeredUnread;

  private static final VarHandle ENDED;

  static {
    try {
      ENDED = MethodHandles.lookup().findVarHandle(JettyExchange.class, "ended", boolean.class);
    } catch (ReflectiveOperationException e) {
      throw new ExceptionInInitializerError(e);
    }
  }

  JettyExchange(Request request, Response response, Callback callback) {
    this.request = request;
    this.response = response;
    this.callback = callback;
    this.localPort = Request.getLocalPort(request);
  }

  @Override
  public String method() {
    return request.getMethod();
  }

  @Override
  public String path() {
    return request.getHttpURI().getPath();
  }

  @Override
  public String mountPrefix() {
    return "";
  }

  @Override
  public int localPort() {
    return localPort;
  }

  @Override
  public String remoteAddress() {
    return Request.getRemoteAddr(request);
  }

  @Override
  public @Nullable String header(String name) {
    return request.getHeaders().get(name);
  }

  @Override
  public List<String> headers(String name) {
    return request.getHeaders().getValuesList(name);
  }

  @Override
  public @Nullable String queryParameter(String name) {
    Fields query = Request.extractQueryParameters(request);
    return query.getValue(name);
  }

  @Override
  public long contentLength() {
    return request.getLength();
  }

  @Override
  public void readBody(int max, Consumer<byte @Nullable []> done, Consumer<Throwable> failed) {
    readStarted = true;
    new BodyReader(
            this,
            max,
            body -> {
              if (body != null) {
                bodyRead = true;
              }
              done.accept(body);
            },
            failed)
        .run();
  }

  @Override
  public void status(int status) {
    response.setStatus(status);
  }

  @Override
  public void header(String name, String value) {
    response.getHeaders().put(name, value);
  }

  /** {@code Content-Type: application/json}, encoded once (no header-name lookup per answer). */
  private static final HttpField JSON_TYPE =
      new PreEncodedHttpField(HttpHeader.CONTENT_TYPE, "application/json");

  @Override
  public void jsonHead(int status, int length) {
    response.setStatus(status);
    HttpFields.Mutable headers = response.getHeaders();
    headers.put(JSON_TYPE);
    headers.put(HttpHeader.CONTENT_LENGTH, length);
  }

  private static final String SESSION_HEADER = "Mcp-Session-Id";

  /** The constant fields of an SSE response's head, encoded once for every stream. */
  private static final HttpField SSE_TYPE =
      new PreEncodedHttpField(HttpHeader.CONTENT_TYPE, "text/event-stream");

  private static final HttpField NO_CACHE =
      new PreEncodedHttpField(HttpHeader.CACHE_CONTROL, "no-cache");

  private static final HttpField NO_BUFFERING = new PreEncodedHttpField("X-Accel-Buffering", "no");

  /**
   * As the default, from fields made once: Jetty keeps a standing stream's response head for the
   * stream's life, so only the session id is a field of its own.
   */
  @Override
  public void sseHead(@Nullable String sessionId) {
    response.setStatus(200);
    HttpFields.Mutable headers = response.getHeaders();
    headers.put(SSE_TYPE);
    headers.put(NO_CACHE);
    headers.put(NO_BUFFERING);
    if (sessionId != null) {
      headers.put(SESSION_HEADER, sessionId);
    }
  }

  @Override
  public void write(ByteBuffer data, boolean last, Done done) {
    if (last && !response.isCommitted() && !bodyRead && hasBody()) {
      // Answered before the body was read to its end (a refusal): Jetty will not keep this
      // connection, so say so, or a client may send its next request on a connection being closed.
      response.getHeaders().put("Connection", "close");
      if (readStarted) {
        answeredUnread = true;
      }
    }
    response.write(
        last,
        data,
        new Callback() {
          @Override
          public void succeeded() {
            if (last) {
              if (!readStarted
                  && hasBody()
                  && !"100-continue"
                      .equalsIgnoreCase(request.getHeaders().get(HttpHeader.EXPECT))) {
                // refused before its body was read, and the client sends it anyway: discard it
                // first
                startDraining();
                BodyReader.discarding(JettyExchange.this).run();
              } else if (answeredUnread) {
                // answered while its reader still waits for the rest (a 408): that reader now
                // discards what comes, for a bounded time, and the exchange ends after it
                startDraining();
              }
              responseEnded = true;
              complete();
            }
            done.succeeded();
          }

          @Override
          public void failed(Throwable cause) {
            if (ENDED.compareAndSet(JettyExchange.this, false, true)) {
              callback.failed(cause);
            }
            done.failed(cause);
          }
        });
  }

  /** Ends the exchange once the response is written and any body over the limit is drained. */
  private void complete() {
    if (responseEnded && (!draining || drained) && ENDED.compareAndSet(this, false, true)) {
      callback.succeeded();
    }
  }

  /** Starts discarding a body over the limit, bounded in bytes and time. */
  private void startDraining() {
    draining = true;
    request
        .getComponents()
        .getScheduler()
        .schedule(this::stopDraining, Exchange.DRAIN_MILLIS, TimeUnit.MILLISECONDS);
  }

  private void stopDraining() {
    drained = true;
    complete();
  }

  private boolean hasBody() {
    return request.getLength() > 0 || request.getHeaders().contains(HttpHeader.TRANSFER_ENCODING);
  }

  @Override
  public void abort(Throwable cause) {
    if (ENDED.compareAndSet(this, false, true)) {
      callback.failed(cause);
    }
  }

  @Override
  public void onPeerGone(Consumer<Throwable> listener) {
    request.addFailureListener(listener);
  }

  @Override
  public void keepOpen() {
    request.addIdleTimeoutListener(x -> false);
  }

  /** Reads chunks as they come, without blocking, until the last one or the limit. */
  private static final class BodyReader implements Runnable {
    private final JettyExchange exchange;
    private final Request request;
    private final int max;
    private final Consumer<byte @Nullable []> done;
    private final Consumer<Throwable> failed;

    /** The chunks so far, made only when a body comes in more than one chunk. */
    private @Nullable ByteArrayOutputStream body;

    private long discarded = -1;

    /** A reader that only discards, for a body refused before it was read. */
    static BodyReader discarding(JettyExchange exchange) {
      BodyReader r = new BodyReader(exchange, 0, body -> {}, failure -> {});
      r.discarded = 0;
      return r;
    }

    BodyReader(
        JettyExchange exchange,
        int max,
        Consumer<byte @Nullable []> done,
        Consumer<Throwable> failed) {
      this.exchange = exchange;
      this.request = exchange.request;
      this.max = max;
      this.done = done;
      this.failed = failed;
    }

    @Override
    public void run() {
      while (true) {
        if (discarded < 0 && exchange.answeredUnread) {
          discarded = 0; // answered before the body ended: the rest is only discarded
        }
        if (discarded >= 0 && exchange.drained) {
          return; // drained long enough: the exchange ends without the rest
        }
        Content.Chunk chunk = request.read();
        if (chunk == null) {
          request.demand(this);
          return;
        }
        if (Content.Chunk.isFailure(chunk)) {
          if (discarded >= 0) {
            exchange.stopDraining();
          } else {
            failed.accept(chunk.getFailure());
          }
          return;
        }
        ByteBuffer buf = chunk.getByteBuffer();
        int n = buf.remaining();
        if (discarded >= 0) {
          discarded += n;
          boolean last = chunk.isLast();
          chunk.release();
          if (last || discarded > Exchange.DRAIN_BYTES) {
            exchange.stopDraining();
            return;
          }
          continue;
        }
        ByteArrayOutputStream sofar = body;
        if ((sofar == null ? 0 : sofar.size()) + (long) n > max) {
          chunk.release();
          // Read and discard the rest before the exchange ends: closing with unread bytes makes the
          // close abortive (a TCP reset), and a client still sending would lose the 413 with it.
          discarded = 0;
          exchange.startDraining();
          done.accept(null);
          continue;
        }
        boolean last = chunk.isLast();
        if (last && sofar == null) {
          // the usual body: one chunk, copied once into an array of its size
          byte[] whole = new byte[n];
          buf.get(whole);
          chunk.release();
          done.accept(whole);
          return;
        }
        if (n > 0) {
          if (sofar == null) {
            sofar = new ByteArrayOutputStream(Math.max(512, 2 * n));
            body = sofar;
          }
          if (buf.hasArray()) {
            sofar.write(buf.array(), buf.arrayOffset() + buf.position(), n);
          } else {
            byte[] tmp = new byte[n];
            buf.get(tmp);
            sofar.write(tmp, 0, n);
          }
        }
        chunk.release();
        if (last) {
          done.accept(sofar == null ? new byte[0] : sofar.toByteArray());
          return;
        }
      }
    }
  }
}
