package dev.herald.internal.session;

import dev.herald.wire.RequestId;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.util.Collection;
import java.util.List;
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
 * <p>Thread-safe. The map is made on the first call (installed by compare-and-set): many sessions
 * never send a request, and an idle session is kept small.
 */
final class PendingTable {
  private volatile @Nullable ConcurrentHashMap<RequestId, PendingCall> calls;

  private static final VarHandle CALLS;

  static {
    try {
      CALLS =
          MethodHandles.lookup()
              .findVarHandle(PendingTable.class, "calls", ConcurrentHashMap.class);
    } catch (ReflectiveOperationException e) {
      throw new ExceptionInInitializerError(e);
    }
  }

  @SuppressWarnings("unchecked")
  private ConcurrentHashMap<RequestId, PendingCall> map() {
    ConcurrentHashMap<RequestId, PendingCall> m = calls;
    if (m != null) {
      return m;
    }
    ConcurrentHashMap<RequestId, PendingCall> made = new ConcurrentHashMap<>(2);
    var won =
        (ConcurrentHashMap<RequestId, PendingCall>) CALLS.compareAndExchange(this, null, made);
    return won == null ? made : won;
  }

  /** Registers a call that is about to be sent. */
  void add(PendingCall call) {
    map().put(call.id(), call);
  }

  /** The call a response with {@code id} answers, taken out of the table; null if none. */
  @Nullable PendingCall take(RequestId id) {
    var m = calls;
    return m == null ? null : m.remove(id);
  }

  /** Frees a call's entry (it ended locally); leaves the id alone if another call holds it now. */
  void release(PendingCall call) {
    var m = calls;
    if (m != null) {
      m.remove(call.id(), call);
    }
  }

  /** Whether a call holds {@code id} now (unlike {@link #size}, exact at once). */
  boolean holds(RequestId id) {
    var m = calls;
    return m != null && m.containsKey(id);
  }

  /** The calls waiting now (a weakly consistent view). */
  Collection<PendingCall> calls() {
    var m = calls;
    return m == null ? List.of() : m.values();
  }

  /** Whether no call waits now. */
  boolean isEmpty() {
    var m = calls;
    return m == null || m.isEmpty();
  }

  int size() {
    var m = calls;
    return m == null ? 0 : m.size();
  }
}
