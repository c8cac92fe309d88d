package dev.herald.http.internal;

import java.util.List;
import java.util.Map;

/**
 * An {@link dev.herald.http.EventStore} that can store many events of different streams in one go
 * (a shared store, where each append is a round trip): a server-wide fan-out then stores the events
 * of all the sessions it tells together, instead of one after the other (docs/scale-out.md,
 * "Fan-out: exactly once per session").
 *
 * <p>The guarantees are those of {@code append}: each event is stored before it is written to its
 * client, the events of one stream in sequence order, and a stream is never appended to by two
 * calls at once (the server holds a stream's other writers until its batched events are stored).
 */
public interface BatchAppends {
  /** One event to store; {@code message} is the bytes as sent, never modified. */
  @SuppressWarnings(
      "ArrayRecordComponent") // the message's bytes, shared, as EventStore.append takes them
  record Event(String sessionId, String streamId, long seq, byte[] message) {}

  /** Whether to batch (false: each event goes through {@code append} on its own). */
  boolean batching();

  /**
   * Stores {@code events}, in order (those of one stream in sequence order), in as few round trips
   * as it can. Never throws: an event that could not be stored is in the answer, by its index, with
   * the reason; the others are stored.
   */
  Map<Integer, RuntimeException> appendAll(List<Event> events);
}
