package dev.herald.server;

import dev.herald.session.CallOptions;
import dev.herald.session.CancellationToken;
import dev.herald.session.ProgressReporter;
import dev.herald.wire.ClientCapabilities;
import dev.herald.wire.CreateMessageParams;
import dev.herald.wire.CreateMessageResult;
import dev.herald.wire.ElicitParams;
import dev.herald.wire.ElicitResult;
import dev.herald.wire.Implementation;
import dev.herald.wire.LoggingLevel;
import dev.herald.wire.ProtocolVersion;
import dev.herald.wire.RequestId;
import dev.herald.wire.Root;
import java.util.List;
import java.util.Optional;
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
   * The client's self-reported {@code clientInfo} for this request: from the request's {@code
   * _meta["io.modelcontextprotocol/clientInfo"]} for a stateless (2026-07-28) request, from
   * {@code initialize} otherwise. Self-reported: never a security input.
   */
  default Optional<Implementation> clientInfo() {
    return session().clientInfo();
  }

  /**
   * What the client supports for this request: what it declared at {@code initialize} (nothing
   * for a stateless request) with the request's own {@code
   * _meta["io.modelcontextprotocol/clientCapabilities"]} added (SEP-2575: additive, for this
   * request only).
   */
  default ClientCapabilities clientCapabilities() {
    return session().clientCapabilities();
  }

  /**
   * The protocol version this request is served under: the one its {@code _meta} names for a
   * stateless (2026-07-28) request, the negotiated one otherwise.
   */
  default Optional<ProtocolVersion> protocolVersion() {
    return session().protocolVersion();
  }

  /**
   * The era of this request: {@link ProtocolVersion.Era#MODERN} for a stateless (2026-07-28)
   * request, served without a handshake; {@link ProtocolVersion.Era#LEGACY} otherwise.
   */
  default ProtocolVersion.Era era() {
    return ProtocolVersion.Era.LEGACY;
  }

  /**
   * Sends a log message that belongs to this request. In the handshake era it goes to this
   * session only, if the session's level ({@code logging/setLevel}) admits it. For a stateless
   * (2026-07-28) request it is sent only if the request asked for logs ({@code
   * _meta["io.modelcontextprotocol/logLevel"]}) at or below {@code level}, and only on this
   * request's own stream, before its response. Messages must not carry secrets or personal data.
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
