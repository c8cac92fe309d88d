package dev.herald.transport.http;

import dev.herald.transport.TransportException;
import dev.herald.transport.http.ConnectionState.Closed;
import dev.herald.transport.http.ConnectionState.FallingBack;
import dev.herald.transport.http.ConnectionState.Idle;
import dev.herald.transport.http.ConnectionState.Legacy;
import dev.herald.transport.http.ConnectionState.Modern;
import dev.herald.transport.http.ConnectionState.Probing;
import dev.herald.transport.http.ConnectionState.SessionFacts;
import dev.herald.transport.http.ConnectionState.Standing;
import dev.herald.transport.http.ConnectionState.Streamable;
import dev.herald.transport.http.ConnectionState.Unreachable;
import dev.herald.transport.http.ConnectionState.Unstarted;
import dev.herald.wire.ProtocolVersion;
import dev.herald.wire.RequestId;
import java.net.URI;
import java.time.Duration;
import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.ReentrantLock;
import java.util.function.Function;
import org.jspecify.annotations.Nullable;

/**
 * The one holder of a transport's {@link ConnectionState}: every event is a rule from the current
 * state to the next, applied by {@link #move} alone, under one lock.
 *
 * <p>Design note. A rule that returns the state it was given ignores the event (an event that
 * races with closing, or one already applied); any other result must be allowed by {@link
 * ConnectionState#allows}, or the event is refused with {@link IllegalStateException}, a bug in the
 * transport. Each change is logged at {@code DEBUG} and wakes the senders that wait for the probe
 * to be answered ({@link #awaitRoute}) or for the standing stream ({@link #awaitStanding}). No I/O
 * ever runs under the lock; waiting releases it.
 */
final class ConnectionStateMachine {
  private final URI uri;
  private final ReentrantLock lock = new ReentrantLock();
  private final Condition changed = lock.newCondition();

  /** Written only by {@link #move}, under {@link #lock}; read anywhere. */
  private volatile ConnectionState state = new Unstarted();

  /** @param uri the endpoint, for log lines and errors */
  ConnectionStateMachine(URI uri) {
    this.uri = uri;
  }

  ConnectionState state() {
    return state;
  }

  boolean isClosed() {
    return state instanceof Closed;
  }

  /** The session facts of the current (or, once closed, the last) state, if routed. */
  SessionFacts session() {
    return switch (state.live()) {
      case Streamable s -> s.session();
      case Legacy l -> l.session();
      case FallingBack f -> f.session();
      default -> SessionFacts.none();
    };
  }

  // ---------------------------------------------------------------- the one place the state
  // changes

  /**
   * Applies {@code rule} to the current state, under the lock. The rule returns the next state,
   * the state it was given to ignore the event, or null to refuse it.
   *
   * @return the state after the event (the same one when the rule ignored it)
   * @throws IllegalStateException when the rule refuses the event or names a move the current
   *     state does not allow
   */
  ConnectionState move(String event, Function<ConnectionState, @Nullable ConnectionState> rule) {
    lock.lock();
    try {
      ConnectionState from = state;
      ConnectionState to = rule.apply(from);
      if (isSameState(to, from)) {
        return from;
      }
      if (to == null || !from.allows(to)) {
        throw new IllegalStateException(
            "HTTP transport to " + uri + ": " + event + " is not allowed in state " + from);
      }
      state = to;
      StreamableHttpClientTransport.LOG.log(
          System.Logger.Level.DEBUG,
          "HTTP transport to {0}: {1}: {2} -> {3}",
          uri,
          event,
          from,
          to);
      changed.signalAll();
      return to;
    } finally {
      lock.unlock();
    }
  }

  // ---------------------------------------------------------------- events

  /** The transport got its receiver. */
  void start() {
    // Modern before start (the client chose the 2026-07-28 binding first) stays Modern.
    move(
        "start",
        s ->
            switch (s) {
              case Unstarted u -> new Idle();
              case Modern m -> m;
              default -> null;
            });
  }

