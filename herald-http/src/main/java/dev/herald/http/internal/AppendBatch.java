package dev.herald.http.internal;

import dev.herald.http.EventStore;
import dev.herald.internal.server.FanOut;
import java.lang.System.Logger.Level;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.jspecify.annotations.Nullable;

/**
 * The standing-stream events of one server-wide fan-out, held back and stored together (docs/scale-out.md,
 * "Fan-out: exactly once per session"): each stream numbers its event and waits for the batch
 * ({@link SseStream#publish}); the batch stores up to {@link #CHUNK} events in one call to the store
 * and then has each stream write its event ({@link SseStream#stored}), in order. The first call
 * holds only {@link #FIRST} events, so the first sessions hear of the change soon. Only the thread
 * running the fan-out touches it.
 */
final class AppendBatch implements FanOut.Batch {
  private static final System.Logger LOG = System.getLogger("dev.herald.http");

  /** Events stored per call at most: bounds the batch's memory and the wait of its last stream. */
  static final int CHUNK = 256;

  /**
   * Events in the first call: small, so the first sessions of a fan-out do not wait for a whole
   * chunk of scripts; each later call holds four times as many, up to {@link #CHUNK}.
   */
  static final int FIRST = 16;

  private final BatchAppends store;
  private final List<SseStream> streams = new ArrayList<>();
  private final List<BatchAppends.Event> events = new ArrayList<>();

  /** How many events the next call stores: {@link #FIRST}, then growing to {@link #CHUNK}. */
  private int limit = FIRST;

  private AppendBatch(BatchAppends store) {
    this.store = store;
  }

  /**
   * The batch of the fan-out running on this thread for {@code store}, or null when none runs or
   * the store does not batch (then each event is stored on its own, as on a single node).
   */
  static @Nullable AppendBatch current(EventStore store) {
    FanOut f = FanOut.current();
    if (f == null || !(store instanceof BatchAppends b) || !b.batching()) {
      return null;
    }
    return f.batch(store, () -> new AppendBatch(b));
  }

  /** Holds event {@code seq} of {@code stream} (called under the stream's lock). */
  void add(SseStream stream, String sessionId, long seq, byte[] json) {
    streams.add(stream);
    events.add(new BatchAppends.Event(sessionId, stream.id, seq, json));
  }

  /** Stores what it holds once this call's share is full (called with no stream lock held). */
  void finishIfFull() {
    if (events.size() >= limit) {
      limit = Math.min(CHUNK, limit * 4);
      finish();
    }
  }

  @Override
  public void finish() {
    if (events.isEmpty()) {
      return;
    }
    List<SseStream> ss = List.copyOf(streams);
    List<BatchAppends.Event> es = List.copyOf(events);
    streams.clear();
    events.clear();
    Map<Integer, RuntimeException> failed;
    try {
      failed = store.appendAll(es);
    } catch (RuntimeException e) { // not expected: the store reports failures in its answer
      failed = new java.util.HashMap<>();
      for (int i = 0; i < es.size(); i++) {
        failed.put(i, e);
      }
    }
    for (int i = 0; i < es.size(); i++) {
      BatchAppends.Event e = es.get(i);
      try {
        ss.get(i).stored(e.seq(), e.message(), failed.get(i));
      } catch (RuntimeException x) {
        LOG.log(
            Level.WARNING, "[{0}] a fan-out event not written: {1}", e.sessionId(), x.toString());
      }
    }
  }
}
