package dev.herald.http;

import java.time.Duration;

/**
 * Keeps recent SSE events per stream so that a client that lost a stream can resume it with
 * {@code Last-Event-ID} (spec 2025-11-25, basic/transports, "Resumability and Redelivery").
 *
 * <p>The server names every event {@code <streamId>_<seq>}: {@code streamId} is unique within
 * its session, and {@code seq} grows with every event of that stream (with gaps where an event
 * was not stored, such as a priming event). The store only keeps and returns events; it never
 * decides where they go. Replay is per stream: events of one stream are never returned for
 * another, so a resumed stream never carries another stream's messages.
 *
 * <p>Implementations must be thread-safe. For one stream, the server calls {@link #append} in
 * sequence order and never concurrently with another call for that stream; calls for different
 * streams and sessions may run at once. Implementations should be bounded, in bytes and in age
 * as well as in count, per stream and for the whole server, since one client decides how large
 * the messages it causes are: the default, {@link #inMemory(int, long, long, Duration)}, forgets
 * the oldest events first. A client resuming from an event after which something was forgotten
 * is refused like one naming an unknown event (the server cannot redeliver what it no longer
 * has, and the specification lets it answer a resumption it cannot serve with an error).
 *
 * {@snippet :
 * McpHttpServer http = McpHttpServer.builder()
 *     .server(server)
 *     .eventStore(EventStore.inMemory(256))
 *     .build();
 * }
 */
public interface EventStore {

  /**
   * Stores one event.
   *
   * @param sessionId the session the stream belongs to
   * @param streamId the stream, unique within its session
   * @param seq the event's sequence number in its stream, greater than any before it
   * @param message the JSON-RPC message, UTF-8 JSON as sent; the store must not modify it
   */
  void append(String sessionId, String streamId, long seq, byte[] message);

  /**
   * Calls {@code sink} with every kept event of one stream whose sequence number is greater
   * than {@code afterSeq}, oldest first. Does nothing for a stream it does not know.
   *
   * @return false if an event of this stream with a sequence number greater than {@code
   *     afterSeq} was stored and has since been forgotten (the replay has a gap); true otherwise
   */
  boolean replay(String sessionId, String streamId, long afterSeq, Replay sink);

  /** Forgets one stream's events. */
  void removeStream(String sessionId, String streamId);

  /** Forgets every stream of a session (the session ended). */
  void removeSession(String sessionId);

  /** Receives replayed events. */
  @FunctionalInterface
  interface Replay {
    void event(long seq, byte[] message);
  }

  /** The default bound on each stream's kept events, in bytes: 1 MiB. */
  long DEFAULT_BYTES_PER_STREAM = 1024L * 1024;

  /** The default bound on all kept events of a store, in bytes: 64 MiB. */
  long DEFAULT_BYTES_PER_SERVER = 64L * 1024 * 1024;

  /** The default bound on a kept event's age: 5 minutes. */
  Duration DEFAULT_MAX_AGE = Duration.ofMinutes(5);

  /**
   * A store in this process's memory that keeps at most the last {@code eventsPerStream} events
   * of each stream, within the default byte and age bounds ({@link #DEFAULT_BYTES_PER_STREAM},
   * {@link #DEFAULT_BYTES_PER_SERVER}, {@link #DEFAULT_MAX_AGE}).
   *
   * @throws IllegalArgumentException if {@code eventsPerStream} is less than 1
   */
  static EventStore inMemory(int eventsPerStream) {
    return inMemory(
        eventsPerStream, DEFAULT_BYTES_PER_STREAM, DEFAULT_BYTES_PER_SERVER, DEFAULT_MAX_AGE);
  }

  /**
   * A store in this process's memory, bounded four ways, oldest events forgotten first: at most
   * {@code eventsPerStream} events and {@code bytesPerStream} bytes per stream, {@code
   * bytesPerStore} bytes for all streams of all sessions together, and no event older than {@code
   * maxAge}. Bytes count each message plus a small fixed overhead per event; an event larger than
   * a byte bound is not kept at all (the connection that is open still receives it).
   *
   * @throws NullPointerException if {@code maxAge} is null
   * @throws IllegalArgumentException if a bound is not positive
   */
  static EventStore inMemory(
      int eventsPerStream, long bytesPerStream, long bytesPerStore, Duration maxAge) {
    return new InMemoryEventStore(
        eventsPerStream,
        bytesPerStream,
        bytesPerStore,
        java.util.Objects.requireNonNull(maxAge, "maxAge"),
        System::nanoTime);
  }
}
