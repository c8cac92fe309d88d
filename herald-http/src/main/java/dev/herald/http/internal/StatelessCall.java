package dev.herald.http.internal;

import dev.herald.server.ServerSession;
import dev.herald.transport.Transport;
import dev.herald.transport.TransportException;
import dev.herald.wire.DecodedMessage;
import dev.herald.wire.ErrorCodes;
import dev.herald.wire.JsonRpcMessage;
import dev.herald.wire.MessageCodec;
import dev.herald.wire.RequestId;
import dev.herald.wire.RequestMeta;
import java.io.IOException;
import java.util.concurrent.CancellationException;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.locks.ReentrantLock;
import org.jspecify.annotations.Nullable;

/**
 * One 2026-07-28 request over Streamable HTTP: a fresh {@link ServerSession} that serves it alone,
 * and the {@link Transport} that writes what the session sends for it to the POST's response.
 *
 * <p>Design note (MCP 2026-07-28 basic/transports/streamable-http, "Sending Messages", "No
 * Resumability", "Cancellation"; docs/architecture.md, "The 2026-07-28 path"). The session never saw
 * {@code initialize}: the request's {@code _meta} says everything, and nothing outlives the
 * exchange. The response is held until the first message decides its form: the final response
 * first is one JSON body, with the status the error code calls for (-32601 is 404; -32020, -32021
 * and -32022 are 400); a notification first (progress, a log line, a listen acknowledgement)
 * switches it to SSE, as does a handler still running after the probe interval (so the stream can
 * carry {@code :} comments: the endpoint's sweep sends one on a stream quiet for the keep-alive
 * interval or a second, whichever is shorter, because a container notices a client that left only
 * when a write fails). Only messages related to the request go out; nothing else has a
 * stream here. Events carry no {@code id} and no {@code retry}: a broken stream is not resumed.
 * Closing the stream (the client goes away, or reads too slowly) cancels the request: the session
 * closes, which interrupts the handler, and nothing more is written. The session is closed on every
 * path (response, error, disconnect, endpoint shutdown); {@link Endpoint#statelessEnded} counts it
 * out once. After a JSON answer the engine ends the session itself, on the thread that answered
 * ({@code SessionEngine#endAfterOneRequest}), so a call costs one virtual thread, not two.
 *
 * <p>Thread-safe: {@link #lock} guards {@link #held}, {@link #sink} and {@link #state}; the exchange
 * and the sink are written outside it.
 */
final class StatelessCall implements Transport, SseSink.Listener {
  private static final System.Logger LOG = System.getLogger("dev.herald.http");
  private static final byte[] DATA = HttpExchanges.ascii("data: ");

  private enum State {
    /** The response is not decided yet: the exchange is held. */
    HELD,
    /** The response is an SSE stream. */
    STREAMING,
    /** Answered, cancelled or closed: nothing more is written. */
    DONE
  }

  private final Endpoint endpoint;
  private final EndpointConfig config;
  private final JsonRpcMessage.Request request;
  private final ReentrantLock lock = new ReentrantLock();
  private final AtomicBoolean ended = new AtomicBoolean();
  // guarded by lock
  private @Nullable Exchange held;
  private @Nullable SseSink sink;
  private State state = State.HELD;
  private final long startNanos = System.nanoTime();

  private volatile @Nullable Receiver receiver;
  private volatile @Nullable ServerSession session;
  private volatile boolean cancelled;

  /** The request's {@code _meta} as {@link StatelessPost} read and checked it. */
  private final RequestMeta meta;

  /** Whose token the request carried, or null on an open endpoint. */
  private final dev.herald.auth.@Nullable Principal principal;

  StatelessCall(
      Endpoint endpoint,
      JsonRpcMessage.Request request,
      RequestMeta meta,
      Exchange exchange,
      dev.herald.auth.@Nullable Principal principal) {
    this.meta = meta;
    this.principal = principal;
    this.endpoint = endpoint;
    this.config = endpoint.config;
    this.request = request;
    this.held = exchange;
  }

