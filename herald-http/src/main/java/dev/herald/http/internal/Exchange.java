package dev.herald.http.internal;

import java.nio.ByteBuffer;
import java.util.List;
import java.util.function.Consumer;
import org.jspecify.annotations.Nullable;

/**
 * One HTTP exchange as the protocol machinery sees it: the request's method, path, headers and
 * body, and a response written without blocking. Implemented once per container (Jetty core,
 * Servlet 6); nothing above this interface knows which.
 *
 * <p>Design note. The contract is the smallest Jetty core and Servlet 6 share: status
 * and headers are set before the first {@link #write}; writes are non-blocking, at most one is
 * outstanding, and each completes its {@link Done} exactly once, possibly on the calling thread;
 * the write with {@code last} set ends the exchange. {@link #abort} ends it at once, dropping the
 * connection if it can. {@link #onPeerGone} reports a client that went away.
 *
 * <p>Implementations are safe to call from any thread, one caller at a time for the response.
 */
public interface Exchange {

  /**
   * How much of a refused or oversized body an exchange reads and discards before it ends, so a
   * client still sending does not lose the answer to a reset: at most this many bytes...
   */
  long DRAIN_BYTES = 16L * 1024 * 1024;

  /** ...and for at most this long, whichever comes first; then the connection is closed. */
  long DRAIN_MILLIS = 2_000;

  /** Completion of one write or read; exactly one method is called, once. */
  interface Done {
    void succeeded();

    void failed(Throwable cause);
  }

  /** The request method, e.g. {@code POST}. */
  String method();

  /** The request path relative to where the endpoint is mounted, e.g. {@code /mcp} or {@code /}. */
  String path();

  /** What to put before a mount-relative path to make a URL path the client can use. */
  String mountPrefix();

  /** The local port the request arrived on, for the loopback Host and Origin checks. */
  int localPort();

  /**
   * The client's address as the container reports it (its IP address, without the port): the
   * key of the per-client session limit.
   */
  String remoteAddress();

  /** The first value of a request header, or null. */
  @Nullable String header(String name);

  /** Every value of a request header, in order. */
  List<String> headers(String name);

  /** The first value of a query parameter, or null. */
  @Nullable String queryParameter(String name);

  /** The declared body length, or -1 when unknown. */
  long contentLength();

  /**
   * Reads the whole body without blocking a thread on the network, refusing more than {@code
   * max} bytes.
   *
   * @param done receives the body, or {@code null} when it was larger than {@code max}
   * @param failed receives a read failure (the client went away)
   */
  void readBody(int max, Consumer<byte @Nullable []> done, Consumer<Throwable> failed);

  /** Sets the response status; before the first write. */
  void status(int status);

  /** Sets a response header; before the first write. */
  void header(String name, String value);

  /**
   * Sets the status and the head of a JSON answer of {@code length} bytes ({@code Content-Type:
   * application/json} and {@code Content-Length}); before the first write. A container may set
   * them from fields it built once instead of by name.
   */
  default void jsonHead(int status, int length) {
    status(status);
    header("Content-Type", "application/json");
    header("Content-Length", Integer.toString(length));
  }

  /**
   * Sets the status ({@code 200}) and the head of an SSE response ({@code Content-Type:
   * text/event-stream}, {@code Cache-Control: no-cache}, {@code X-Accel-Buffering: no}, and the
   * session's id when {@code sessionId} is set); before the first write. A container may set the
   * constant fields from values it built once: a standing stream keeps its response's head for its
   * whole life, so a field made per GET is memory held per idle session.
   */
  default void sseHead(@Nullable String sessionId) {
    status(200);
    header("Content-Type", "text/event-stream");
    header("Cache-Control", "no-cache");
    header("X-Accel-Buffering", "no");
    if (sessionId != null) {
      header(HttpExchanges.SESSION_HEADER, sessionId);
    }
  }

  /**
   * Writes bytes without blocking; {@code last} ends the response. {@code done} hears the
   * outcome once, possibly before this method returns.
   */
  void write(ByteBuffer data, boolean last, Done done);

  /** Ends the exchange abnormally (dropping the connection where the container allows it). */
  void abort(Throwable cause);

  /** Calls {@code listener} if the client goes away before the exchange ends. Once per exchange. */
  void onPeerGone(Consumer<Throwable> listener);

  /** Exempts this exchange from idle timeouts: it waits for a handler or stays open as a stream. */
  void keepOpen();
}
