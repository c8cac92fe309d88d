package dev.herald.session;

import dev.herald.wire.McpMethods;
import dev.herald.wire.RequestId;
import dev.herald.wire.TaskStatus;
import java.time.Duration;
import java.util.Objects;
import org.jspecify.annotations.Nullable;

/**
 * Observes one MCP session: what it opened and closed, the requests it handled, the notifications
 * it sent, held back or dropped, the progress it accepted or refused, and (on Streamable HTTP) the
 * SSE streams that carried it. Counters, metrics and traces are implementations of this
 * interface; {@link CountingEventListener} is Herald's own.
 *
 * <p>Every method has an empty default, so an implementation overrides only what it needs, and
 * new callbacks never break it. The vocabulary follows the MCP specification: notification
 * families are its {@code notifications/*} methods (basic/utilities/progress,
 * basic/utilities/cancellation, server/utilities/logging, server/tools, server/resources,
 * server/prompts, client/roots); the gates are its capability negotiation (basic/lifecycle) and
 * the logging level ({@code logging/setLevel}).
 *
 * <p><b>Contract.</b> Herald calls a listener synchronously, from whichever thread made the event
 * happen: the transport's reader, a handler's virtual thread, a timer, an HTTP container thread;
 * calls for one session may overlap. So a listener must be:
 *
 * <ul>
 *   <li><b>fast and non-blocking</b>: bump a counter, record a timestamp; no I/O, no locks held
 *       for long. Anything slow belongs on the listener's own thread.
 *   <li><b>thread-safe</b>.
 *   <li><b>silent</b>: it should never throw. Herald guards each call anyway: an exception is
 *       logged (once at {@code WARNING}, then at {@code DEBUG}) and swallowed, and the session
 *       goes on as if the listener had returned.
 *   <li><b>not re-entrant</b>: it must not call back into Herald (send, call, close) from a
 *       callback; some callbacks run while Herald holds a stream's or an emitter's lock.
 * </ul>
 *
 * <p><b>One per session.</b> A listener is made for each session by an {@link Factory} given to
 * {@code McpServer.Builder.eventListenerFactory} (every server session, whatever the transport:
 * stdio, Streamable HTTP, legacy HTTP+SSE, servlet) or {@code McpClient.Builder.eventListenerFactory}
 * (the client's session, and each session it starts after the server lost one). A factory may
 * hand out one shared, thread-safe listener to aggregate over sessions.
 *
 * <p><b>Cost.</b> With no factory set, sessions use {@link #NONE}, and Herald skips the work of
 * describing an event (no family lookup, no clock read, no allocation).
 *
 * {@snippet :
 * CountingEventListener counts = new CountingEventListener();
 * McpServer server = McpServer.builder()
 *     .eventListenerFactory(role -> counts) // one listener shared by every session
 *     .build();
 * // ...
 * long refusedLogs = counts.dropped(EventListener.DropReason.RATE_LIMITED);
 * }
 */
public interface EventListener {

  /** The listener that does nothing; sessions without a factory use it. */
  EventListener NONE = new EventListener() {};

  /** Makes the listener of one session. */
  @FunctionalInterface
  interface Factory {
    /** A factory that gives every session {@link #NONE}. */
    Factory NONE =
        // a class, not a lambda: the JVM's AOT cache does not keep a lambda made in an interface's
        // initialiser, and spinning one costs a cold process milliseconds before its first answer
        new Factory() {
          @Override
          public EventListener create(Role role) {
            return EventListener.NONE;
          }
        };

    /**
     * The listener for a session about to open. Called once per session, before any of its
     * callbacks; must not throw.
     *
     * @param role which side of the session this process plays
     */
    EventListener create(Role role);

    /**
     * A factory whose listeners tell every event to this factory's listener, then to {@code
     * other}'s: metrics and traces on one server, say.
     *
     * {@snippet :
     * McpServer.builder()
     *     .eventListenerFactory(HeraldMetrics.listenerFactory(registry).and(tracing.listenerFactory()));
     * }
     */
    default Factory and(Factory other) {
      Objects.requireNonNull(other, "other");
      return role -> new BothEventListeners(create(role), other.create(role));
    }
  }

  /** Which side of a session this process plays. */
  enum Role {
    /** A server session: one client's connection to an {@code McpServer}. */
    SERVER,
    /** A client session: an {@code McpClient}'s connection to a server. */
    CLIENT
  }

