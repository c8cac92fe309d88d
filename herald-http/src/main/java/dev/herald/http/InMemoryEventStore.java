package dev.herald.http;

import dev.herald.http.internal.StreamAppends;
import java.time.Duration;
import java.util.ArrayDeque;
import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.locks.ReentrantLock;
import java.util.function.LongSupplier;
import org.jspecify.annotations.Nullable;

/**
 * The default {@link EventStore}: per stream, the most recent events, bounded by count and bytes
 * per stream, by bytes for the whole store, and by age. The oldest events go first: a stream's
 * own oldest when the stream is over its bounds, the store's oldest (whichever stream it belongs
 * to) when the store is over its byte bound, and any event older than the age bound.
 *
 * <p>Design note. One lock guards everything: the per-stream rings and one queue of every event
 * in the order it was stored, which is what makes "oldest first" across streams cheap. Sections
 * under the lock never block and never call out (a replay copies, then calls the sink unlocked).
 * An event dropped from its stream stays in the global queue as a dead entry (its bytes already
 * released) until the queue's head reaches it or the queue is compacted, which happens when dead
 * entries outnumber live ones, so the queue stays within a small factor of the live events. Each
 * stream remembers the highest sequence number it forgot, so a replay can tell a caller that
 * events after its position are gone. A stream may keep its ring as a handle ({@link
 * StreamAppends}): a fan-out then appends to a thousand streams without a map lookup each; a ring
 * that was removed is marked so, and a handle to it is looked up again.
 *
 * <p>Thread-safe.
 */
final class InMemoryEventStore implements EventStore, StreamAppends {
  /** What an event costs beyond its message: the event, the entries in both queues, the array header. */
  static final long OVERHEAD_BYTES = 96;

  private final int eventsPerStream;
  private final long bytesPerStream;
  private final long bytesPerServer;
  private final long maxAgeNanos;
  private final LongSupplier clock;
  private final ReentrantLock lock = new ReentrantLock();
  // guarded by lock
  private final Map<String, Map<String, Ring>> sessions = new HashMap<>();
  private final ArrayDeque<Event> order = new ArrayDeque<>();
  private long bytes;
  private int live;

  InMemoryEventStore(
      int eventsPerStream,
      long bytesPerStream,
      long bytesPerServer,
      Duration maxAge,
      LongSupplier clock) {
    if (eventsPerStream < 1) {
      throw new IllegalArgumentException(
          "eventsPerStream must be at least 1, was " + eventsPerStream);
    }
    if (bytesPerStream < 1 || bytesPerServer < 1) {
      throw new IllegalArgumentException(
          "byte bounds must be positive, were "
              + bytesPerStream
              + " per stream, "
              + bytesPerServer
              + " per server");
    }
    if (maxAge.isNegative() || maxAge.isZero()) {
      throw new IllegalArgumentException("maxAge must be positive, was " + maxAge);
    }
    this.eventsPerStream = eventsPerStream;
    this.bytesPerStream = bytesPerStream;
    this.bytesPerServer = bytesPerServer;
    this.maxAgeNanos = maxAge.toNanos();
    this.clock = clock;
  }

  /** Bytes held: every kept message plus {@link #OVERHEAD_BYTES} per event. */
  long bytesHeld() {
    lock.lock();
    try {
      expireLocked(clock.getAsLong());
      return bytes;
    } finally {
      lock.unlock();
    }
  }

  @Override
  public void append(String sessionId, String streamId, long seq, byte[] message) {
    append(null, sessionId, streamId, seq, message);
  }

  @Override
  public Object append(
      @Nullable Object handle, String sessionId, String streamId, long seq, byte[] message) {
    long now = clock.getAsLong();
    long cost = message.length + OVERHEAD_BYTES;
    lock.lock();
    try {
      expireLocked(now);
      Ring ring = handle instanceof Ring r && !r.removed ? r : ringLocked(sessionId, streamId);
      if (cost > bytesPerStream || cost > bytesPerServer) {
        ring.forgotThrough = Math.max(ring.forgotThrough, seq); // too large to keep at all
        return ring;
      }
      while (!ring.events.isEmpty()
          && (ring.events.size() >= eventsPerStream || ring.bytes + cost > bytesPerStream)) {
        Event dropped = ring.events.removeFirst();
        dropLocked(ring, dropped);
        if (order.peekFirst() == dropped) {
          order.removeFirst(); // the store's oldest too (one busy stream): no dead entry left
        }
      }
      while (bytes + cost > bytesPerServer) {
        Event oldest = order.pollFirst();
        if (oldest == null) {
          break;
        }
        if (!oldest.dead) {
          oldest.ring.events.removeFirst(); // the globally oldest live event is its stream's oldest
          dropLocked(oldest.ring, oldest);
        }
      }
      Event e = new Event(ring, seq, message, now);
      ring.events.addLast(e);
      ring.bytes += e.cost;
      order.addLast(e);
      bytes += e.cost;
      live++;
      compactLocked();
      return ring;
    } finally {
      lock.unlock();
    }
  }

