package dev.herald.http.internal;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.util.ArrayDeque;
import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.ReentrantLock;
import org.jspecify.annotations.Nullable;

/**
 * One open SSE response: a bounded queue of frames and the loop that writes them.
 *
 * <p>Design note (docs/architecture.md, "Routing" and "Performance we design for"). Producers
 * {@link #enqueue} already encoded frames from any thread; the write loop hands whatever has queued
 * since the last write to the {@link Exchange} as one buffer (several events, one flush), so a
 * burst costs one write, and no thread waits on a slow socket. At most one write is outstanding;
 * its completion, on whatever thread, runs the loop again (a completion that arrives before {@code
 * write} returns is noted and the loop continues there, so the stack never grows). The queue is
 * bounded by count and bytes: when an offer would exceed either, the reader is too slow, the sink
 * aborts the response (the client can resume with {@code Last-Event-ID}) and the offer returns
 * false. Memory per stream is thus at most the queue limit plus the one batch being written. {@link
 * #end} finishes the response after the queued frames; the logical stream may outlive this sink.
 *
 * <p>Thread-safe: {@link #lock} guards the queue, the flags and the loop state; the exchange is
 * never called with the lock held. A standing stream's sink uses its stream's lock ({@link
 * SseStream#sinkLock}): the stream offers to the sink under that lock anyway (lock order stream,
 * then sink), and an idle session then holds one lock for both.
 */
public final class SseSink implements Exchange.Done {
  static final byte[] KEEP_ALIVE = ":\n\n".getBytes(java.nio.charset.StandardCharsets.US_ASCII);
  private static final byte[] EVENT_END = {'\n', '\n'};

  /** Told once when the sink is done, with the cause, or {@code null} after a clean end. */
  interface Listener {
    void detached(SseSink sink, @Nullable Throwable cause);
  }

  /**
   * An SSE frame: {@code head}, then {@code json} and a blank line when {@code json} is set. A
   * {@code numbered} frame's head is its stream's shared {@code "id: <stream>_"}, and the
   * writer adds the sequence number and {@code "\ndata: "} as it copies the frame into the batch,
   * so an event allocates no head of its own.
   */
  @SuppressWarnings("ArrayRecordComponent") // encoded once, queued, written; never compared
  record Frame(long seq, byte[] head, byte @Nullable [] json, boolean numbered) {
    Frame(long seq, byte[] head, byte @Nullable [] json) {
      this(seq, head, json, false);
    }

    int size() {
      return head.length
          + (numbered ? digits(seq) + DATA_FIELD.length : 0)
          + (json == null ? 0 : json.length + 2);
    }
  }

  private static final byte[] DATA_FIELD = {'\n', 'd', 'a', 't', 'a', ':', ' '};

  private static final long[] POW10 = new long[19];

  static {
    long p = 1;
    for (int i = 0; i < POW10.length; i++) {
      POW10[i] = p;
      p *= 10;
    }
  }

  /**
   * Decimal digits of {@code v >= 0} (twice per event), without a branch: a comparison loop made
   * the compiled fan-out fall back to the interpreter each time sequence numbers gained a digit.
   * {@code v | 1} has the digits of {@code v}; its bit length times log10(2) (1233 / 4096) is
   * the digit count or one more, and the sign of {@code w - 10^t} says which.
   */
  static int digits(long v) {
    long w = v | 1;
    int t = ((64 - Long.numberOfLeadingZeros(w)) * 1233) >>> 12;
    return t + 1 - (int) ((w - POW10[t]) >>> 63);
  }

  /** Puts {@code seq} (not negative) in decimal, then {@code "\ndata: "}. */
  static void putSeqAndData(ByteBuffer b, long seq) {
    int n = digits(seq);
    int p = b.position();
    if (seq <= Integer.MAX_VALUE) {
      int v = (int) seq; // int division is cheaper, and sequence numbers are small
      for (int i = p + n - 1; i >= p; i--) {
        int q = v / 10;
        b.put(i, (byte) ('0' + (v - q * 10)));
        v = q;
      }
    } else {
      long v = seq;
      for (int i = p + n - 1; i >= p; i--) {
        b.put(i, (byte) ('0' + v % 10));
        v /= 10;
      }
    }
    b.position(p + n);
    b.put(DATA_FIELD);
  }