  /**
   * The client chose the 2026-07-28 binding for {@code version}: allowed before anything was sent
   * the handshake way, and again to change the version.
   *
   * @throws IllegalStateException once the connection was routed the handshake way, or closed
   */
  void modern(ProtocolVersion version) {
    move(
        "modern " + version.wire(),
        s ->
            switch (s) {
              case Unstarted u -> new Modern(version);
              case Idle i -> new Modern(version);
              case Modern m -> m.version() == version ? m : new Modern(version);
              default -> null;
            });
  }

  /**
   * The client falls back to the handshake after a modern attempt: the next {@code initialize}
   * probes as if nothing had been sent.
   *
   * @throws IllegalStateException once the connection was routed the handshake way, or closed
   */
  void handshake() {
    move(
        "handshake",
        s ->
            switch (s) {
              case Modern m -> new Idle();
              case Idle i -> i;
              default -> null;
            });
  }

  /** The 2026-07-28 binding, or null when the connection is not (or no longer) in it. */
  @Nullable Modern modernState() {
    return state instanceof Modern m ? m : null;
  }

  /**
   * An {@code initialize} is about to go out: the first message probes which transport the server
   * speaks; a later one only marks its result as the one to learn the protocol version from.
   *
   * @return whether this {@code initialize} is the probe
   */
  boolean initializeSending(RequestId id) {
    ConnectionState after =
        move(
            "initialize sent",
            s ->
                switch (s) {
                  case Idle i -> new Probing(id);
                  case Streamable st ->
                      new Streamable(st.session().awaitingInitialize(id), st.standing());
                  case Legacy l -> new Legacy(l.connection(), l.session().awaitingInitialize(id));
                  case FallingBack f ->
                      new FallingBack(f.connection(), f.session().awaitingInitialize(id));
                  default -> s;
                });
    return after instanceof Probing p && p.initializeId().equals(id);
  }

  /** A first message that is not {@code initialize}: no fallback to try. */
  void messageSending() {
    move(
        "first message sent",
        s -> s instanceof Idle ? new Streamable(SessionFacts.none(), Standing.UNREQUESTED) : s);
  }

  /** The probe could not be sent at all. */
  void probeUnreachable(TransportException failure) {
    move("initialize unreachable", s -> s instanceof Probing ? new Unreachable(failure) : s);
  }

  /**
   * The server answered the probe as a Streamable HTTP server, issuing {@code sessionId}.
   *
   * @return false when the transport closed meanwhile
   */
  boolean probeAnswered(@Nullable String sessionId) {
    return move(
            "initialize answered",
            s ->
                switch (s) {
                  case Probing p ->
                      new Streamable(
                          new SessionFacts(sessionId, null, p.initializeId()),
                          Standing.UNREQUESTED);
                  case Closed c -> c;
                  default -> null;
                })
        instanceof Streamable;
  }

  /**
   * The probe was refused and {@code connection}'s HTTP+SSE stream is open; {@code initialize} is
   * to be posted there before anything else.
   *
   * @return false when the transport closed meanwhile
   */
  boolean fallingBack(LegacySseConnection connection) {
    return move(
            "falling back to HTTP+SSE",
            s ->
                switch (s) {
                  case Probing p ->
                      new FallingBack(connection, new SessionFacts(null, null, p.initializeId()));
                  case Closed c -> c;
                  default -> null;
                })
        instanceof FallingBack;
  }

  /** {@code initialize} went to the HTTP+SSE endpoint: other senders may follow. */
  void fellBack() {
    move(
        "fell back to HTTP+SSE",
        s -> s instanceof FallingBack f ? new Legacy(f.connection(), f.session()) : s);
  }

  /** {@code notifications/initialized} is about to go out; {@code wanted}: open the standing GET. */
  void initializedSending(boolean wanted) {
    move(
        "initialized sent",
        s ->
            s instanceof Streamable st && st.standing() == Standing.UNREQUESTED
                ? st.with(wanted ? Standing.AWAITED : Standing.SETTLED)
                : s);
  }

