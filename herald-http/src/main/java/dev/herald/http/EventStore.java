package dev.herald.http;

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
 * streams and sessions may run at once. Implementations should be bounded: the default, {@link
 * #inMemory(int)}, keeps the last {@code n} events of each stream and forgets older ones (a
 * client resuming from a forgotten event receives what is still kept).
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
   */
  void replay(String sessionId, String streamId, long afterSeq, Replay sink);

  /** Forgets one stream's events. */
  void removeStream(String sessionId, String streamId);

  /** Forgets every stream of a session (the session ended). */
  void removeSession(String sessionId);

  /** Receives replayed events. */
  @FunctionalInterface
  interface Replay {
    void event(long seq, byte[] message);
  }

  /**
   * A store in this process's memory that keeps the last {@code eventsPerStream} events of each
   * stream.
   *
   * @throws IllegalArgumentException if {@code eventsPerStream} is less than 1
   */
  static EventStore inMemory(int eventsPerStream) {
    return new InMemoryEventStore(eventsPerStream);
  }
}
