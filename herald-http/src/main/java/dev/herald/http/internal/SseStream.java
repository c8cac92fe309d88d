package dev.herald.http.internal;

import dev.herald.session.EventListener;
import dev.herald.wire.RequestId;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.Condition;
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
 * <p>In a cluster (docs/scale-out.md, "Resuming on another node") a request's stream produced here
 * also sends each new event, after storing it, to the node a client resumed it on (its {@link
 * #follower}), under the lock, so the follower gets them in order; and a stream may be a
 * <em>followed</em> copy of one another node produces, fed from the shared store ({@link
 * #catchUp}) and by that node ({@link #remoteEvent}), ended by {@link #endFollowed} when it stops.
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

  /** Written under {@link #lock}; volatile for {@link #writtenWithin}, which reads it without. */
  private volatile @Nullable SseSink sink;

  private @Nullable Exchange held;
  private boolean upgraded;
  private volatile boolean ended;

  /**
   * Where the event store keeps this stream's events ({@link StreamAppends}), from its first stored
   * event on, or null (guarded by {@link #lock}).
   */
  private @Nullable Object storeHandle;

  /** {@code "id: <id>_"}, made on the first event (touched under {@link #lock}). */
  private byte @Nullable [] idPrefix;

  /** Ended by the request's cancellation: it will never carry a response. */
  private volatile boolean cancelled;

  /**
   * The highest sequence number whose event the store failed to keep (guarded by {@link #lock}):
   * a resumption from before it is refused here, as the store refuses it once it recorded the gap.
   */
  private long unstoredSeq;

  /**
   * In a cluster, the node a client resumed this stream on, which this node (the stream's
   * producer) sends each new event to (docs/scale-out.md, "Resuming on another node"); null when
   * the client reads it here or nowhere. Guarded by {@link #lock}.
   */
  private @Nullable String follower;

  /**
   * The fan-out batch holding this standing stream's newest events until they are stored ({@link
   * AppendBatch}), or null (guarded by {@link #lock}). While it is set, only the batch's own thread
   * adds events; every other writer, and a GET attaching, waits on {@link #drained} until the batch
   * has stored and written them, so events are stored and written in order, once.
   */
  private @Nullable AppendBatch pendingBatch;

  /** Signalled when {@link #pendingBatch} clears; made by the first writer that waits. */
  private @Nullable Condition drained;

  /** How long a writer waits for another thread's fan-out batch before going on without it. */
  private static final long DRAIN_WAIT_NANOS = TimeUnit.SECONDS.toNanos(30);

  /** A POST stream holding its exchange until the first message decides JSON or SSE. */
  SseStream(HttpSession session, String id, RequestId request, Exchange held) {
    this.session = session;
    this.id = id;
    this.request = request;
    this.held = held;
  }

  /**
   * A request's stream produced by another node, resumed on this one: its events come from the
   * shared store and from the producer ({@link #remoteEvent}), never from a local handler. Starts
   * at {@code afterSeq}, the client's {@code Last-Event-ID}.
   */
  SseStream(HttpSession session, String id, RequestId request, long afterSeq) {
    this.session = session;
    this.id = id;
    this.request = request;
    this.upgraded = true;
    this.seq = afterSeq;
    this.writtenSeq = afterSeq;
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

  /**
   * The lock a sink attached to this stream should use, or null for one of its own: the standing
   * stream shares its lock with its sinks (one lock per idle session instead of two); a request's
   * stream does not, so that its handler, storing the next event under the stream's lock, never
   * holds up the write loop taking the queue.
   */
  @Nullable ReentrantLock sinkLock() {
    return request == null ? lock : null;
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
    FORGOTTEN,
    /** The event store could not be read (a shared store that cannot be reached). */
    UNAVAILABLE
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
    if (request == null) {
      AppendBatch batch = AppendBatch.current(session.store());
      if (batch != null) {
        return publishBatched(json, batch);
      }
    }
    Exchange answer = null;
    SseSink flush = null;
    SseSink soon = null; // a request's message before its response: batched (offerSoon)
    SseSink.Offer offered = SseSink.Offer.QUEUED;
    boolean isFinal;
    boolean orphaned = false;
    lock.lock();
    try {
      awaitDrainedLocked();
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
        storeLocked(s, json);
        SseSink.Frame frame = event(s, json);
        SseSink attached = sink;
        if (!isFinal && request != null && attached != null) {
          soon = attached;
          offered = attached.offerSoon(frame);
          if (offered == SseSink.Offer.REFUSED) {
            refusedLocked(attached);
          }
        } else {
          flush = offerLocked(frame);
        }
        String f = follower;
        if (f != null) {
          ClusterLink link = session.cluster();
          if (link != null) {
            link.seam.streamEvent(f, session.id, id, s, json, isFinal); // in order, under the lock
          }
          if (isFinal) {
            follower = null;
          }
        }
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
    if (soon != null) {
      // more of the request's messages are likely to follow: the loop writes them in batches, on
      // a thread of its own
      switch (offered) {
        case START -> soon.startSoon();
        case REFUSED -> soon.flushSoon(); // aborts a reader too slow
        case QUEUED -> {}
      }
      if (soon.crowded()) {
        soon.awaitRoom(ROOM_WAIT_NANOS); // a handler outrunning a reader that keeps up
      }
    }
    if (flush != null) {
      flush.flush(); // the answer, and the standing stream's (a fan-out): on this thread
    }
    if (answer != null) {
      HttpExchanges.json(answer, 200, json, session.headerValue());
    }
    return true;
  }

  /**
   * A standing stream's message in a server-wide fan-out whose store batches (a cluster's): the
   * event is numbered now and held by {@code batch}, which stores it with the other sessions'
   * events and then writes it ({@link #stored}).
   */
  private boolean publishBatched(byte[] json, AppendBatch batch) {
    lock.lock();
    try {
      if (pendingBatch != null && pendingBatch != batch) {
        // Another fan-out's thread holds events of this stream. Finish ours first, so that no two
        // fan-outs ever wait for each other, then wait for that one.
        lock.unlock();
        try {
          batch.finish();
        } finally {
          lock.lock();
        }
        awaitDrainedLocked();
      }
      if (ended) {
        return false;
      }
      long s = ++seq;
      pendingBatch = batch;
      batch.add(this, session.id, s, json);
    } finally {
      lock.unlock();
    }
    batch.finishIfFull();
    return true;
  }

  /**
   * A batched event ({@link #publishBatched}) is stored, or could not be ({@code failure}): it is
   * written to the open connection, as {@link #publish} does after storing.
   */
  void stored(long s, byte[] json, @Nullable RuntimeException failure) {
    SseSink flush = null;
    lock.lock();
    try {
      if (failure != null) {
        unstoredSeq = s;
        session.unstored(id, s, failure);
      }
      if (!ended) {
        flush = offerLocked(event(s, json));
      }
    } finally {
      if (s >= seq) { // its last held event: the stream is the others' again
        pendingBatch = null;
        Condition c = drained;
        if (c != null) {
          c.signalAll();
        }
      }
      lock.unlock();
    }
    if (flush != null) {
      flush.flush(); // as the standing stream's publish does: on the fan-out's thread
    }
  }

  /**
   * Waits (under {@link #lock}, which the wait releases) until no fan-out batch holds events of
   * this stream. Bounded: a batch whose thread is stuck beyond {@link #DRAIN_WAIT_NANOS} is
   * given up on (its events may then be written after later ones).
   */
  private void awaitDrainedLocked() {
    if (pendingBatch == null) {
      return;
    }
    Condition c = drained;
    if (c == null) {
      c = lock.newCondition();
      drained = c;
    }
    long left = DRAIN_WAIT_NANOS;
    boolean interrupted = false;
    while (pendingBatch != null && left > 0) {
      try {
        left = c.awaitNanos(left);
      } catch (InterruptedException e) {
        interrupted = true; // a store call is not cut short by an interrupt either
      }
    }
    pendingBatch = null;
    if (interrupted) {
      Thread.currentThread().interrupt();
    }
  }

  /**
   * Attaches a GET connection.
   *
   * @param afterSeq replay events after this one ({@code Last-Event-ID}), or -1 for a fresh GET,
   *     which receives what no connection has been given yet
   */
  Attach attach(SseSink newSink, long afterSeq) {
    return attach(newSink, afterSeq, List.of());
  }

  /**
   * As {@link #attach(SseSink, long)}, writing {@code prelude} first: the events of another
   * node's standing stream that a client resuming it here has not seen ({@link #foreignEvent}).
   */
  Attach attach(SseSink newSink, long afterSeq, List<SseSink.Frame> prelude) {
    SseSink replaced = null;
    lock.lock();
    try {
      awaitDrainedLocked();
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
      boolean complete;
      try {
        complete =
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
      } catch (RuntimeException e) {
        return Attach.UNAVAILABLE; // a shared store that cannot be reached: the client retries
      }
      if (!fresh && afterSeq < unstoredSeq) {
        complete = false;
      }
      if (!complete && !fresh) {
        return Attach.FORGOTTEN; // the connection already attached, if any, keeps going
      }
      if (sink != null) {
        replaced = sink;
        writtenSeq = Math.max(writtenSeq, replaced.writtenSeq());
        sink = null;
      }
      dropFollowerLocked(); // the client reads it here now
      newSink.listener(this);
      sink = newSink;
      if (replay.isEmpty() && prelude.isEmpty() && fresh && session.priming()) {
        newSink.enqueue(priming(++seq));
      } else {
        newSink.enqueue(new SseSink.Frame(-1, session.retryField(), null));
      }
      for (SseSink.Frame f : prelude) {
        newSink.enqueue(f);
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
      awaitDrainedLocked();
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
      answerFollowerLocked(ClusterSeam.FollowState.CANCELLED);
      if (sink != null) {
        sink.end();
        flush = sink;
      }
    } finally {
      lock.unlock();
    }
    // free the request id before the peer can read the stream's end: it may reuse the id at once
    session.requestEnded(this, keep);
    if (flush != null) {
      flush.flush();
    }
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

  /**
   * Whether the attached connection, if any, was written to within {@code quietNanos} (a hint,
   * read without the lock): then it needs no keep-alive and no write of it can have been
   * outstanding that long.
   */
  boolean writtenWithin(long nowSystemNanos, long quietNanos) {
    SseSink s = sink;
    return s == null || nowSystemNanos - s.lastWriteNanos() < quietNanos;
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
      if (!ended) {
        answerFollowerLocked(ClusterSeam.FollowState.GONE);
      }
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
    ClusterLink link = session.cluster();
    if (link != null && request != null) {
      link.streamOpened(session, id, request); // another node can resume it if this one dies
    }
    if (h == null) {
      return;
    }
    session.events().streamOpened(EventListener.StreamKind.REQUEST);
    SseSink s = session.newSink(h, null);
    s.fromPost = true;
    s.listener(this);
    sink = s;
    s.enqueue(
        session.priming() ? priming(++seq) : new SseSink.Frame(-1, session.retryField(), null));
  }

  // ---------------------------------------------------------------- across nodes

  /**
   * Another node ({@code node}) resumed this stream for its client (this node produces it): from
   * now on each new event goes to that node as well, after it was stored. The answer, sent under
   * the lock so that it precedes those events, tells the follower which event it has to read from
   * the store first, or that the stream ended. A connection attached here is replaced, as a
   * resumption on one node replaces it (one connection per stream).
   */
  void followedBy(String node) {
    SseSink replaced = null;
    String previous;
    lock.lock();
    try {
      previous = follower;
      follower = null;
      if (ended) {
        ClusterLink link = session.cluster();
        if (link != null) {
          link.seam.following(
              node,
              session.id,
              id,
              seq,
              cancelled ? ClusterSeam.FollowState.CANCELLED : ClusterSeam.FollowState.ENDED);
        }
      } else {
        if (sink != null) {
          replaced = sink;
          writtenSeq = Math.max(writtenSeq, replaced.writtenSeq());
          sink = null;
        }
        follower = node;
        answerFollowerLocked(ClusterSeam.FollowState.LIVE);
      }
    } finally {
      lock.unlock();
    }
    if (replaced != null) {
      replaced.fail(new IOException("replaced by a connection resumed on another node"));
    }
    if (previous != null && !previous.equals(node)) {
      ClusterLink link = session.cluster();
      if (link != null) {
        link.seam.unfollowed(previous, session.id, id);
      }
    }
  }

  /** Tells the follower, if any, the stream's state (under {@link #lock}); LIVE keeps it. */
  private void answerFollowerLocked(ClusterSeam.FollowState state) {
    String f = follower;
    ClusterLink link = session.cluster();
    if (f == null || link == null) {
      return;
    }
    link.seam.following(f, session.id, id, seq, state);
    if (state != ClusterSeam.FollowState.LIVE) {
      follower = null;
    }
  }

  /** The client reads this stream here now: the node that followed it stops (under the lock). */
  private void dropFollowerLocked() {
    String f = follower;
    ClusterLink link = session.cluster();
    if (f != null && link != null) {
      link.seam.unfollowed(f, session.id, id);
    }
    follower = null;
  }

  /** A followed stream's sequence number: the last event this node has of it. */
  long seq() {
    lock.lock();
    try {
      return seq;
    } finally {
      lock.unlock();
    }
  }

  /**
   * A followed stream: an event its producer sent. Dropped if this node has it already (read from
   * the store); {@code last} (the response) ends the stream.
   */
  void remoteEvent(long s, byte[] json, boolean last) {
    SseSink flush;
    lock.lock();
    try {
      if (ended || s <= seq) {
        return;
      }
      seq = s;
      flush = offerLocked(event(s, json));
      if (last) {
        ended = true;
        if (sink != null) {
          sink.end();
          flush = sink;
        }
      }
    } finally {
      lock.unlock();
    }
    if (flush != null) {
      flush.flush();
    }
  }

  /**
   * A followed stream: sends the stored events after the last one this node has, in order; the
   * response among them ({@code isResponse}) ends the stream.
   *
   * @return whether the stream has ended (its response was among them, or before)
   * @throws RuntimeException if the store cannot be read
   */
  boolean catchUp(java.util.function.Predicate<byte[]> isResponse) {
    SseSink flush = null;
    lock.lock();
    try {
      if (ended) {
        return true;
      }
      List<SseSink.Frame> frames = new ArrayList<>();
      long[] last = {seq};
      boolean[] done = {false};
      session
          .store()
          .replay(
              session.id,
              id,
              seq,
              (s, json) -> {
                if (!done[0] && s > last[0]) {
                  last[0] = s;
                  frames.add(event(s, json));
                  done[0] = isResponse.test(json);
                }
              });
      seq = last[0];
      for (SseSink.Frame f : frames) {
        SseSink offered = offerLocked(f);
        if (offered != null) {
          flush = offered;
        }
      }
      if (done[0]) {
        ended = true;
        if (sink != null) {
          sink.end();
          flush = sink;
        }
      }
    } finally {
      lock.unlock();
    }
    if (flush != null) {
      flush.flush();
    }
    return ended;
  }

  /**
   * A followed stream whose producer will send nothing more: ends it, with {@code last} (stored
   * and sent as its final event) when not null.
   */
  void endFollowed(byte @Nullable [] last, boolean asCancelled) {
    SseSink flush = null;
    lock.lock();
    try {
      if (ended) {
        return;
      }
      if (last != null) {
        long s = ++seq;
        storeLocked(s, last);
        flush = offerLocked(event(s, last));
      }
      ended = true;
      cancelled = asCancelled;
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
  }

  /** A followed stream another node took over: its connection here ends (the client moved). */
  void unfollowed() {
    SseSink s;
    lock.lock();
    try {
      ended = true;
      s = sink;
      sink = null;
    } finally {
      lock.unlock();
    }
    if (s != null) {
      s.fail(new IOException("resumed on another node"));
    }
  }

  /**
   * Stores event {@code s} (under {@link #lock}). A store that fails (a shared store that cannot
   * be reached) does not stop the event: it is still written to the open connection, if any, and
   * the failure is logged; a later resumption from before it is refused (400), since it cannot be
   * replayed.
   */
  private void storeLocked(long s, byte[] json) {
    try {
      dev.herald.http.EventStore store = session.store();
      if (store instanceof StreamAppends handles) {
        storeHandle = handles.append(storeHandle, session.id, id, s, json);
        return;
      }
      store.append(session.id, id, s, json);
    } catch (RuntimeException e) {
      unstoredSeq = s;
      session.unstored(id, s, e);
    }
  }

  /** Offers a frame to the attached sink; returns the sink to flush after unlocking, or null. */
  private @Nullable SseSink offerLocked(SseSink.Frame frame) {
    SseSink s = sink;
    if (s == null) {
      return null;
    }
    if (!s.enqueue(frame)) {
      refusedLocked(s);
    }
    return s;
  }

  /** {@code s} refused a frame: too slow, detached now; it aborts its connection when flushed. */
  private void refusedLocked(SseSink s) {
    sink = null;
    writtenSeq = Math.max(writtenSeq, s.writtenSeq());
    session.events().streamClosedForSlowReader(kind());
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

  /**
   * Event {@code s} of another stream ({@code streamId}), written whole, outside this stream's
   * numbering: a standing stream's stored events replayed by the node taking it over.
   */
  static SseSink.Frame foreignEvent(String streamId, long s, byte[] json) {
    byte[] head = HttpExchanges.ascii("id: " + streamId + "_" + s + "\ndata: ");
    byte[] out = java.util.Arrays.copyOf(head, head.length + json.length + 2);
    System.arraycopy(json, 0, out, head.length, json.length);
    out[out.length - 2] = '\n';
    out[out.length - 1] = '\n';
    return new SseSink.Frame(-1, out, null);
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