  /**
   * The server accepted {@code notifications/initialized}: claims the opening of the standing
   * {@code GET} when one is wanted and none was opened, else settles the wait for it.
   *
   * @return whether the caller opens the standing {@code GET}
   */
  boolean initializedAccepted() {
    boolean[] open = new boolean[1];
    move(
        "initialized accepted",
        s -> {
          if (!(s instanceof Streamable st)) {
            return s;
          }
          return switch (st.standing()) {
            case AWAITED -> {
              open[0] = true;
              yield st.with(Standing.OPENING);
            }
            case WAIVED -> {
              open[0] = true; // opened late: nobody waits for it any more
              yield st.with(Standing.SETTLED);
            }
            case OPENING -> st.with(Standing.SETTLED);
            case UNREQUESTED, SETTLED -> st;
          };
        });
    return open[0];
  }

  /** The standing {@code GET} was answered or failed: later senders need not wait. */
  void standingSettled() {
    move(
        "standing stream settled",
        s ->
            s instanceof Streamable st
                    && st.standing() != Standing.SETTLED
                    && st.standing() != Standing.UNREQUESTED
                ? st.with(Standing.SETTLED)
                : s);
  }

  /** The {@code initialize} result with {@code id} passed through, naming {@code version} (may be null). */
  void initializeAnswered(RequestId id, @Nullable String version) {
    move(
        "initialize result",
        s ->
            switch (s) {
              case Streamable st when id.equals(st.session().initializeId()) ->
                  new Streamable(st.session().initialized(version), st.standing());
              case Legacy l when id.equals(l.session().initializeId()) ->
                  new Legacy(l.connection(), l.session().initialized(version));
              case FallingBack f when id.equals(f.session().initializeId()) ->
                  new FallingBack(f.connection(), f.session().initialized(version));
              default -> s;
            });
  }

  /**
   * Ends the connection.
   *
   * @return the state it ended from, or null when it was already closed
   */
  @Nullable ConnectionState close(@Nullable Throwable cause) {
    ConnectionState[] from = new ConnectionState[1];
    move(
        cause == null ? "close" : "fail",
        s -> {
          from[0] = s;
          return s instanceof Closed ? s : new Closed(s, cause);
        });
    return from[0] instanceof Closed ? null : from[0];
  }

  // ---------------------------------------------------------------- waits

  /**
   * Waits while the probe is out.
   *
   * @return the state the connection was routed to
   * @throws TransportException when the probe failed or the transport closed
   */
  @SuppressWarnings("ReferenceEquality") // a rule returns the very state it got to say "no change"
  private static boolean isSameState(@Nullable ConnectionState to, ConnectionState from) {
    return to == from;
  }

  ConnectionState awaitRoute() {
    ConnectionState s;
    lock.lock();
    try {
      s = state;
      while (s instanceof Probing || s instanceof FallingBack) {
        changed.await();
        s = state;
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new TransportException(
          "interrupted while waiting for " + uri + " to answer initialize", e);
    } finally {
      lock.unlock();
    }
    return switch (s) {
      case Unreachable u -> throw u.failure();
      case Closed c when c.last() instanceof Unreachable u -> throw u.failure();
      case Closed c
          when (c.last() instanceof Probing || c.last() instanceof FallingBack)
              && c.cause() != null ->
          throw c.cause() instanceof TransportException te ? te : Http.unreachable(uri, c.cause());
      case Closed c -> throw closedException();
      default -> s;
    };
  }

  /**
   * Waits, at most {@code limit}, while the standing stream is awaited; when the limit passes, no
   * sender waits for it again.
   */
  void awaitStanding(Duration limit) {
    if (!standingAwaited()) {
      return;
    }
    long nanos = limit.toNanos();
    lock.lock();
    try {
      while (standingAwaited()) {
        if (nanos <= 0) {
          move(
              "standing stream wait timed out",
              s ->
                  s instanceof Streamable w
                      ? w.with(
                          w.standing() == Standing.AWAITED ? Standing.WAIVED : Standing.SETTLED)
                      : s);
          return;
        }
        nanos = changed.awaitNanos(nanos);
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new TransportException(
          "interrupted while waiting for the standing stream of " + uri, e);
    } finally {
      lock.unlock();
    }
  }

  private boolean standingAwaited() {
    return state instanceof Streamable st && st.standing().awaited();
  }

  /** The failure a sender gets on a closed transport. */
  TransportException closedException() {
    return new TransportException("HTTP transport to " + uri + " is closed");
  }
}
