package dev.herald.server;

import dev.herald.session.CallOptions;
import dev.herald.session.CancellationToken;
import dev.herald.session.ProgressReporter;
import dev.herald.wire.CreateMessageParams;
import dev.herald.wire.CreateMessageResult;
import dev.herald.wire.ElicitParams;
import dev.herald.wire.ElicitResult;
import dev.herald.wire.LoggingLevel;
import dev.herald.wire.RequestId;
import dev.herald.wire.Root;
import java.util.List;
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

  /**
   * Closes this request's stream on Streamable HTTP without ending the request (SSE polling,
   * SEP-1699): the client reconnects after the server's {@code retry:} delay with {@code
   * Last-Event-ID}, and receives everything this request sends from then on, its result included.
   * Use it for long calls that should not hold a connection. On stdio it does nothing.
   *
   * @return whether a stream was closed
   */
  boolean pollStream();

  /**
   * Asks the client's model for a message ({@code sampling/createMessage}) and waits for it. The
   * request travels with this request and is cancelled with it.
   *
   * @throws dev.herald.wire.McpException -32601 at once, sending nothing, if the client did not
   *     declare {@code sampling} at initialize; or the client's error response
   * @throws dev.herald.session.CancelledException if the call was cancelled (this request ended)
   * @throws InterruptedException if this request was cancelled while waiting
   */
  default CreateMessageResult sample(CreateMessageParams params) throws InterruptedException {
    return sample(params, CallOptions.defaults());
  }

  /** {@link #sample(CreateMessageParams)} with timeouts of its own. */
  default CreateMessageResult sample(CreateMessageParams params, CallOptions options)
      throws InterruptedException {
    throw new UnsupportedOperationException("this context cannot make reverse calls");
  }

  /**
   * Asks the user for input through the client ({@code elicitation/create}) and waits for the
   * answer. Same routing, cancellation and errors as {@link #sample(CreateMessageParams)}; the
   * gate is {@code elicitation} (form mode) or {@code elicitation.url} (URL mode).
   */
  default ElicitResult elicit(ElicitParams params) throws InterruptedException {
    return elicit(params, CallOptions.defaults());
  }

  /** {@link #elicit(ElicitParams)} with timeouts of its own. */
  default ElicitResult elicit(ElicitParams params, CallOptions options)
      throws InterruptedException {
    throw new UnsupportedOperationException("this context cannot make reverse calls");
  }

  /**
   * The client's roots ({@code roots/list}). When the client declared {@code roots.listChanged},
   * the answer is cached for the session until it sends {@code notifications/roots/list_changed};
   * otherwise every call asks. Same routing, cancellation and errors as {@link
   * #sample(CreateMessageParams)}; the gate is {@code roots}.
   */
  default List<Root> listRoots() throws InterruptedException {
    throw new UnsupportedOperationException("this context cannot make reverse calls");
  }
}
