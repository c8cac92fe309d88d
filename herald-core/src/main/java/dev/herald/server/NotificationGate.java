package dev.herald.server;

import dev.herald.session.EventListener;
import dev.herald.wire.LoggingLevel;
import dev.herald.wire.ServerCapabilities;
import org.jspecify.annotations.Nullable;

/**
 * Answers one question for one session: may this unsolicited notification be sent to it now?
 *
 * <p>Design note (docs/architecture.md "Gates", docs/notifications.md "The seven families"; MCP
 * 2025-11-25 basic/lifecycle "Capability Negotiation", server/tools, server/resources,
 * server/prompts "List Changed Notification", server/utilities/logging). Unsolicited
 * notifications ({@code <area>/list_changed}, {@code resources/updated}, {@code notifications/message})
 * are gated by the session only, never by a request's {@code _meta}: per-request client
 * capabilities open request-bound notifications (progress, task status), not these. The rules:
 *
 * <ul>
 *   <li>The capabilities the server declared in its {@code initialize} answer are captured here
 *       once ({@link #declare}) and never change for the session. Nothing is declared before.
 *   <li>{@code <area>/list_changed}: the session is OPERATING ({@code notifications/initialized}
 *       arrived) and the server declared {@code <area>.listChanged}.
 *   <li>{@code resources/updated}: OPERATING, {@code resources.subscribe} declared, and the
 *       session subscribed to that URI (the caller knows; it passes the answer in).
 *   <li>{@code notifications/message}: {@code logging} declared, the session is INITIALIZING or
 *       OPERATING (logs are one of the two things allowed before {@code initialized}), the
 *       message's level is at or above the session's level, and the session's token bucket has a
 *       token. Level is checked before the bucket, so filtered messages cost no tokens.
 *   <li>A session without a handshake (one that serves stateless 2026-07-28 requests) stays NEW,
 *       so none of the above ever reaches it. The one log it can carry is a stateless request's
 *       own ({@link #requestLog}), opened by that request's {@code _meta} log level and sent on
 *       that request's stream only.
 * </ul>
 *
 * <p>Every refusal is reported to the session's {@link EventListener}: a closed gate as {@link
 * EventListener#notificationGated}, a rate-limited log as {@link
 * EventListener#notificationDropped} (a send that fails on the wire is the engine's to report). Thread-safe and lock-free apart from the bucket's short
 * lock (and the one-time creation of the bucket, on the first log that reaches it).
 */
final class NotificationGate {
  /** The outcome of a check. */
  enum Verdict {
    SEND,
    /** Wrong lifecycle state: not yet initialized, or closed. */
    NOT_OPERATING,
    /** The server did not declare the capability for this session. */
    NOT_DECLARED,
    /** Below the session's log level. */
    BELOW_LEVEL,
    /** The session did not subscribe to the resource. */
    NOT_SUBSCRIBED,
    /** The session's log rate limit is exhausted. */
    RATE_LIMITED
  }

  private final ServerSession session;
  private final McpServer server;

  /** Made on the first log that reaches the bucket (a new bucket is full, as an old idle one is). */
  private volatile @Nullable TokenBucket logBucket;

  private volatile @Nullable ServerCapabilities declared;
  private volatile LoggingLevel logLevel;

  /** The gate of {@code session}; the log level starts at the server's default. */
  NotificationGate(ServerSession session, McpServer server) {
    this.session = session;
    this.server = server;
    this.logLevel = server.defaultLogLevel;
  }

  private TokenBucket logBucket() {
    TokenBucket b = logBucket;
    if (b == null) {
      synchronized (this) {
        b = logBucket;
        if (b == null) {
          b = new TokenBucket(server.ticker, server.logsPerSecond, server.logBurst);
          logBucket = b;
        }
      }
    }
    return b;
  }

  /** Records what the server declared to this session at bring-up. */
  void declare(ServerCapabilities caps) {
    this.declared = caps;
  }