  /** The write loop: idle, inside {@code write}, completed inside it, or waiting for completion. */
  private enum Loop {
    IDLE,
    CALLING,
    CALLED_BACK,
    WAITING
  }

  private final Exchange exchange;
  private final int maxFrames;
  private final long maxBytes;
  private volatile boolean completed; // set once through COMPLETED (no AtomicBoolean per sink)

  private static final java.lang.invoke.VarHandle COMPLETED;

  static {
    try {
      COMPLETED =
          java.lang.invoke.MethodHandles.lookup()
              .findVarHandle(SseSink.class, "completed", boolean.class);
    } catch (ReflectiveOperationException e) {
      throw new ExceptionInInitializerError(e);
    }
  }

  private final ReentrantLock lock;

  /**
   * Signalled when the write loop takes the queue, or the sink closes ({@link #awaitRoom}); made
   * by the first producer that waits (guarded by {@link #lock}).
   */
  private @Nullable Condition drained;

  // guarded by lock
  private final ArrayDeque<Frame> queue = new ArrayDeque<>(2); // grows with a burst; idle, small
  private long queuedBytes;
  private boolean ending;
  private boolean lastWritten;
  private long writtenSeq = -1;
  private boolean closed;
  private boolean overflowed;

  /**
   * Whether the queue is past half of either bound (set by {@link #enqueue}, cleared when the
   * write loop takes the queue): read without the lock, so a producer asks {@link #awaitRoom}
   * only when there is something to wait for.
   */
  private volatile boolean crowded;

  private Loop loop = Loop.IDLE;

  /**
   * A request stream's batch buffers (guarded by lock): the one being written, and the last one
   * written, reused for the next batch if it is large enough. A handler reporting in a loop then
   * fills the same array batch after batch instead of allocating (and zeroing) one per write. Only
   * a POST's own stream keeps a spare, which lives as long as its request; a standing stream
   * keeps none, so an idle session holds no buffer.
   */
  private @Nullable ByteBuffer writing;

  private @Nullable ByteBuffer spare;

  /** The largest buffer kept as a spare. */
  private static final int MAX_SPARE = 256 * 1024;

  private @Nullable Listener listener;
  private volatile long lastWriteNanos;
  private final @Nullable String sessionId;

  /** Whether this sink carries the POST exchange of its stream (set once, before sharing). */
  volatile boolean fromPost;

  private boolean headersSet; // touched only by the one running loop

  SseSink(
      Exchange exchange, int maxFrames, long maxBytes, @Nullable String sessionId, long nowNanos) {
    this(exchange, maxFrames, maxBytes, sessionId, nowNanos, null);
  }

