package dev.herald.server;

import dev.herald.session.CancellationToken;
import dev.herald.session.ProgressReporter;
import dev.herald.wire.LoggingLevel;
import dev.herald.wire.RequestId;
import org.jspecify.annotations.Nullable;
import tools.jackson.databind.node.ObjectNode;

/**
 * What a handler can do with the request it is serving. Everything sent through it belongs to
 * this request: on Streamable HTTP it travels on this request's stream, before the response.
 *
 * <p>Thread-safe.
 */
public interface RequestContext {

  RequestId requestId();

  /** {@code params._meta} of the request, or {@code null}. */
  @Nullable ObjectNode meta();

  /** Progress for this request: a no-op unless the client sent a progress token. */
  ProgressReporter progress();

  /** Trips when the client cancels the request or the session ends. */
  CancellationToken cancellation();

  /** The session the request arrived on. */
  ServerSession session();

  /**
   * Sends a log message to this session only, if the session's level admits it. Messages must not
   * carry secrets or personal data.
   */
  void log(LoggingLevel level, @Nullable String logger, Object data);

  default void log(LoggingLevel level, Object data) {
    log(level, null, data);
  }
}
