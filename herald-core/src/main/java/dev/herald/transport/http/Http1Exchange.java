package dev.herald.transport.http;

import java.io.IOException;
import java.net.SocketTimeoutException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpHeaders;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.net.http.HttpTimeoutException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.Flow;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import org.jspecify.annotations.Nullable;

/**
 * One request and its response on an {@link Http1Client}: the request written in one write, the
 * head read on the sending thread for at most the head wait (then on a virtual thread), and the
 * body read by whoever asks for it ({@link Body#request}).
 *
 * <p>Threading: the head is read by one thread at a time (the sender, then perhaps one virtual
 * thread); the body by one thread at a time (serialised by {@link Body#wip}). {@link #abort}
 * may come from any thread: it closes the connection, which fails a read in progress.
 */
final class Http1Exchange<T> {
  private static final long NONE = Long.MAX_VALUE;

  private final Http1Client client;
  private final HttpRequest request;
  private final HttpResponse.BodyHandler<T> handler;
  private final Http1Client.Origin origin;

  /** The request's head and body, made once a connection was made (the body is read then). */
  private byte @Nullable [] message;

  private final boolean headRequest;
  private final Result<T> result = new Result<>(this);

  /** When the request's own timeout ({@link HttpRequest#timeout()}) runs out, or {@link #NONE}. */
  private final long timeoutAt;

  private volatile @Nullable Http1Connection connection;

  /** Set once the exchange was given up (the future cancelled, the client closed). */
  private volatile boolean aborted;

  Http1Exchange(Http1Client client, HttpRequest request, HttpResponse.BodyHandler<T> handler) {
    this.client = client;
    this.request = request;
    this.handler = handler;
    this.origin = Http1Client.Origin.of(request.uri());
    this.headRequest = request.method().equals("HEAD");
    this.timeoutAt = request.timeout().map(t -> System.nanoTime() + t.toNanos()).orElse(NONE);
  }

  CompletableFuture<HttpResponse<T>> result() {
    return result;
  }

  /**
   * Runs the exchange on the calling thread until the answer's head came or {@code headWait} ran
   * out (then on a virtual thread), and until a body subscriber that reads the body whole has it
   * or another {@code headWait} ran out.
   */
  void start(long headWaitNanos) {
    client.started(this);
    long budget = headWaitNanos == NONE ? NONE : System.nanoTime() + headWaitNanos;
    try {
      Http1Head head = exchange(budget);
      if (head == null) {
        Thread.ofVirtual().name("herald-http1-answer").start(this::continueAfterHeadWait);
        return;
      }
      respond(head, headWaitNanos == NONE ? NONE : System.nanoTime() + headWaitNanos, false);
    } catch (Throwable t) {
      fail(t);
    }
  }

  private void continueAfterHeadWait() {
    try {
      Http1Head head = awaitHead(NONE);
      respond(java.util.Objects.requireNonNull(head), NONE, true);
    } catch (Throwable t) {
      fail(t);
    }
  }

  /**
   * Takes a connection, writes the request and reads the answer's head; once more on a fresh
   * connection when a reused one fails before any byte of the answer arrived.
   *
   * @return the head, or null when {@code budget} ran out first
   */
  private @Nullable Http1Head exchange(long budget) throws IOException {
    Http1Connection c = client.acquire(origin, this);
    connection = c;
    if (aborted) {
      c.close();
      throw new IOException("request to " + request.uri() + " was given up");
    }
    byte[] m = message;
    if (m == null) {
      m = encode(request, origin);
      message = m;
    }
    try {
      c.write(m);
      return awaitHead(budget);
    } catch (IOException e) {
      if (!c.reused || c.readSinceTaken > 0 || aborted || e instanceof HttpTimeoutException) {
        throw e;
      }
      c.close(); // the server had closed it (keep-alive timeout): try once on a fresh one
      Http1Connection fresh = client.connect(origin, this);
      connection = fresh;
      fresh.write(m);
      return awaitHead(budget);
    }
  }