  /** What the server declared to this session ({@link ServerCapabilities#none()} before bring-up). */
  ServerCapabilities declared() {
    ServerCapabilities caps = declared;
    return caps == null ? ServerCapabilities.none() : caps;
  }

  void logLevel(LoggingLevel level) {
    this.logLevel = level;
  }

  LoggingLevel logLevel() {
    return logLevel;
  }

  Verdict listChanged(CatalogArea area) {
    ServerCapabilities caps = declared;
    Verdict v;
    if (session.state() != ServerSession.State.OPERATING) {
      v = Verdict.NOT_OPERATING;
    } else if (caps == null || !area.declaredIn(caps)) {
      v = Verdict.NOT_DECLARED;
    } else {
      v = Verdict.SEND;
    }
    return v == Verdict.SEND ? v : report(v, EventListener.Family.of(area.method()));
  }

  Verdict resourceUpdated(boolean subscribed) {
    ServerCapabilities caps = declared;
    Verdict v;
    if (session.state() != ServerSession.State.OPERATING) {
      v = Verdict.NOT_OPERATING;
    } else if (caps == null || !caps.resourcesSubscribe()) {
      v = Verdict.NOT_DECLARED;
    } else if (!subscribed) {
      v = Verdict.NOT_SUBSCRIBED;
    } else {
      v = Verdict.SEND;
    }
    return report(v, EventListener.Family.RESOURCES_UPDATED);
  }

  Verdict log(LoggingLevel level) {
    ServerCapabilities caps = declared;
    ServerSession.State s = session.state();
    Verdict v;
    if (s != ServerSession.State.OPERATING && s != ServerSession.State.INITIALIZING) {
      v = Verdict.NOT_OPERATING;
    } else if (caps == null || !caps.supportsLogging()) {
      v = Verdict.NOT_DECLARED;
    } else {
      v = levelAndRate(level, logLevel);
    }
    return report(v, EventListener.Family.MESSAGE);
  }

  /**
   * A log written by the handler of a stateless (2026-07-28) request (2026-07-28
   * server/utilities/logging): sent only if the request asked for logs with {@code
   * _meta["io.modelcontextprotocol/logLevel"]} ({@code requested}), at or above that level, and
   * within the session's rate limit. The session's state and its {@code logging/setLevel} level
   * play no part: such a request has no handshake and no session level. (The server always
   * declares {@code logging}.)
   */
  Verdict requestLog(LoggingLevel level, @Nullable LoggingLevel requested) {
    Verdict v = requested == null ? Verdict.NOT_DECLARED : levelAndRate(level, requested);
    return report(v, EventListener.Family.MESSAGE);
  }

  /** The checks every log passes last: at or above {@code threshold}, then the rate limit. */
  private Verdict levelAndRate(LoggingLevel level, LoggingLevel threshold) {
    if (!level.admittedBy(threshold)) {
      return Verdict.BELOW_LEVEL;
    }
    return logBucket().tryAcquire() ? Verdict.SEND : Verdict.RATE_LIMITED;
  }

  private Verdict report(Verdict v, EventListener.Family family) {
    EventListener events = session.events(); // NONE's methods are empty: nothing to skip
    switch (v) {
      case SEND -> {}
      case NOT_OPERATING ->
          events.notificationGated(family, EventListener.GateReason.NOT_OPERATING);
      case NOT_DECLARED -> events.notificationGated(family, EventListener.GateReason.NOT_DECLARED);
      case BELOW_LEVEL -> events.notificationGated(family, EventListener.GateReason.BELOW_LEVEL);
      case NOT_SUBSCRIBED ->
          events.notificationGated(family, EventListener.GateReason.NOT_SUBSCRIBED);
      case RATE_LIMITED ->
          events.notificationDropped(family, EventListener.DropReason.RATE_LIMITED);
    }
    return v;
  }
}
