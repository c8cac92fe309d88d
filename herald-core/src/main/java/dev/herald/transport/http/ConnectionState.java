package dev.herald.transport.http;

import dev.herald.transport.TransportException;
import dev.herald.wire.RequestId;
import org.jspecify.annotations.Nullable;

/**
 * Where a {@link StreamableHttpClientTransport} stands with its server: one immutable value per
 * state, held by a {@link ConnectionStateMachine} that alone replaces it.
 *
 * <p>Design note (MCP 2025-11-25 basic/transports §Streamable HTTP and §Backwards Compatibility).
 * A transport starts {@link Unstarted}, is {@link Idle} once it has a receiver (or {@link Modern}
 * when the client chose the 2026-07-28 binding, before or after starting), and learns which
 * transport the server speaks from its first message: {@code initialize} goes out as a probe
 * ({@link Probing}; every other sender waits) and its answer routes the connection to {@link
 * Streamable} (any success or an ordinary error) or to {@link Legacy} (400, 404 or 405: the
 * 2024-11-05 HTTP+SSE transport, by way of {@link FallingBack} while {@code initialize} is posted
 * again to the old transport's endpoint). A first message that is not {@code initialize} routes to {@link
 * Streamable} at once. A probe that cannot even be sent leaves the transport {@link Unreachable}.
 * Every state may end in {@link Closed}, which remembers the state it ended from (its session id
 * still goes on the {@code DELETE}). The allowed moves are {@link #allows(ConnectionState)}; any
 * other is a bug and is refused.
 */
sealed interface ConnectionState {

  /** Whether moving from this state to {@code next} is a legal transition. */
  boolean allows(ConnectionState next);

  /** The state that carries the session facts: this one, or the one a {@link Closed} ended from. */
  default ConnectionState live() {
    return this;
  }

  /** No receiver yet. */
  record Unstarted() implements ConnectionState {
    @Override
    public boolean allows(ConnectionState next) {
      return next instanceof Idle || next instanceof Modern || next instanceof Closed;
    }
  }

  /** Started; nothing sent yet. */
  record Idle() implements ConnectionState {
    @Override
    public boolean allows(ConnectionState next) {
      return next instanceof Probing
          || next instanceof Streamable
          || next instanceof Modern
          || next instanceof Closed;
    }
  }

  /**
   * The 2026-07-28 binding (MCP 2026-07-28 basic/transports/streamable-http): every message its
   * own {@code POST} with the request metadata headers, no session, no {@code GET}, no {@code
   * DELETE}, no resumption. {@code version} goes in {@code MCP-Protocol-Version} when a body names
   * none. The client may still fall back to the handshake ({@link Idle}) while it negotiates.
   */
  record Modern(dev.herald.wire.ProtocolVersion version) implements ConnectionState {
    @Override
    public boolean allows(ConnectionState next) {
      return next instanceof Modern || next instanceof Idle || next instanceof Closed;
    }
  }

  /** The initialize request is out; other senders wait to learn which transport the server speaks. */
  record Probing(RequestId initializeId) implements ConnectionState {
    @Override
    public boolean allows(ConnectionState next) {
      return next instanceof Streamable
          || next instanceof FallingBack
          || next instanceof Unreachable
          || next instanceof Closed;
    }
  }

  /**
   * The probe was refused and {@code connection}'s HTTP+SSE stream is open; {@code initialize} is
   * being posted to its endpoint, and other senders still wait so that it goes first.
   */
  record FallingBack(LegacySseConnection connection, SessionFacts session)
      implements ConnectionState {
    @Override
    public boolean allows(ConnectionState next) {
      return switch (next) {
        case FallingBack f -> f.connection == connection && session.allows(f.session);
        case Legacy l -> l.connection() == connection && session.allows(l.session());
        case Closed c -> true;
        default -> false;
      };
    }
  }

  /** The probe could not be sent: every later message fails with the same {@code failure}. */
  record Unreachable(TransportException failure) implements ConnectionState {
    @Override
    public boolean allows(ConnectionState next) {
      return next instanceof Closed;
    }
  }

  /** Streamable HTTP: every message its own {@code POST}; {@code standing} tracks the standing GET. */
  record Streamable(SessionFacts session, Standing standing) implements ConnectionState {
    @Override
    public boolean allows(ConnectionState next) {
      return switch (next) {
        case Streamable s -> session.allows(s.session) && standing.allows(s.standing);
        case Closed c -> true;
        default -> false;
      };
    }

    Streamable with(Standing next) {
      return new Streamable(session, next);
    }
  }

  /** The 2024-11-05 HTTP+SSE transport: one {@code GET} stream, messages posted to its endpoint. */
  record Legacy(LegacySseConnection connection, SessionFacts session) implements ConnectionState {
    @Override
    public boolean allows(ConnectionState next) {
      return switch (next) {
        case Legacy l -> l.connection == connection && session.allows(l.session);
        case Closed c -> true;
        default -> false;
      };
    }
  }

  /** Closed by the host ({@code cause} null) or ended by a failure; nothing leaves this state. */
  record Closed(ConnectionState last, @Nullable Throwable cause) implements ConnectionState {
    @Override
    public boolean allows(ConnectionState next) {
      return false;
    }

    @Override
    public ConnectionState live() {
      return last;
    }
  }

  /**
   * What the connection learned about its session: the {@code Mcp-Session-Id} the server issued
   * (fixed once routed), the {@code MCP-Protocol-Version} to send (learned from the result of the
   * initialize request), and the id of an initialize request whose result has yet to pass
   * through.
   */
  record SessionFacts(
      @Nullable String id, @Nullable String protocolVersion, @Nullable RequestId initializeId) {
    static SessionFacts none() {
      return new SessionFacts(null, null, null);
    }

    /** The session id never changes once routed. */
    boolean allows(SessionFacts next) {
      return java.util.Objects.equals(id, next.id);
    }

    SessionFacts awaitingInitialize(RequestId initialize) {
      return new SessionFacts(id, protocolVersion, initialize);
    }

    /** The {@code initialize} result passed through, naming {@code version} (null: no header). */
    SessionFacts initialized(@Nullable String version) {
      return new SessionFacts(id, version == null ? protocolVersion : version, null);
    }
  }

  /**
   * The standing {@code GET} stream's readiness, as far as senders care: messages sent after
   * {@code notifications/initialized} wait (briefly, once) while it is {@link #AWAITED} or {@link
   * #OPENING}, so a server never mistakes the standing {@code GET} for the resumption of a call's
   * stream.
   */
  enum Standing {
    /** {@code notifications/initialized} not sent yet: nothing to wait for. */
    UNREQUESTED,
    /** {@code notifications/initialized} sent, the {@code GET} not opened yet: senders wait. */
    AWAITED,
    /** The {@code GET} is out and unanswered: senders wait. */
    OPENING,
    /** Senders stopped waiting before the {@code GET} was opened; it may still be opened. */
    WAIVED,
    /** Answered, refused, turned off or given up on: nothing to wait for, nothing more to open. */
    SETTLED;

    boolean allows(Standing next) {
      return next == this
          || switch (this) {
            case UNREQUESTED -> next == AWAITED || next == SETTLED;
            case AWAITED -> next == OPENING || next == WAIVED || next == SETTLED;
            case OPENING, WAIVED -> next == SETTLED;
            case SETTLED -> false;
          };
    }

    /** Whether a sender should wait for the standing stream now. */
    boolean awaited() {
      return this == AWAITED || this == OPENING;
    }
  }
}