  /**
   * Reads heads until a final one (1xx are skipped).
   *
   * @return the final head, or null when {@code budget} ran out first
   */
  private @Nullable Http1Head awaitHead(long budget) throws IOException {
    Http1Connection c = live();
    while (true) {
      int end;
      while ((end = Http1Head.end(c.buf, c.pos, c.lim)) < 0) {
        if (c.buffered() >= Http1Connection.MAX_HEAD) {
          throw new IOException(
              "response head from "
                  + origin
                  + " larger than "
                  + Http1Connection.MAX_HEAD
                  + " bytes");
        }
        long deadline = Math.min(budget, timeoutAt);
        int wait = millisUntil(deadline);
        int n;
        try {
          n = c.fill(wait);
        } catch (SocketTimeoutException e) {
          if (timeoutAt != NONE && System.nanoTime() - timeoutAt >= 0) {
            throw timedOut();
          }
          if (budget != NONE && System.nanoTime() - budget >= 0) {
            return null;
          }
          continue;
        }
        if (n < 0) {
          throw new IOException(
              c.readSinceTaken == 0
                  ? origin + " closed the connection before answering"
                  : origin + " closed the connection in the middle of the answer's head");
        }
      }
      Http1Head head = Http1Head.parse(c.buf, c.pos, end, headRequest, origin.toString());
      c.pos = end;
      if (head.status() >= 200) {
        return head;
      }
      if (head.status() == 101) {
        throw new IOException(origin + " switched protocols (101), which this client does not do");
      }
      // 1xx: informational, skipped (RFC 9110 §15.2)
    }
  }

  private HttpTimeoutException timedOut() {
    return new HttpTimeoutException("request to " + request.uri() + " timed out");
  }

  /** Milliseconds to wait for {@code deadline} (0: forever), at least 1. */
  private static int millisUntil(long deadline) {
    if (deadline == NONE) {
      return 0;
    }
    long ms = TimeUnit.NANOSECONDS.toMillis(deadline - System.nanoTime() + 999_999);
    return (int) Math.max(1, Math.min(ms, Integer.MAX_VALUE));
  }

  /**
   * Hands the head to the body handler and starts the body: a subscriber that made its body
   * already (an {@code InputStream} to read the body from) gets only what is buffered on a thread
   * that has to return ({@code ownThread} false); the rest is read when it asks for more.
   */
  private void respond(Http1Head head, long budget, boolean ownThread) {
    Http1Connection c = live();
    Info info = new Info(head.status(), head.headers());
    HttpResponse.BodySubscriber<T> subscriber = pulling(handler.apply(info));
    Body body = new Body(c, head, subscriber);
    subscriber.onSubscribe(body);
    subscriber
        .getBody()
        .whenComplete((value, failure) -> {
          if (failure != null) {
            fail(failure);
          } else {
            result.complete(
                new ReadResponse<>(
                    head.status(), request, head.headers(), value, HttpClient.Version.HTTP_1_1));
          }
        });
    body.begin(result.isDone() && !ownThread ? 0 : budget);
  }

  /** The class of {@link HttpResponse.BodySubscribers#ofInputStream()}'s subscribers. */
  private static final Class<?> JDK_STREAM =
      HttpResponse.BodySubscribers.ofInputStream().getClass();

  /** {@code subscriber}, or an {@link Http1BodyStream} for the JDK's {@code InputStream} one. */
  @SuppressWarnings("unchecked")
  private static <T> HttpResponse.BodySubscriber<T> pulling(
      HttpResponse.BodySubscriber<T> subscriber) {
    return subscriber.getClass() == JDK_STREAM
        ? (HttpResponse.BodySubscriber<T>) new Http1BodyStream()
        : subscriber;
  }

  private Http1Connection live() {
    Http1Connection c = connection;
    if (c == null) {
      throw new IllegalStateException("no connection");
    }
    return c;
  }