  /** A notification method, grouped as the specification groups them. */
  enum Family {
    /** {@code notifications/progress}. */
    PROGRESS,
    /** {@code notifications/cancelled}. */
    CANCELLED,
    /** {@code notifications/message} (a log message). */
    MESSAGE,
    /** {@code notifications/tools/list_changed}. */
    TOOLS_LIST_CHANGED,
    /** {@code notifications/resources/list_changed}. */
    RESOURCES_LIST_CHANGED,
    /** {@code notifications/prompts/list_changed}. */
    PROMPTS_LIST_CHANGED,
    /** {@code notifications/roots/list_changed}. */
    ROOTS_LIST_CHANGED,
    /** {@code notifications/resources/updated}. */
    RESOURCES_UPDATED,
    /** {@code notifications/initialized}. */
    INITIALIZED,
    /** {@code notifications/tasks/status} (and the tasks extension's {@code notifications/tasks}). */
    TASK_STATUS,
    /** {@code notifications/elicitation/complete}. */
    ELICITATION_COMPLETE,
    /** Any other method (experimental, extensions, unknown). */
    OTHER;

    /** The family of a notification method; never allocates. */
    public static Family of(String method) {
      return switch (method) {
        case McpMethods.PROGRESS -> PROGRESS;
        case McpMethods.CANCELLED -> CANCELLED;
        case McpMethods.MESSAGE -> MESSAGE;
        case McpMethods.TOOLS_LIST_CHANGED -> TOOLS_LIST_CHANGED;
        case McpMethods.RESOURCES_LIST_CHANGED -> RESOURCES_LIST_CHANGED;
        case McpMethods.PROMPTS_LIST_CHANGED -> PROMPTS_LIST_CHANGED;
        case McpMethods.ROOTS_LIST_CHANGED -> ROOTS_LIST_CHANGED;
        case McpMethods.RESOURCES_UPDATED -> RESOURCES_UPDATED;
        case McpMethods.INITIALIZED -> INITIALIZED;
        case McpMethods.TASKS_STATUS, McpMethods.TASKS_EXT_STATUS -> TASK_STATUS;
        case McpMethods.ELICITATION_COMPLETE -> ELICITATION_COMPLETE;
        default -> OTHER;
      };
    }
  }

  /**
   * Why a notification was held back: it may not be sent to this peer now (basic/lifecycle
   * capability negotiation; server/utilities/logging). Nothing is wrong; the peer did not ask for
   * it, or not yet.
   */
  enum GateReason {
    /** The session is not in a state that admits it: not yet initialized, or closed. */
    NOT_OPERATING,
    /** The capability that opens it was not declared for this session. */
    NOT_DECLARED,
    /** A log message below the level the peer set with {@code logging/setLevel}. */
    BELOW_LEVEL,
    /** A resource update for a uri the peer did not subscribe to. */
    NOT_SUBSCRIBED
  }

  /**
   * Why a notification was dropped: it was due or it arrived, but Herald did not send or act on
   * it.
   */
  enum DropReason {
    /** Outbound: over the session's log rate limit. */
    RATE_LIMITED,
    /** Outbound: the write failed because the session was closing. */
    SESSION_CLOSED,
    /** Outbound: a progress value still waiting for its cadence when its request was cancelled. */
    REQUEST_CANCELLED,
    /** Inbound: no handler for the method. */
    UNKNOWN_METHOD,
    /** Inbound: the params could not be read (a cancellation without a request id, say). */
    MALFORMED,
    /**
     * Inbound: a cancellation of a request that is not running (unknown, already answered or
     * already cancelled) or that may not be cancelled ({@code initialize}).
     */
    NOT_CANCELLABLE,
    /** Inbound: the method's handler threw. */
    HANDLER_FAILED,
    /**
     * Inbound: a notification of a capability the peer never declared (basic/lifecycle
     * "Capability Negotiation"): a {@code list_changed} from a server without that area's {@code
     * listChanged}, {@code resources/updated} without {@code resources.subscribe}, a log message
     * without {@code logging}. Not acted on.
     */
    NOT_DECLARED
  }

  /** How a request this side handled ended. */
  enum Outcome {
    /** A result was sent. */
    OK,
    /** An error response was sent (its code is given). */
    ERROR,
    /** The peer cancelled it (or the session ended): no response was sent. */
    CANCELLED
  }

