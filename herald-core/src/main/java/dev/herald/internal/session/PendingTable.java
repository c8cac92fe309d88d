package dev.herald.internal.session;

import dev.herald.wire.RequestId;
import java.util.Collection;
import java.util.concurrent.ConcurrentHashMap;
import org.jspecify.annotations.Nullable;

/**
 * This side's requests waiting for their responses, by id. An entry leaves the table before its
 * call ends, whichever way it ends: the response that {@link #take takes} it, or a local cancel or
 * timeout that {@link #release releases} it. A call ends once ({@link PendingCall#finish}); the loser
 * of a race between a response and a local end finds no entry or loses the finish, and the
 * response is reported as ignored (MCP 2025-11-25 basic/utilities/cancellation: a response after
 * a cancellation may arrive and is ignored).
 *
 * <p>Thread-safe.
 */
final class PendingTable {
  private final ConcurrentHashMap<RequestId, PendingCall> calls = new ConcurrentHashMap<>();

  /** Registers a call that is about to be sent. */
  void add(PendingCall call) {
    calls.put(call.id(), call);
  }

  /** The call a response with {@code id} answers, taken out of the table; null if none. */
  @Nullable PendingCall take(RequestId id) {
    return calls.remove(id);
  }

  /** Frees a call's entry (it ended locally); leaves the id alone if another call holds it now. */
  void release(PendingCall call) {
    calls.remove(call.id(), call);
  }

  /** Whether a call holds {@code id} now (unlike {@link #size}, exact at once). */
  boolean holds(RequestId id) {
    return calls.containsKey(id);
  }

  /** The calls waiting now (a weakly consistent view). */
  Collection<PendingCall> calls() {
    return calls.values();
  }

  /** Whether no call waits now. */
  boolean isEmpty() {
    return calls.isEmpty();
  }

  int size() {
    return calls.size();
  }
}