  private void fail(Throwable t) {
    Throwable cause = t instanceof CompletionException && t.getCause() != null ? t.getCause() : t;
    Http1Connection c = connection;
    if (c != null) {
      c.close();
    }
    client.finished(this);
    result.completeExceptionally(cause);
  }

  /** Gives up: closes the connection, which fails a read in progress. */
  void abort() {
    aborted = true;
    Http1Connection c = connection;
    if (c != null) {
      c.close();
    }
    client.finished(this);
  }

  private static boolean valid(String s) {
    for (int i = 0; i < s.length(); i++) {
      char c = s.charAt(i);
      if (c == '\r' || c == '\n' || c == 0) {
        return false;
      }
    }
    return true;
  }

  /** The request's head and whole body as one array (RFC 9112 §3, §6). */
  private byte[] encode(HttpRequest request, Http1Client.Origin origin) {
    byte[] body = Http1Client.collect(request);
    String method = request.method();
    byte[] block = client.headBlock(request, origin);
    boolean sendsBody =
        body.length > 0
            || (request.bodyPublisher().isPresent()
                && !method.equals("GET")
                && !method.equals("HEAD")
                && !method.equals("DELETE"));
    byte[] end =
        (sendsBody ? "Content-Length: " + body.length + "\r\n\r\n" : "\r\n")
            .getBytes(StandardCharsets.ISO_8859_1);
    byte[] all = new byte[block.length + end.length + body.length];
    System.arraycopy(block, 0, all, 0, block.length);
    System.arraycopy(end, 0, all, block.length, end.length);
    System.arraycopy(body, 0, all, block.length + end.length, body.length);
    return all;
  }

  /**
   * The request line, {@code Host} and the request's own fields, each line ending in CRLF: what
   * every request with the same method, URI and {@link HttpHeaders} sends.
   */
  static byte[] headBlock(HttpRequest request, Http1Client.Origin origin) {
    URI uri = request.uri();
    String target = uri.getRawPath() == null || uri.getRawPath().isEmpty() ? "/" : uri.getRawPath();
    if (uri.getRawQuery() != null) {
      target += "?" + uri.getRawQuery();
    }
    StringBuilder h = new StringBuilder(256);
    h.append(request.method()).append(' ').append(target).append(" HTTP/1.1\r\nHost: ");
    h.append(origin.hostHeader()).append("\r\n");
    for (Map.Entry<String, List<String>> e : request.headers().map().entrySet()) {
      String name = e.getKey();
      if (Http1Client.isRestricted(name)) {
        continue;
      }
      for (String v : e.getValue()) {
        if (!valid(name) || !valid(v)) {
          throw new IllegalArgumentException("header " + name + " has a line break or NUL");
        }
        h.append(name).append(": ").append(v).append("\r\n");
      }
    }
    return h.toString().getBytes(StandardCharsets.ISO_8859_1);
  }

  /**
   * The response body as a subscription: {@link #request} reads from the socket on the thread
   * that asks (a body read whole is read by the sender; an event stream by the thread reading the
   * subscriber's {@code InputStream}), trampolined so that a request from inside {@code onNext}
   * never recurses.
   */
  private final class Body implements Flow.Subscription {
    private final Http1Connection c;
    private final Http1Head head;
    private final HttpResponse.BodySubscriber<T> subscriber;

    /** Unmet demand; {@link Long#MAX_VALUE} is unbounded. */
    private final AtomicLong demand = new AtomicLong();

    /** Work in progress: the thread that raised it from 0 reads until it falls back to 0. */
    private final AtomicInteger wip = new AtomicInteger();

    /** True while {@code onSubscribe} runs: demand is noted, read afterwards by {@link #begin}. */
    private volatile boolean subscribing = true;

    private volatile boolean cancelled;
    private volatile boolean terminated;

    /** Bytes of the body (or of the current chunk) still to come; guarded by {@link #wip}. */
    private long remaining;