  /** Which stream of a Streamable HTTP (or legacy HTTP+SSE) session. */
  enum StreamKind {
    /** A POST answered with an SSE stream, carrying what one request sends before its response. */
    REQUEST,
    /** The session's standing stream, opened by a GET (or the legacy transport's one stream). */
    STANDING
  }

  // ---------------------------------------------------------------- sessions

  /** The session started reading from its transport. */
  default void sessionOpened() {}

  /**
   * The session ended.
   *
   * @param cause the transport's failure, or {@code null} for an orderly end
   */
  default void sessionClosed(@Nullable Throwable cause) {}

  // ---------------------------------------------------------------- requests this side handles

  /** A request from the peer was accepted and its handler is about to run. */
  default void requestStarted(String method, RequestId id) {}

  /**
   * A request whose start was reported ended.
   *
   * @param elapsed from {@link #requestStarted} to the response (or the cancellation), on the
   *     session's clock
   * @param errorCode the JSON-RPC error code when {@code outcome} is {@link Outcome#ERROR}, else 0
   */
  default void requestEnded(
      String method, RequestId id, Duration elapsed, Outcome outcome, int errorCode) {}

  /**
   * A request from the peer was answered with an error before any handler ran: its id is already
   * in use, too many requests are in flight, its {@code _meta} or progress token is invalid, or
   * its progress token is in use by another request.
   */
  default void requestRefused(String method, RequestId id, int errorCode) {}

  /** A response arrived for no pending request (it finished, was cancelled, timed out, or never existed): ignored. */
  default void responseIgnored(RequestId id) {}

  /**
   * A message that is not valid JSON-RPC (or a batch where the protocol version has none) was
   * received and refused.
   *
   * @param errorCode the JSON-RPC error code it was (or would have been) answered with
   */
  default void invalidMessage(int errorCode) {}

  // ---------------------------------------------------------------- notifications

  /** A notification was handed to the transport. */
  default void notificationSent(Family family) {}

  /** A notification was not sent because this peer may not receive it now. */
  default void notificationGated(Family family, GateReason reason) {}

  /** A notification was dropped: not sent (outbound reasons) or not acted on (inbound reasons). */
  default void notificationDropped(Family family, DropReason reason) {}

  // ---------------------------------------------------------------- progress

  /** A received {@code notifications/progress} was accepted by the call that owns its token. */
  default void progressAccepted() {}

  /** A received {@code notifications/progress} was refused. */
  default void progressRefused(ProgressRejection reason) {}

  /**
   * A handler's progress report was refused by the sender's emitter and nothing was sent: {@link
   * ProgressRejection#NOT_INCREASING} (not above the last value, or a negative count), {@link
   * ProgressRejection#NON_FINITE}, {@link ProgressRejection#INVALID_TOTAL} (a total, or a
   * percentage's whole, that is zero or negative), {@link ProgressRejection#LATE} (after the
   * request ended or was cancelled).
   */
  default void progressReportRefused(ProgressRejection reason) {}

  // ---------------------------------------------------------------- HTTP streams (server side)

  /** An SSE stream started on a connection: a POST switched to SSE, or a GET without {@code Last-Event-ID}. */
  default void streamOpened(StreamKind kind) {}

  /** A GET with {@code Last-Event-ID} attached a connection to an existing stream, which replays what followed that id. */
  default void streamResumed(StreamKind kind) {}

  /**
   * A stream's connection was closed because its reader fell behind the queue limit. On
   * Streamable HTTP the events are kept and the client can resume; on the legacy transport the
   * session ends.
   */
  default void streamClosedForSlowReader(StreamKind kind) {}

  /**
   * A connection that carried a stream ended: its response was complete, the client went away,
   * or the server closed it (after {@link #streamClosedForSlowReader}, say). A stream whose
   * connection ended may be resumed later ({@link #streamResumed}).
   */
  default void streamClosed(StreamKind kind) {}

  // ---------------------------------------------------------------- tasks (server side)

  /**
   * A task that a request of this session created entered {@code status} on this node: {@link
   * TaskStatus#WORKING} when it is created, then each change while it runs here (MCP 2025-11-25
   * basic/utilities/tasks; the 2026-07-28 tasks extension). Terminal statuses ({@link
   * TaskStatus#isTerminal()}) end the task. The task id is for correlation (a trace links it to
   * its creating request); it is not a low-cardinality value.
   */
  default void taskStatusChanged(String taskId, TaskStatus status) {}
}
