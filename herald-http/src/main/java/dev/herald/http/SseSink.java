package dev.herald.http;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.util.ArrayDeque;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.locks.ReentrantLock;
import org.eclipse.jetty.http.HttpHeader;
import org.eclipse.jetty.server.Response;
import org.eclipse.jetty.util.Callback;
import org.eclipse.jetty.util.IteratingCallback;
import org.jspecify.annotations.Nullable;

/**
 * One open SSE response: a bounded queue of frames and the loop that writes them.
 *
 * <p>Design note (DESIGN.md "Routing", "Performance"). Producers {@link #offer} already encoded
 * frames from any thread; Jetty's {@link IteratingCallback} writes whatever has queued since the
 * last write as one buffer (several events, one flush), so a burst costs one write, and no thread
 * waits on a slow socket. The queue is bounded by count and bytes: when an offer would exceed
 * either, the reader is too slow, the sink aborts the response (the client can resume with {@code
 * Last-Event-ID}) and the offer returns false. Memory per stream is thus at most the queue limit
 * plus the one batch Jetty is writing. {@link #end} finishes the response after the queued
 * frames; the logical stream may outlive this sink.
 *
 * <p>Thread-safe: {@link #lock} guards the queue and flags; Jetty never sees the lock held.
 */
final class SseSink extends IteratingCallback {
  static final byte[] KEEP_ALIVE = ":\n\n".getBytes(java.nio.charset.StandardCharsets.US_ASCII);
  private static final byte[] EVENT_END = {'\n', '\n'};

  /** Told once when the sink is done, with the cause, or {@code null} after a clean end. */
  interface Listener {
    void detached(SseSink sink, @Nullable Throwable cause);
  }

  /** An SSE frame: {@code head}, then {@code json} and a blank line when {@code json} is set. */
  record Frame(long seq, byte[] head, byte @Nullable [] json) {
    int size() {
      return head.length + (json == null ? 0 : json.length + 2);
    }
  }

  private final Response response;
  private final Callback done;
  private final int maxFrames;
  private final long maxBytes;
  private final AtomicBoolean completed = new AtomicBoolean();
  private final ReentrantLock lock = new ReentrantLock();
  // guarded by lock
  private final ArrayDeque<Frame> queue = new ArrayDeque<>();
  private long queuedBytes;
  private boolean ending;
  private boolean lastWritten;
  private long writtenSeq = -1;
  private boolean closed;
  private boolean overflowed;
  private @Nullable Listener listener;
  private volatile long lastWriteNanos;
  private final @Nullable String sessionId;
  /** Whether this sink carries the POST exchange of its stream (set once, before sharing). */
  volatile boolean fromPost;
  private boolean headersSet;

  SseSink(Response response, Callback done, int maxFrames, long maxBytes, @Nullable String sessionId, long nowNanos) {
    this.response = response;
    this.done = done;
    this.maxFrames = maxFrames;
    this.maxBytes = maxBytes;
    this.lastWriteNanos = nowNanos;
    this.sessionId = sessionId;
  }

  /** Sets who hears about the end; called once, before the first offer. */
  void listener(Listener l) {
    this.listener = l;
  }

  /**
   * Queues a frame; {@link #flush} starts the write. May be called under the caller's lock.
   *
   * @return false if the sink is closed or ending, or the frame would overflow the queue (the
   *     next {@link #flush} then aborts the response: its reader is too slow)
   */
  boolean enqueue(Frame frame) {
    lock.lock();
    try {
      if (closed || ending || overflowed) {
        return false;
      }
      if (queue.size() >= maxFrames || queuedBytes + frame.size() > maxBytes) {
        overflowed = true;
        return false;
      }
      queue.addLast(frame);
      queuedBytes += frame.size();
      return true;
    } finally {
      lock.unlock();
    }
  }

  /** Asks for the response to end once the queued frames are written; {@link #flush} acts. */
  void end() {
    lock.lock();
    try {
      ending = true;
    } finally {
      lock.unlock();
    }
  }

  /** Writes what is queued (or aborts after an overflow). Call without holding other locks. */
  void flush() {
    boolean abort;
    lock.lock();
    try {
      abort = overflowed;
    } finally {
      lock.unlock();
    }
    if (abort) {
      abort(new IOException("SSE reader too slow: outbound queue limit reached"));
    } else {
      iterate();
    }
  }

  /** Aborts the response now; queued frames are dropped. */
  void fail(Throwable cause) {
    abort(cause);
  }

  /** The sequence number of the last event handed to Jetty, or -1. */
  long writtenSeq() {
    lock.lock();
    try {
      return writtenSeq;
    } finally {
      lock.unlock();
    }
  }

  /** Bytes queued and not yet handed to Jetty. */
  long queuedBytes() {
    lock.lock();
    try {
      return queuedBytes;
    } finally {
      lock.unlock();
    }
  }

  long lastWriteNanos() {
    return lastWriteNanos;
  }

  @Override
  protected Action process() {
    ByteBuffer batch;
    boolean last = false;
    lock.lock();
    try {
      if (lastWritten) {
        return Action.SUCCEEDED;
      }
      if (queue.isEmpty()) {
        if (!ending) {
          return Action.IDLE;
        }
        lastWritten = true;
        last = true;
        batch = ByteBuffer.allocate(0);
      } else {
        batch = ByteBuffer.allocate((int) queuedBytes);
        for (Frame f; (f = queue.pollFirst()) != null; ) {
          batch.put(f.head());
          if (f.json() != null) {
            batch.put(f.json()).put(EVENT_END);
          }
          if (f.seq() >= 0) {
            writtenSeq = f.seq();
          }
        }
        queuedBytes = 0;
        batch.flip();
      }
    } finally {
      lock.unlock();
    }
    lastWriteNanos = System.nanoTime();
    if (!headersSet) {
      // Only the process loop touches the response, so a sink that never writes leaves the
      // exchange free for another answer (a 409, say).
      headersSet = true;
      response.setStatus(200);
      response.getHeaders().put(HttpHeader.CONTENT_TYPE, "text/event-stream");
      response.getHeaders().put(HttpHeader.CACHE_CONTROL, "no-cache");
      response.getHeaders().put("X-Accel-Buffering", "no");
      if (sessionId != null) {
        response.getHeaders().put(HttpExchanges.SESSION_HEADER, sessionId);
      }
    }
    response.write(last, batch, this);
    return Action.SCHEDULED;
  }

  @Override
  protected void onAborted(Throwable cause) {
    // A write may be stuck on a reader that never reads: failing the exchange makes Jetty abort
    // the connection, which fails that write and completes this callback.
    finish(cause);
  }

  @Override
  protected void onCompleteSuccess() {
    finish(null);
  }

  @Override
  protected void onCompleteFailure(Throwable cause) {
    finish(cause);
  }

  private void finish(@Nullable Throwable cause) {
    Listener l;
    lock.lock();
    try {
      closed = true;
      queue.clear();
      queuedBytes = 0;
      l = listener;
    } finally {
      lock.unlock();
    }
    if (!completed.compareAndSet(false, true)) {
      return;
    }
    if (cause == null) {
      done.succeeded();
    } else {
      done.failed(cause);
    }
    if (l != null) {
      l.detached(this, cause);
    }
  }
}
