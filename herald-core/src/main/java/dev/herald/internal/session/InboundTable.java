package dev.herald.internal.session;

import dev.herald.wire.ProgressToken;
import dev.herald.wire.RequestId;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.util.Collection;
import java.util.concurrent.ConcurrentHashMap;
import org.jspecify.annotations.Nullable;

/**
 * The requests of one session that the peer sent and that are being handled, by id, and the
 * progress tokens they hold (MCP 2025-11-25 basic: an id is not reused while its request is
 * active; basic/utilities/progress: a token is unique among active requests). A token can outlive
 * its request's id: work detached from the request (a task) holds it until the work ends.
 *
 * <p>Thread-safe. Requests are admitted by the session's reader only; they are released by their
 * handler's thread, by the reader (a cancel) or by the session's end, and every removal is
 * conditional on the entry still being that request's, so a request that reused an id or a token
 * is never released by its predecessor.
 */
final class InboundTable {
  /** Why a request could not be admitted, or that it was. */
  enum Admission {
    ADMITTED,
    ID_IN_USE,
    LIMIT_EXCEEDED,
    TOKEN_IN_USE
  }

  private final int maxInFlight;
  // Sized small: a session has few requests in flight at once, and a table once allocated stays
  // for the session's life (heap per idle session).
  private final ConcurrentHashMap<RequestId, InboundCall> byId = new ConcurrentHashMap<>(2);
  // Made on the first request with a progress token (installed by compare-and-set).
  private volatile @Nullable ConcurrentHashMap<ProgressToken, InboundCall> byToken;

  private static final VarHandle BY_TOKEN;

  static {
    try {
      BY_TOKEN =
          MethodHandles.lookup()
              .findVarHandle(InboundTable.class, "byToken", ConcurrentHashMap.class);
    } catch (ReflectiveOperationException e) {
      throw new ExceptionInInitializerError(e);
    }
  }

  InboundTable(int maxInFlight) {
    this.maxInFlight = maxInFlight;
  }

  @SuppressWarnings("unchecked")
  private ConcurrentHashMap<ProgressToken, InboundCall> tokens() {
    ConcurrentHashMap<ProgressToken, InboundCall> m = byToken;
    if (m != null) {
      return m;
    }
    ConcurrentHashMap<ProgressToken, InboundCall> made = new ConcurrentHashMap<>(2);
    var won =
        (ConcurrentHashMap<ProgressToken, InboundCall>)
            BY_TOKEN.compareAndExchange(this, null, made);
    return won == null ? made : won;
  }

  /** What a request with this id would meet before its params are read: its id or the limit. */
  Admission check(RequestId id) {
    if (byId.containsKey(id)) {
      return Admission.ID_IN_USE;
    }
    if (byId.size() >= maxInFlight) {
      return Admission.LIMIT_EXCEEDED;
    }
    return Admission.ADMITTED;
  }

  /**
   * Admits a request that passed {@link #check}: takes its progress token, then its id. {@link
   * Admission#TOKEN_IN_USE} when another active request (or detached work) holds the token.
   */
  Admission admit(InboundCall call) {
    ProgressToken token = call.progressToken();
    if (token != null && tokens().putIfAbsent(token, call) != null) {
      return Admission.TOKEN_IN_USE;
    }
    byId.put(call.id(), call);
    return Admission.ADMITTED;
  }

  @Nullable InboundCall get(RequestId id) {
    return byId.get(id);
  }

  /** Frees the request's id, if it still holds it. */
  void releaseId(InboundCall call) {
    byId.remove(call.id(), call);
  }

  /** Frees the request's progress token, if it still holds it. */
  void releaseToken(InboundCall call) {
    ProgressToken token = call.progressToken();
    var m = byToken;
    if (token != null && m != null) {
      m.remove(token, call);
    }
  }

  /** The requests in flight (a weakly consistent view). */
  Collection<InboundCall> calls() {
    return byId.values();
  }

  int size() {
    return byId.size();
  }

  /** Whether a request or detached work holds the token. */
  boolean tokenHeld(ProgressToken token) {
    var m = byToken;
    return m != null && m.containsKey(token);
  }
}
