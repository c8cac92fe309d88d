package dev.herald.http.internal;

import dev.herald.internal.session.EngineAccess;
import dev.herald.server.ServerSession;
import dev.herald.session.EventListener;
import dev.herald.transport.Transport;
import dev.herald.transport.TransportException;
import dev.herald.wire.DecodedMessage;
import dev.herald.wire.EncodedMessage;
import dev.herald.wire.JsonRpcMessage;
import dev.herald.wire.MessageCodec;
import dev.herald.wire.RequestId;
import java.util.concurrent.locks.ReentrantLock;
import org.jspecify.annotations.Nullable;

/**
 * A session on the 2024-11-05 HTTP+SSE transport: one GET {@code /sse} stream carries every
 * server message, the first event ({@code endpoint}) names the URL to POST client messages to,
 * and each POST is answered 202 at once.
 *
 * <p>Design note (spec 2024-11-05 basic/transports; 2025-11-25 §Backwards Compatibility). There
 * is one stream, so routing is trivial and {@code relatedTo} is ignored; there are no event ids
 * and no resumption: when the stream ends, or its reader falls behind the queue limit, the
 * session ends. A client that goes away silently is found by the keep-alive comments the
 * housekeeping timer writes ({@link #keepAlive}): the write fails and the session ends. The stream
 * is open for the session's whole life, so it cannot count as activity: a session is idle when no
 * client message arrived and no request ran for the idle timeout ({@link #idleSince}), and then
 * it ends, as Streamable HTTP sessions do.
 *
 * <p>Thread-safe.
 */
final class LegacySession implements Transport, SseSink.Listener {
  private static final byte[] MESSAGE_HEAD = HttpExchanges.ascii("event: message\ndata: ");

  final String id;
  private final Endpoint server;
  private final SseSink sink;
  private final ReentrantLock inboundLock = new ReentrantLock();
  private volatile @Nullable Receiver receiver;
  private volatile @Nullable ServerSession serverSession;
  private volatile boolean closed;
  private volatile long lastActivity;

  /** The principal that opened the stream, or null on an open endpoint. */
  final dev.herald.auth.@Nullable Principal owner;

  LegacySession(
      Endpoint server, String id, SseSink sink, dev.herald.auth.@Nullable Principal owner) {
    this.owner = owner;
    this.server = server;
    this.id = id;
    this.sink = sink;
    this.lastActivity = server.config.ticker.nanos();
  }

  boolean isClosed() {
    return closed;
  }

  /** Idle: open, no client message and no request running for at least {@code timeoutNanos}. */
  boolean idleSince(long now, long timeoutNanos) {
    if (closed || now - lastActivity < timeoutNanos) {
      return false;
    }
    ServerSession ss = serverSession;
    return ss == null || EngineAccess.of(ss).inFlightCount() == 0;
  }

  /**
   * Writes a keep-alive comment when the stream wrote nothing for {@code quietNanos}; a client
   * that went away makes the write fail, and the session ends ({@link #detached}). A client that
   * stopped reading leaves a write outstanding: after {@code failures} intervals of it the stream
   * is aborted and the session ends the same way.
   */
  void keepAlive(long nowSystemNanos, long quietNanos, int failures) {
    if (!closed && sink.stalled(nowSystemNanos, quietNanos, failures)) {
      // a client that stopped reading: no keep-alive got through for that long
      sink.fail(new java.io.IOException("keep-alives failed: client gone"));
    } else if (!closed && nowSystemNanos - sink.lastWriteNanos() >= quietNanos) {
      sink.enqueue(new SseSink.Frame(-1, SseSink.KEEP_ALIVE, null));
      sink.flush();
    }
  }

  /** Sends the {@code endpoint} event and connects the server session. */
  void open(String postPath) {
    sink.listener(this);
    sink.enqueue(
        new SseSink.Frame(
            -1,
            HttpExchanges.ascii("event: endpoint\ndata: " + postPath + "?sessionId=" + id + "\n\n"),
            null));
    sink.flush();
    ServerSession ss = server.config.mcp.connect(this);
    serverSession = ss;
    EngineAccess.of(ss).events().streamOpened(EventListener.StreamKind.STANDING);
    if (closed) {
      ss.close();
    }
  }

  /**
   * Hands a POSTed message to the engine, with the principal whose token the POST carried (null
   * on an open endpoint).
   */
  void deliver(DecodedMessage frame, dev.herald.auth.@Nullable Principal principal) {
    lastActivity = server.config.ticker.nanos();
    Receiver r = receiver;
    if (r == null || closed) {
      return;
    }
    inboundLock.lock();
    try {
      ServerSession ss = serverSession;
      if (principal != null && ss != null) {
        EngineAccess.of(ss).principal(principal);
      }
      r.onFrame(frame);
    } finally {
      inboundLock.unlock();
    }
  }

  @Override
  public void start(Receiver r) {
    receiver = r;
  }

  @Override
  public java.util.Optional<String> sessionId() {
    return java.util.Optional.of(id);
  }

  @Override
  public void send(JsonRpcMessage message, @Nullable RequestId relatedTo) {
    if (closed) {
      throw new TransportException("session " + id + " is closed");
    }
    write(MessageCodec.encode(message));
  }

  /** Writes the shared bytes as they are (encoded once for every session told). */
  @Override
  public void send(EncodedMessage encoded, @Nullable RequestId relatedTo) {
    if (closed) {
      throw new TransportException("session " + id + " is closed");
    }
    write(encoded.bytes());
  }

  private void write(byte[] json) {
    if (!sink.enqueue(new SseSink.Frame(-1, MESSAGE_HEAD, json))) {
      ServerSession ss = serverSession;
      if (ss != null) {
        EngineAccess.of(ss).events().streamClosedForSlowReader(EventListener.StreamKind.STANDING);
      }
      sink.flush();
      throw new TransportException("SSE stream of session " + id + " closed");
    }
    sink.flush();
  }

  /** The engine ends the session: finish the stream. */
  @Override
  public void close() {
    if (closed) {
      return;
    }
    closed = true;
    server.legacySessions.remove(id, this);
    server.sessionEnded(id);
    sink.end();
    sink.flush();
  }

  /** The stream ended (the client left, or it was too slow): the session ends with it. */
  @Override
  public void detached(SseSink s, @Nullable Throwable cause) {
    ServerSession ss = serverSession;
    if (ss != null) {
      EngineAccess.of(ss).events().streamClosed(EventListener.StreamKind.STANDING);
      ss.close();
    } else {
      close();
    }
  }

  /** Ends the session from the server side. */
  void shutdown() {
    ServerSession ss = serverSession;
    if (ss != null) {
      ss.close();
    }
    close();
  }
}