  /**
   * @param shared the lock to use, or null for one of the sink's own (see the class comment)
   */
  SseSink(
      Exchange exchange,
      int maxFrames,
      long maxBytes,
      @Nullable String sessionId,
      long nowNanos,
      @Nullable ReentrantLock shared) {
    this.lock = shared != null ? shared : new ReentrantLock();
    this.exchange = exchange;
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
      return enqueueLocked(frame);
    } finally {
      lock.unlock();
    }
  }

  private boolean enqueueLocked(Frame frame) {
    if (closed || ending || overflowed) {
      return false;
    }
    int size = frame.size();
    if (queue.size() >= maxFrames || queuedBytes + size > maxBytes) {
      overflowed = true;
      return false;
    }
    queue.addLast(frame);
    queuedBytes += size;
    if (!crowded && (queue.size() >= maxFrames / 2 || queuedBytes >= maxBytes / 2)) {
      crowded = true;
    }
    return true;
  }

  /** What {@link #offerSoon} did. */
  enum Offer {
    /** Not queued, as {@link #enqueue} returning false: call {@link #flushSoon} (it aborts). */
    REFUSED,
    /** Queued; the running write loop will take it. */
    QUEUED,
    /** Queued, and the idle loop is now the caller's: call {@link #startSoon}, unlocked. */
    START
  }

  /**
   * {@link #enqueue} and {@link #flushSoon}'s claim of an idle loop in one hold of the lock: a
   * handler reporting progress in a loop takes the sink's lock once per message, not twice, and
   * not at all a second time while the loop runs. May be called under the caller's lock.
   */
  Offer offerSoon(Frame frame) {
    lock.lock();
    try {
      if (!enqueueLocked(frame)) {
        return Offer.REFUSED;
      }
      if (loop != Loop.IDLE || closed) {
        return Offer.QUEUED;
      }
      loop = Loop.CALLING;
      return Offer.START;
    } finally {
      lock.unlock();
    }
  }

  /** Starts the loop {@link #offerSoon} claimed, on a new virtual thread. Call without locks. */
  void startSoon() {
    Thread.ofVirtual().start(this::run);
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
    lock.lock(); // once: this runs once per session on a fan-out
    try {
      abort = overflowed;
      if (!abort) {
        if (loop != Loop.IDLE || closed) {
          return; // the running loop will see what was queued
        }
        loop = Loop.CALLING;
      }
    } finally {
      lock.unlock();
    }
    if (abort) {
      abort(new IOException("SSE reader too slow: outbound queue limit reached"));
      return;
    }
    run();
  }

  /** Whether the queue is past half of either bound; see {@link #awaitRoom}. */
  boolean crowded() {
    return crowded;
  }

  /**
   * Back-pressure for a producer that may wait (a request's handler reporting progress): while the
   * queue is past half of either bound and a write is under way, waits until the write loop takes
   * the queue, at most {@code maxNanos}. A reader that keeps up thus slows a fast producer down
   * instead of being cut off as too slow; one that does not read is still cut off, by the next
   * offer that overflows once the wait ran out. Call without holding other locks.
   */
  void awaitRoom(long maxNanos) {
    lock.lock();
    try {
      long left = maxNanos;
      while (crowded && !closed && !overflowed && loop != Loop.IDLE && left > 0) {
        Condition c = drained;
        if (c == null) {
          c = lock.newCondition();
          drained = c;
        }
        left = c.awaitNanos(left);
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt(); // a cancelled handler: its caller sees the flag
    } finally {
      lock.unlock();
    }
  }

  /**
   * As {@link #flush}, but an idle loop is started on a new virtual thread instead of the
   * caller's: a producer that sends many messages in a row (a handler reporting progress) goes on
   * queueing while the loop writes, so the loop finds several frames and writes them as one batch
   * (one write and one flush for many events) instead of one write per message on the producer's
   * thread. The cost is one thread hand-off per batch.
   */
  void flushSoon() {
    lock.lock();
    try {
      if (!overflowed) {
        if (loop != Loop.IDLE || closed) {
          return; // the running loop will see what was queued
        }
        loop = Loop.CALLING;
      }
    } finally {
      lock.unlock();
    }
    if (overflowed) {
      flush(); // aborts
    } else {
      Thread.ofVirtual().start(this::run);
    }
  }

  /** Aborts the response now; queued frames are dropped. */
  void fail(Throwable cause) {
    abort(cause);
  }

  /** The sequence number of the last event handed to the exchange, or -1. */
  long writtenSeq() {
    lock.lock();
    try {
      return writtenSeq;
    } finally {
      lock.unlock();
    }
  }

  /** Bytes queued and not yet handed to the exchange. */
  public long queuedBytes() {
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

  /**
   * When the write still outstanding was handed to the exchange ({@link System#nanoTime}), or -1
   * if none is: a write that never completes is a client that stopped reading.
   */
  long pendingSinceNanos() {
    lock.lock();
    try {
      return loop == Loop.WAITING && !closed ? lastWriteNanos : -1;
    } finally {
      lock.unlock();
    }
  }

  /**
   * Whether this connection could not take a keep-alive for {@code failures} intervals of {@code
   * quietNanos} in a row: one write has been outstanding all that time.
   */
  boolean stalled(long nowSystemNanos, long quietNanos, int failures) {
    long since = pendingSinceNanos();
    return since >= 0 && nowSystemNanos - since >= quietNanos * failures;
  }

  /** The loop: writes batches until the queue is empty or a write is left pending. */
  private void run() {
    while (true) {
      ByteBuffer batch = null;
      boolean last = false;
      boolean over = false;
      lock.lock();
      try {
        if (closed || lastWritten) {
          loop = Loop.IDLE;
          over = !closed; // the last write completed: the response is over
        } else if (!queue.isEmpty()) {
          batch = takeLocked();
          writing = batch;
          loop = Loop.CALLING;
        } else if (ending) {
          lastWritten = true;
          last = true;
          batch = ByteBuffer.allocate(0);
          loop = Loop.CALLING;
        } else {
          loop = Loop.IDLE;
        }
      } finally {
        lock.unlock();
      }
      if (batch == null) {
        if (over) {
          finish(null);
        }
        return;
      }
      lastWriteNanos = System.nanoTime();
      if (!headersSet) {
        // Only the loop touches the response, so a sink that never writes leaves the exchange
        // free for another answer (a 409, say).
        headersSet = true;
        exchange.sseHead(sessionId);
      }
      exchange.write(batch, last, this);
      lock.lock();
      try {
        if (loop != Loop.CALLED_BACK) {
          loop = Loop.WAITING;
          return; // succeeded() runs the loop on
        }
      } finally {
        lock.unlock();
      }
    }
  }

  /** Everything queued, as one buffer. */
  private ByteBuffer takeLocked() {
    int need = (int) queuedBytes;
    ByteBuffer batch = spare;
    if (batch != null && batch.capacity() >= need) {
      spare = null;
      batch.clear();
    } else {
      batch = ByteBuffer.allocate(need);
    }
    for (Frame f; (f = queue.pollFirst()) != null; ) {
      batch.put(f.head());
      if (f.numbered()) {
        putSeqAndData(batch, f.seq());
      }
      if (f.json() != null) {
        batch.put(f.json()).put(EVENT_END);
      }
      if (f.seq() >= 0) {
        writtenSeq = f.seq();
      }
    }
    queuedBytes = 0;
    crowded = false;
    signalDrainedLocked();
    return batch.flip();
  }

  private void signalDrainedLocked() {
    Condition c = drained;
    if (c != null) {
      c.signalAll();
    }
  }

  /** A write completed. */
  @Override
  public void succeeded() {
    lock.lock();
    try {
      ByteBuffer written = writing;
      writing = null;
      if (written != null && fromPost && !closed && written.capacity() <= MAX_SPARE) {
        spare = written; // the exchange is done with it
      }
      if (loop == Loop.CALLING) {
        loop = Loop.CALLED_BACK; // run() continues after write() returns
        return;
      }
      loop = Loop.CALLING;
    } finally {
      lock.unlock();
    }
    run();
  }

  /** A write failed: the connection is gone. */
  @Override
  public void failed(Throwable cause) {
    finish(cause);
  }

  private void abort(Throwable cause) {
    if (!completed) {
      finish(cause);
      exchange.abort(cause); // a write stuck on a reader that never reads fails with it
    }
  }

  private void finish(@Nullable Throwable cause) {
    Listener l;
    lock.lock();
    try {
      closed = true;
      queue.clear();
      queuedBytes = 0;
      spare = null;
      writing = null;
      crowded = false;
      signalDrainedLocked();
      l = listener;
    } finally {
      lock.unlock();
    }
    if (!COMPLETED.compareAndSet(this, false, true)) {
      return;
    }
    if (l != null) {
      l.detached(this, cause);
    }
  }
}