    /** Where the chunked decoder stands; guarded by {@link #wip}. */
    private int chunkState = SIZE;

    private static final int SIZE = 0;
    private static final int DATA = 1;
    private static final int DATA_END = 2;
    private static final int TRAILERS = 3;

    Body(Http1Connection c, Http1Head head, HttpResponse.BodySubscriber<T> subscriber) {
      this.c = c;
      this.head = head;
      this.subscriber = subscriber;
      this.remaining = head.framing() == Http1Head.Framing.LENGTH ? head.length() : 0;
    }

    /** After {@code onSubscribe}: reads the demand noted so far, or ends an empty body. */
    void begin(long budget) {
      subscribing = false;
      if (wip.getAndIncrement() == 0) {
        drain(1, budget, false);
      }
    }

    @Override
    public void request(long n) {
      if (n <= 0) {
        cancel();
        subscriber.onError(new IllegalArgumentException("non-positive request: " + n));
        return;
      }
      demand.getAndAccumulate(n, (a, b) -> a + b < 0 ? Long.MAX_VALUE : a + b);
      if (subscribing) {
        return;
      }
      if (wip.getAndIncrement() == 0) {
        drain(1, NONE, false);
      }
    }

    @Override
    public void cancel() {
      if (!cancelled) {
        cancelled = true;
        if (!terminated) {
          c.close();
          client.finished(Http1Exchange.this);
        }
      }
    }

    /**
     * Whether the requesting thread may wait for the socket: when the subscriber wants the whole
     * body (unbounded demand) or reads as it goes ({@link Http1BodyStream}). Any other subscriber
     * may ask ahead of what it consumes, and waiting for bytes it does not need yet could keep it
     * from the ones it has: it gets what is buffered, and a virtual thread reads the rest.
     */
    private boolean mayWait() {
      return demand.get() == Long.MAX_VALUE || subscriber instanceof Http1BodyStream;
    }

    /**
     * Delivers while there is demand, reading as needed; hands the rest to a virtual thread when
     * {@code budget} runs out (0: only what is buffered).
     */
    private void drain(int missed, long budget, boolean pump) {
      if (!pump && !mayWait()) {
        budget = 0;
      }
      while (true) {
        while (!terminated && !cancelled) {
          if (ended()) {
            complete();
            break;
          }
          if (demand.get() == 0) {
            break;
          }
          ByteBuffer next;
          try {
            next = next(budget);
          } catch (SocketTimeoutException e) {
            int owed = missed;
            Thread.ofVirtual().name("herald-http1-body").start(() -> drain(owed, NONE, true));
            return;
          } catch (IOException | RuntimeException e) {
            error(e);
            break;
          }
          if (next == null) {
            continue; // framing only (a chunk size, a trailer): see ended()
          }
          if (demand.get() != Long.MAX_VALUE) {
            demand.decrementAndGet();
          }
          try {
            subscriber.onNext(List.of(next));
          } catch (RuntimeException e) {
            error(e);
            break;
          }
        }
        missed = wip.addAndGet(-missed);
        if (missed == 0) {
          return;
        }
      }
    }

    private boolean ended() {
      return switch (head.framing()) {
        case NONE -> true;
        case LENGTH -> remaining == 0;
        case CHUNKED -> chunkState == TRAILERS + 1;
        case TO_CLOSE -> false; // ends when a read finds the end of the stream, see next()
      };
    }

    /** The next piece of body, or null after reading framing only. */
    private @Nullable ByteBuffer next(long budget) throws IOException {
      return switch (head.framing()) {
        case LENGTH -> {
          fillSome(budget, "before the end of the body");
          int n = (int) Math.min(remaining, c.buffered());
          remaining -= n;
          yield take(n);
        }
        case CHUNKED -> chunked(budget);
        case TO_CLOSE -> {
          if (c.buffered() == 0 && fill(budget) < 0) {
            complete();
            yield null;
          }
          yield take(c.buffered());
        }
        case NONE -> throw new IllegalStateException("no body");
      };
    }

