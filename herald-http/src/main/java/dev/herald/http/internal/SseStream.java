package dev.herald.http.internal;

import dev.herald.session.EventListener;
import dev.herald.wire.RequestId;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.ReentrantLock;
import org.jspecify.annotations.Nullable;

/**
 * One logical SSE stream of a session: a POST request's stream, or the session's standing
 * stream. It outlives the HTTP connections that carry it: a client that loses the connection can
 * attach a new one with {@code Last-Event-ID} and continue where it left off.
 *
 * <p>Design note (MCP 2025-11-25 basic/transports, "Sending Messages", "Resumability and
 * Redelivery"; docs/architecture.md, "Streams and resumability"). Every event is numbered {@code
 * <id>_<seq>}, stored in the session's {@link dev.herald.http.EventStore} first and then offered to
 * the attached {@link SseSink}, if any, all under {@link #lock}, so an attach that replays from the
 * store and then goes live can neither miss an event nor repeat one. A POST stream starts
 * undecided, holding the exchange: when the request's response is the first message, it is answered
 * as plain JSON and no stream ever exists; anything else first switches the exchange to SSE
 * (status, headers, a priming event). The response ends the stream (so does the request's
 * cancellation, which has no response); later messages related to the
 * request go to the standing stream. If the POST connection fails before anything was written, the
 * client holds no event id to resume from, so the stream is orphaned: its notifications go to the
 * standing stream and its response is dropped (a disconnect is not a cancellation: the handler runs
 * on).
 *
 * <p>Thread-safe; {@link #lock} guards the mutable fields. Lock order: stream, then sink.
 */
public final class SseStream implements SseSink.Listener {
  private final HttpSession session;
  final String id;
  final @Nullable RequestId request;

  /**
   * How long a request's producer waits for its stream's queue to drain before an offer may
   * overflow it ({@link SseSink#awaitRoom}).
   */
  private static final long ROOM_WAIT_NANOS = TimeUnit.SECONDS.toNanos(5);

  private final ReentrantLock lock = new ReentrantLock();
  // guarded by lock
  private long seq;
  private long writtenSeq;
  private @Nullable SseSink sink;
  private @Nullable Exchange held;
  private boolean upgraded;
  private volatile boolean ended;

  /** {@code "id: <id>_"}, made on the first event (touched under {@link #lock}). */
  private byte @Nullable [] idPrefix;

  /** Ended by the request's cancellation: it will never carry a response. */
  private volatile boolean cancelled;

  /** A POST stream holding its exchange until the first message decides JSON or SSE. */
  SseStream(HttpSession session, String id, RequestId request, Exchange held) {
    this.session = session;
    this.id = id;
    this.request = request;
    this.held = held;
  }

  /** The session's standing stream. */
  SseStream(HttpSession session, String id) {
    this.session = session;
    this.id = id;
    this.request = null;
    this.upgraded = true;
  }

  boolean ended() {
    return ended;
  }

  /** Whether the stream ended because its request was cancelled (no response will ever come). */
  boolean cancelled() {
    return cancelled;
  }

  /** A request's stream or the standing stream, as the session's event listener names them. */
  EventListener.StreamKind kind() {
    return request == null ? EventListener.StreamKind.STANDING : EventListener.StreamKind.REQUEST;
  }

  /** Attach result. */
  enum Attach {
    OK,
    /** A fresh GET found the standing stream already attached. */
    CONFLICT,
    /** The stream ended and its events are gone (the session closed). */
    GONE,
    /** Events after the {@code Last-Event-ID} were forgotten by the store: it cannot be resumed from there. */
    FORGOTTEN
  }