  /** Connects the fresh session and hands it the request. */
  void start() {
    Exchange ex = held;
    if (ex != null) {
      ex.keepOpen(); // a slow handler is not idle; keep-alives and the cancel-on-close take over
      ex.onPeerGone(this::cancel);
    }
    ServerSession s;
    try {
      s = config.mcp.connectStateless(this);
    } catch (RuntimeException e) {
      LOG.log(System.Logger.Level.WARNING, "2026 request {0}: no session: {1}", id(), e);
      close(); // answers 503 and counts the call out
      return;
    }
    session = s;
    if (ended.get()) {
      s.close(); // cancelled while connecting
      return;
    }
    Receiver r = receiver;
    if (r != null) {
      dev.herald.internal.session.SessionEngine engine =
          dev.herald.internal.session.EngineAccess.of(s);
      if (principal != null) {
        engine.principal(principal);
      }
      // The session ends on the thread that answers (or refuses) the request, once the engine's
      // work around the answer is done: no thread is started to close it.
      engine.endAfterOneRequest();
      engine.checkedMeta(meta); // read and checked once, before the request cost a session
      r.onFrame(new DecodedMessage.Valid(request));
    }
  }

  /** Ends the call as the endpoint stops: its session closes, and with it the exchange. */
  void shutdown() {
    ServerSession s = session;
    if (s != null) {
      s.close();
    } else {
      close();
    }
  }

  /** The request this call serves. */
  RequestId id() {
    return request.id();
  }

  /** Whether the request was cancelled by its stream closing. */
  boolean cancelled() {
    return cancelled;
  }

  // ---------------------------------------------------------------- Transport

  @Override
  public void start(Receiver r) {
    receiver = r;
  }

  @Override
  public void send(JsonRpcMessage message, @Nullable RequestId relatedTo) {
    if (message instanceof JsonRpcMessage.Request) {
      // MCP 2026-07-28 basic/patterns: a server never sends requests; fail the caller at once
      throw new TransportException(
          "a 2026-07-28 request's stream carries no server requests (use an input-required result)");
    }
    boolean isFinal = message instanceof JsonRpcMessage.Response r && request.id().equals(r.id());
    if (!isFinal
        && !(message instanceof JsonRpcMessage.Notification && request.id().equals(relatedTo))) {
      // Unrelated traffic has no stream in the 2026 era.
      LOG.log(System.Logger.Level.DEBUG, "2026 request {0}: unrelated message dropped", id());
      return;
    }
    byte[] json = MessageCodec.encode(message);
    Exchange answer = null;
    SseSink flush = null;
    lock.lock();
    try {
      switch (state) {
        case DONE -> {
          return; // answered or cancelled: nothing more is sent for this request
        }
        case HELD -> {
          if (isFinal) {
            answer = held;
            held = null;
            state = State.DONE;
          } else {
            flush = upgradeLocked();
          }
        }
        case STREAMING -> flush = sink;
      }
      if (answer == null && flush != null) {
        if (!flush.enqueue(new SseSink.Frame(-1, DATA, json))) {
          flush = sink; // overflow: the flush aborts it, and the listener cancels the request
        } else if (isFinal) {
          state = State.DONE;
          flush.end();
        }
      }
    } finally {
      lock.unlock();
    }
    if (answer != null) {
      HttpExchanges.json(answer, status(message), json, null);
      ended(); // the engine ends the session itself after its one answer (start())
    } else if (flush != null) {
      flush.flush();
    }
  }

  /** The HTTP status of a JSON answer (MCP 2026-07-28 streamable-http, the status table). */
  static int status(JsonRpcMessage message) {
    if (message instanceof JsonRpcMessage.Error e) {
      return switch (e.error().code()) {
        case ErrorCodes.METHOD_NOT_FOUND -> 404;
        case ErrorCodes.HEADER_MISMATCH,
            ErrorCodes.MISSING_REQUIRED_CLIENT_CAPABILITY,
            ErrorCodes.UNSUPPORTED_PROTOCOL_VERSION ->
            400;
        default -> 200;
      };
    }
    return 200;
  }