    private @Nullable ByteBuffer chunked(long budget) throws IOException {
      return switch (chunkState) {
        case SIZE -> {
          String line = line(budget);
          remaining = Http1Head.chunkSize(line, origin.toString());
          chunkState = remaining == 0 ? TRAILERS : DATA;
          yield null;
        }
        case DATA -> {
          fillSome(budget, "in the middle of a chunk");
          int n = (int) Math.min(remaining, c.buffered());
          remaining -= n;
          if (remaining == 0) {
            chunkState = DATA_END;
          }
          yield take(n);
        }
        case DATA_END -> {
          if (!line(budget).isEmpty()) {
            throw Http1Head.malformed(origin.toString(), "chunk end", "data past the chunk size");
          }
          chunkState = SIZE;
          yield null;
        }
        default -> { // TRAILERS: skipped up to the empty line
          if (line(budget).isEmpty()) {
            chunkState = TRAILERS + 1;
          }
          yield null;
        }
      };
    }

    /** One line of chunked framing, without its CRLF. */
    private String line(long budget) throws IOException {
      while (true) {
        for (int i = c.pos; i < c.lim; i++) {
          if (c.buf[i] == '\n') {
            int end = i > c.pos && c.buf[i - 1] == '\r' ? i - 1 : i;
            String s = new String(c.buf, c.pos, end - c.pos, StandardCharsets.ISO_8859_1);
            c.pos = i + 1;
            return s;
          }
        }
        if (c.buffered() > Http1Connection.MAX_HEAD) {
          throw Http1Head.malformed(origin.toString(), "chunk line", "longer than 64 KiB");
        }
        if (fill(budget) < 0) {
          throw new IOException(origin + " closed the connection in the middle of a chunked body");
        }
      }
    }

    private void fillSome(long budget, String where) throws IOException {
      if (c.buffered() == 0 && fill(budget) < 0) {
        throw new IOException(origin + " closed the connection " + where);
      }
    }

    private int fill(long budget) throws IOException {
      if (budget == 0) {
        throw new SocketTimeoutException("nothing buffered");
      }
      return c.fill(millisUntil(budget));
    }

    /** A copy of the next {@code n} buffered bytes (a subscriber may keep what it is given). */
    private ByteBuffer take(int n) {
      byte[] copy = new byte[n];
      System.arraycopy(c.buf, c.pos, copy, 0, n);
      c.pos += n;
      return ByteBuffer.wrap(copy);
    }

    /** The body ended: the connection goes back to the pool first, then the subscriber hears. */
    private void complete() {
      if (terminated) {
        return;
      }
      terminated = true;
      connection = null; // no longer this exchange's to close
      if (head.keepAlive() && head.framing() != Http1Head.Framing.TO_CLOSE && c.buffered() == 0) {
        client.release(c, Http1Exchange.this);
      } else {
        c.close();
        client.finished(Http1Exchange.this);
      }
      subscriber.onComplete();
    }

    private void error(Throwable e) {
      if (terminated) {
        return;
      }
      terminated = true;
      c.close();
      client.finished(Http1Exchange.this);
      if (!cancelled) {
        subscriber.onError(e);
      }
    }
  }

  /** What the body handler is told of the answer. */
  private record Info(int statusCode, HttpHeaders headers) implements HttpResponse.ResponseInfo {
    @Override
    public HttpClient.Version version() {
      return HttpClient.Version.HTTP_1_1;
    }
  }

  private static final class Result<T> extends CompletableFuture<HttpResponse<T>> {
    private final Http1Exchange<?> exchange;

    Result(Http1Exchange<?> exchange) {
      this.exchange = exchange;
    }

    @Override
    public boolean cancel(boolean mayInterruptIfRunning) {
      boolean cancelled = super.cancel(mayInterruptIfRunning);
      if (cancelled) {
        exchange.abort();
      }
      return cancelled;
    }
  }
}