  /**
   * Sends one message on this stream.
   *
   * @param response whether the message is the response to this stream's request (it ends the
   *     stream); the caller looked the stream up by that response's id
   * @return false if the stream can no longer carry it (ended or orphaned); the caller routes it
   *     elsewhere
   */
  boolean publish(byte[] json, boolean response) {
    Exchange answer = null;
    SseSink flush = null;
    boolean isFinal;
    boolean orphaned = false;
    lock.lock();
    try {
      if (ended) {
        return false;
      }
      isFinal = request != null && response;
      if (!upgraded) {
        if (held == null) {
          ended = true;
          orphaned = true;
        } else if (isFinal) {
          answer = held;
          held = null;
          ended = true;
        } else {
          upgradeLocked();
        }
      }
      if (answer == null && !orphaned) {
        long s = ++seq;
        session.store().append(session.id, id, s, json);
        flush = offerLocked(event(s, json));
        if (isFinal) {
          ended = true;
          if (sink != null) {
            sink.end();
            flush = sink;
          }
        }
      }
    } finally {
      lock.unlock();
    }
    if (orphaned) {
      session.requestEnded(this, false);
      return isFinal; // an orphan's response has nowhere to go: drop it
    }
    if (isFinal) {
      // free the request id before the peer can read the answer: it may reuse the id at once
      session.requestEnded(this, answer == null);
    }
    if (flush != null) {
      if (isFinal || request == null) {
        flush.flush(); // the answer, and the standing stream's (a fan-out): on this thread
      } else {
        flush.flushSoon(); // more of the request's messages are likely to follow: batch them
        if (flush.crowded()) {
          flush.awaitRoom(ROOM_WAIT_NANOS); // a handler outrunning a reader that keeps up
        }
      }
    }
    if (answer != null) {
      HttpExchanges.json(answer, 200, json, session.headerValue());
    }
    return true;
  }

  /**
   * Attaches a GET connection.
   *
   * @param afterSeq replay events after this one ({@code Last-Event-ID}), or -1 for a fresh GET,
   *     which receives what no connection has been given yet
   */
  Attach attach(SseSink newSink, long afterSeq) {
    SseSink replaced = null;
    lock.lock();
    try {
      boolean fresh = afterSeq < 0;
      if (fresh && sink != null) {
        return Attach.CONFLICT;
      }
      if (ended && session.isClosed()) {
        return Attach.GONE;
      }
      long from = fresh ? writtenSeq : afterSeq;
      long upTo = seq;
      List<SseSink.Frame> replay = new ArrayList<>();
      boolean complete =
          session
              .store()
              .replay(
                  session.id,
                  id,
                  from,
                  (s, json) -> {
                    if (s <= upTo) {
                      replay.add(event(s, json));
                    }
                  });
      if (!complete && !fresh) {
        return Attach.FORGOTTEN; // the connection already attached, if any, keeps going
      }
      if (sink != null) {
        replaced = sink;
        writtenSeq = Math.max(writtenSeq, replaced.writtenSeq());
        sink = null;
      }
      newSink.listener(this);
      sink = newSink;
      if (replay.isEmpty() && fresh && session.priming()) {
        newSink.enqueue(priming(++seq));
      } else {
        newSink.enqueue(new SseSink.Frame(-1, session.retryField(), null));
      }
      for (SseSink.Frame f : replay) {
        if (!newSink.enqueue(f)) {
          sink = null;
          break;
        }
      }
      if (ended && sink != null) {
        newSink.end();
      }
    } finally {
      lock.unlock();
    }
    if (replaced != null) {
      replaced.fail(new IOException("replaced by a resumed connection"));
    }
    newSink.flush();
    return Attach.OK;
  }

  /**
   * Ends the current connection without ending the stream (SSE polling, SEP-1699): an undecided
   * POST is switched to SSE first, so the client has an event id to resume from.
   *
   * @return false if there was no connection to close
   */
  boolean closeConnection() {
    SseSink s;
    lock.lock();
    try {
      if (ended) {
        return false;
      }
      if (!upgraded) {
        if (held == null) {
          return false;
        }
        upgradeLocked();
      }
      s = sink;
      if (s == null) {
        return false;
      }
      sink = null;
      writtenSeq = seq; // everything queued is written before the end
      s.end();
    } finally {
      lock.unlock();
    }
    s.flush();
    return true;
  }

  /**
   * The request was cancelled, so no response will come (MCP 2025-11-25
   * basic/utilities/cancellation): the stream ends now, as a response would have ended it. An
   * undecided POST is switched to SSE and ended at once, so its exchange completes with an empty
   * stream instead of waiting forever; a stream already switched ends after what is queued. A
   * resumption of it is answered at once with no stream ({@code 204}): an empty stream that ends
   * without a response would make clients that resume until the response arrives reconnect
   * forever. The request id is freed for reuse.
   */
  void cancel() {
    SseSink flush = null;
    boolean keep;
    lock.lock();
    try {
      if (ended) {
        return;
      }
      if (!upgraded && held != null) {
        upgradeLocked();
      }
      ended = true;
      cancelled = true;
      keep = upgraded;
      if (sink != null) {
        sink.end();
        flush = sink;
      }
    } finally {
      lock.unlock();
    }
    if (flush != null) {
      flush.flush();
    }
    session.requestEnded(this, keep);
  }

