package dev.herald.http;

import java.util.ArrayDeque;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.locks.ReentrantLock;

/**
 * The default {@link EventStore}: per stream, a ring of the last {@code capacity} events, grown
 * on demand so an idle stream costs a few objects. Sessions map to their streams so a session's
 * end frees everything at once.
 *
 * <p>Each ring is guarded by its own lock; the maps are concurrent.
 */
final class InMemoryEventStore implements EventStore {
  private final int capacity;
  private final ConcurrentHashMap<String, ConcurrentHashMap<String, Ring>> sessions = new ConcurrentHashMap<>();

  InMemoryEventStore(int capacity) {
    if (capacity < 1) {
      throw new IllegalArgumentException("eventsPerStream must be at least 1, was " + capacity);
    }
    this.capacity = capacity;
  }

  @Override
  public void append(String sessionId, String streamId, long seq, byte[] message) {
    Ring ring =
        sessions
            .computeIfAbsent(sessionId, k -> new ConcurrentHashMap<>())
            .computeIfAbsent(streamId, k -> new Ring());
    ring.lock.lock();
    try {
      if (ring.events.size() == capacity) {
        ring.events.removeFirst();
      }
      ring.events.addLast(new Event(seq, message));
    } finally {
      ring.lock.unlock();
    }
  }

  @Override
  public void replay(String sessionId, String streamId, long afterSeq, Replay sink) {
    Map<String, Ring> streams = sessions.get(sessionId);
    Ring ring = streams == null ? null : streams.get(streamId);
    if (ring == null) {
      return;
    }
    Event[] copy;
    ring.lock.lock();
    try {
      copy = ring.events.toArray(new Event[0]);
    } finally {
      ring.lock.unlock();
    }
    for (Event e : copy) {
      if (e.seq > afterSeq) {
        sink.event(e.seq, e.message);
      }
    }
  }

  @Override
  public void removeStream(String sessionId, String streamId) {
    Map<String, Ring> streams = sessions.get(sessionId);
    if (streams != null) {
      streams.remove(streamId);
    }
  }

  @Override
  public void removeSession(String sessionId) {
    sessions.remove(sessionId);
  }

  @SuppressWarnings("ArrayRecordComponent") // encoded once, stored, sent; never compared
  private record Event(long seq, byte[] message) {}

  private static final class Ring {
    final ReentrantLock lock = new ReentrantLock();
    final ArrayDeque<Event> events = new ArrayDeque<>(4);
  }
}