  /** The engine cancelled the request (a cancel it honoured): end the stream, no response. */
  @Override
  public void requestCancelled(RequestId id) {
    if (request.id().equals(id)) {
      cancel(new CancellationException("request cancelled"));
    }
  }

  /** Called by the engine as the session ends. */
  @Override
  public void close() {
    Exchange answer;
    SseSink s;
    lock.lock();
    try {
      answer = held;
      held = null;
      s = sink;
      state = State.DONE;
    } finally {
      lock.unlock();
    }
    if (answer != null && !cancelled) {
      HttpExchanges.error(
          answer,
          503,
          request.id(),
          ErrorCodes.INTERNAL_ERROR,
          "Server closing: request not served");
    }
    if (s != null) {
      s.end();
      s.flush();
    }
    ended();
  }

  // ---------------------------------------------------------------- streams

  /** Switches the held exchange to SSE; returns the sink to flush. Under {@link #lock}. */
  private @Nullable SseSink upgradeLocked() {
    Exchange h = held;
    held = null;
    if (h == null) {
      return null;
    }
    SseSink s = new SseSink(h, config.queueFrames, config.queueBytes, null, System.nanoTime());
    s.listener(this);
    sink = s;
    state = State.STREAMING;
    return s;
  }

  /**
   * Sends a {@code :} comment if nothing was written for {@code quietNanos}; a response still held
   * that long becomes a stream first, so the comment can be sent. A stream with a write outstanding
   * for {@code stalledNanos} (its client stopped reading: that many keep-alives could not be
   * written) is aborted, which cancels the request if it was not answered yet, and the call ends.
   */
  void keepAlive(long nowSystemNanos, long quietNanos, long stalledNanos) {
    SseSink s;
    lock.lock();
    try {
      s = sink;
    } finally {
      lock.unlock();
    }
    if (s != null && s.stalled(nowSystemNanos, stalledNanos, 1)) {
      // its client stopped reading: no keep-alive (or the response) got through for that long
      s.fail(new IOException("keep-alives failed: client gone"));
      return;
    }
    lock.lock();
    try {
      if (state == State.HELD) {
        if (nowSystemNanos - startNanos < quietNanos) {
          return;
        }
        s = upgradeLocked();
      } else if (state == State.STREAMING) {
        s = sink;
        if (s == null || nowSystemNanos - s.lastWriteNanos() < quietNanos) {
          return;
        }
      } else {
        return;
      }
      if (s == null || !s.enqueue(new SseSink.Frame(-1, SseSink.KEEP_ALIVE, null))) {
        return;
      }
    } finally {
      lock.unlock();
    }
    s.flush();
  }

  @Override
  public void detached(SseSink s, @Nullable Throwable cause) {
    if (cause != null && cancel(cause)) {
      return; // the stream closed before the response: that is a cancellation
    }
    finish(); // the response was written and the stream ended (or its last write failed)
  }

  /**
   * The stream closed (or the request was cancelled) before the response: nothing more is
   * written, and the session closes, which interrupts the handler.
   *
   * @return false if the call was already done (answered, cancelled or closed)
   */
  boolean cancel(Throwable cause) {
    Exchange h;
    SseSink s;
    lock.lock();
    try {
      if (state == State.DONE) {
        return false;
      }
      state = State.DONE;
      cancelled = true;
      h = held;
      held = null;
      s = sink;
    } finally {
      lock.unlock();
    }
    if (s != null) {
      s.fail(cause instanceof IOException ? cause : new IOException("request cancelled", cause));
    } else if (h != null) {
      h.abort(cause);
    }
    finish();
    return true;
  }

  /** The exchange is over: close the session (off the caller's thread) and count the call out. */
  private void finish() {
    ServerSession s = session;
    if (s != null) {
      // the engine may be sending the response on this thread: close from another one
      Thread.ofVirtual().name("herald-stateless-close").start(s::close);
    }
    ended();
  }

  private void ended() {
    if (ended.compareAndSet(false, true)) {
      endpoint.statelessEnded(this);
    }
  }
}