  /**
   * The POST connection failed: before the switch to SSE the client holds no event id, so the
   * stream is orphaned; after it, the stream is detached and may be resumed.
   */
  void connectionFailed(Throwable cause) {
    SseSink s = null;
    lock.lock();
    try {
      if (!upgraded) {
        held = null;
      } else if (sink != null && sink.fromPost) {
        s = sink;
      }
    } finally {
      lock.unlock();
    }
    if (s != null) {
      s.fail(cause);
    }
  }

  /** Whether a connection is attached (or a POST exchange is held). */
  boolean connected() {
    lock.lock();
    try {
      return sink != null || held != null;
    } finally {
      lock.unlock();
    }
  }

  /** The attached connection's sink, if any. */
  @Nullable SseSink sink() {
    lock.lock();
    try {
      return sink;
    } finally {
      lock.unlock();
    }
  }

  /** The session ended: finish the connection (or answer a held POST with 404). */
  void terminate() {
    SseSink s;
    @Nullable Exchange h;
    lock.lock();
    try {
      ended = true;
      s = sink;
      sink = null;
      h = held;
      held = null;
    } finally {
      lock.unlock();
    }
    if (s != null) {
      s.end();
      s.flush();
    }
    if (h != null) {
      HttpExchanges.error(
          h, 404, request, dev.herald.wire.ErrorCodes.INVALID_REQUEST, "Session terminated");
    }
  }

  @Override
  public void detached(SseSink s, @Nullable Throwable cause) {
    lock.lock();
    try {
      if (sink == s) {
        sink = null;
        writtenSeq = Math.max(writtenSeq, s.writtenSeq());
      }
    } finally {
      lock.unlock();
    }
    session.events().streamClosed(kind());
    session.touch();
  }

  private void upgradeLocked() {
    Exchange h = held;
    held = null;
    upgraded = true;
    session.registerStream(this);
    if (h == null) {
      return;
    }
    session.events().streamOpened(EventListener.StreamKind.REQUEST);
    SseSink s = session.newSink(h);
    s.fromPost = true;
    s.listener(this);
    sink = s;
    s.enqueue(
        session.priming() ? priming(++seq) : new SseSink.Frame(-1, session.retryField(), null));
  }

  /** Offers a frame to the attached sink; returns the sink to flush after unlocking, or null. */
  private @Nullable SseSink offerLocked(SseSink.Frame frame) {
    SseSink s = sink;
    if (s == null) {
      return null;
    }
    if (!s.enqueue(frame)) {
      // Too slow: detach now; the sink aborts its connection when flushed.
      sink = null;
      writtenSeq = Math.max(writtenSeq, s.writtenSeq());
      session.events().streamClosedForSlowReader(kind());
    }
    return s;
  }

  private SseSink.Frame priming(long s) {
    return new SseSink.Frame(
        s,
        HttpExchanges.ascii("id: " + id + "_" + s + "\n" + session.retryText() + "data: \n\n"),
        null);
  }

  /** Event {@code s} of this stream: its head is written with the batch (no array per event). */
  private SseSink.Frame event(long s, byte[] json) {
    byte[] prefix = idPrefix;
    if (prefix == null) {
      prefix = idPrefix(id);
      idPrefix = prefix; // made once, on this stream's first event (an idle stream has none)
    }
    return new SseSink.Frame(s, prefix, json, true);
  }

  /** {@code "id: <streamId>_"} as ASCII. Stream ids are decimal numbers, so ASCII. */
  static byte[] idPrefix(String streamId) {
    return HttpExchanges.ascii("id: " + streamId + "_");
  }

  /** {@code "id: <streamId>_<seq>\ndata: "} as ASCII: what the writer puts before an event. */
  static byte[] eventHead(String streamId, long seq) {
    SseSink.Frame f = new SseSink.Frame(seq, idPrefix(streamId), null, true);
    java.nio.ByteBuffer b = java.nio.ByteBuffer.allocate(f.size());
    b.put(f.head());
    SseSink.putSeqAndData(b, seq);
    return b.array();
  }
}