  /** The ring of one stream, made if need be. */
  private Ring ringLocked(String sessionId, String streamId) {
    return sessions
        .computeIfAbsent(sessionId, k -> new HashMap<>())
        .computeIfAbsent(streamId, k -> new Ring());
  }

  @Override
  public boolean replay(String sessionId, String streamId, long afterSeq, Replay sink) {
    Event[] copy;
    boolean complete;
    lock.lock();
    try {
      expireLocked(clock.getAsLong());
      Map<String, Ring> streams = sessions.get(sessionId);
      Ring ring = streams == null ? null : streams.get(streamId);
      if (ring == null) {
        return true;
      }
      copy = ring.events.toArray(new Event[0]);
      complete = afterSeq >= ring.forgotThrough;
    } finally {
      lock.unlock();
    }
    for (Event e : copy) {
      byte[] m = e.message;
      if (e.seq > afterSeq && m != null) {
        sink.event(e.seq, m);
      }
    }
    return complete;
  }

  @Override
  public void removeStream(String sessionId, String streamId) {
    lock.lock();
    try {
      Map<String, Ring> streams = sessions.get(sessionId);
      if (streams == null) {
        return;
      }
      Ring ring = streams.remove(streamId);
      if (ring != null) {
        ring.removed = true;
        dropAllLocked(ring);
        if (streams.isEmpty()) {
          sessions.remove(sessionId);
        }
      }
    } finally {
      lock.unlock();
    }
  }

  @Override
  public void removeSession(String sessionId) {
    lock.lock();
    try {
      Map<String, Ring> streams = sessions.remove(sessionId);
      if (streams != null) {
        for (Ring ring : streams.values()) {
          ring.removed = true;
          dropAllLocked(ring);
        }
      }
    } finally {
      lock.unlock();
    }
  }

  private void dropAllLocked(Ring ring) {
    for (Event e : ring.events) {
      dropLocked(ring, e);
    }
    ring.events.clear();
    compactLocked();
  }

  /** Forgets one event already taken off its ring. */
  private void dropLocked(Ring ring, Event e) {
    if (e.dead) {
      return;
    }
    e.dead = true;
    e.message = null;
    ring.bytes -= e.cost;
    ring.forgotThrough = Math.max(ring.forgotThrough, e.seq);
    bytes -= e.cost;
    live--;
  }

  /** Forgets every event older than the age bound; they are at the head of {@link #order}. */
  private void expireLocked(long now) {
    while (true) {
      Event head = order.peekFirst();
      if (head == null) {
        return;
      }
      if (head.dead) {
        order.removeFirst();
      } else if (now - head.storedAt >= maxAgeNanos) {
        order.removeFirst();
        head.ring.events.removeFirst();
        dropLocked(head.ring, head);
      } else {
        return;
      }
    }
  }

  /** Drops dead entries from {@link #order} once they outnumber the live ones. */
  private void compactLocked() {
    if (order.size() > 64 && order.size() - live > live) {
      order.removeIf(e -> e.dead);
    }
  }

  private static final class Event {
    final Ring ring;
    final long seq;
    final long cost;
    final long storedAt;
    byte @Nullable [] message;
    boolean dead;

    Event(Ring ring, long seq, byte[] message, long storedAt) {
      this.ring = ring;
      this.seq = seq;
      this.message = message;
      this.cost = message.length + OVERHEAD_BYTES;
      this.storedAt = storedAt;
    }
  }

  private static final class Ring {
    final ArrayDeque<Event> events = new ArrayDeque<>(4);
    long bytes;

    /** The highest sequence number this stream forgot (0: none). */
    long forgotThrough;

    /** Taken out of the store: a handle to it is looked up again (guarded by the store's lock). */
    boolean removed;
  }
}
