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
import dev.herald.wire.InputRequest;
import dev.herald.wire.InputResponses;
import dev.herald.wire.LoggingLevel;
import dev.herald.wire.ProtocolVersion;
import dev.herald.wire.RequestId;
import dev.herald.wire.Root;
import java.util.List;
import java.util.Map;
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
   * Who is calling: the principal whose access token this request carried, as the HTTP
   * endpoint's {@link dev.herald.auth.TokenVerifier} established it (MCP 2025-11-25
   * basic/authorization). For a task, the principal of the request that created it. Empty
   * without authorization (stdio, an unprotected HTTP endpoint). The token itself is never
   * available: handlers must not pass it on to other services.
   */
  default Optional<dev.herald.auth.Principal> principal() {
    return session().principal();
  }

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
   * The id of the task this handler runs as (MCP 2025-11-25 basic/utilities/tasks; the 2026-07-28
   * {@code io.modelcontextprotocol/tasks} extension), or empty while it serves a plain call. A task
   * outlives its request: progress, input and cancellation work the same way, and last until the
   * task is terminal ({@code tasks/cancel} trips {@link #cancellation()}).
   */
  default Optional<String> taskId() {
    return Optional.empty();
  }

  /**
   * Sets the status message of the task this handler runs as, shown by {@code tasks/get} and in
   * status notifications. Does nothing for a plain call. Must not carry secrets or personal data.
   */
  default void statusMessage(String message) {}

  /**
   * For a tool registered with {@link TaskStart#WHEN_HANDLER_STARTS_IT}: answers the request now
   * with the task ({@code CreateTaskResult}) and lets the handler go on as that task. Does nothing
   * when the call is not to become a task or already is one.
   *
   * @throws dev.herald.wire.McpException if the task cannot be created (the store is full)
   */
  default void startTask() {}

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
   * Asks the client's model for a message ({@code sampling/createMessage}) and returns the answer.
   * One handler serves both eras:
   *
   * <ul>
   *   <li>In a handshake-era session this is a server-to-client request that travels with this
   *       request, is cancelled with it, and is waited for.
   *   <li>In a 2026-07-28 request of {@code tools/call}, {@code prompts/get} or {@code
   *       resources/read} (MCP 2026-07-28 basic/patterns/mrtr) the answer comes from the client's
   *       retry: when it is not there yet this throws {@link InputRequired}, which must be let
   *       through; Herald answers the request with an {@code InputRequiredResult} and, on the
   *       retry, runs the handler again from the start, when this call returns the answer. The
   *       handler should therefore ask the same questions in the same order every time and do
   *       nothing irreversible before its last ask. The input key is derived from the order of
   *       the asks; {@link #sample(String, CreateMessageParams)} names it.
   * </ul>
   *
   * @throws dev.herald.wire.McpException if the request did not declare {@code sampling}, at once
   *     and sending nothing: -32601 in a handshake-era session, -32021 with {@code
   *     data.requiredCapabilities} in a 2026-07-28 request; -32602 if the client's answer is not a
   *     {@code CreateMessageResult}; -32603 when asked from another 2026-07-28 method; or the
   *     client's error response
   * @throws InputRequired (2026-07-28) when the answer is not there yet
   * @throws dev.herald.session.CancelledException if the call was cancelled (this request ended)
   * @throws InterruptedException if this request was cancelled while waiting
   */
  default CreateMessageResult sample(CreateMessageParams params) throws InterruptedException {
    return sample(params, CallOptions.defaults());
  }

  /** {@link #sample(CreateMessageParams)} with timeouts of its own (handshake era only). */
  default CreateMessageResult sample(CreateMessageParams params, CallOptions options)
      throws InterruptedException {
    throw new UnsupportedOperationException("this context cannot ask for input");
  }

  /**
   * {@link #sample(CreateMessageParams)} under an input key of the handler's choosing: the key of
   * the {@code inputRequests} entry in the 2026-07-28 era, ignored in the handshake era.
   */
  default CreateMessageResult sample(String key, CreateMessageParams params)
      throws InterruptedException {
    return java.util.Objects.requireNonNull(
        ask(Map.of(key, InputRequest.createMessage(params))).createMessage(key));
  }

  /**
   * Asks the user for input through the client ({@code elicitation/create}) and returns the
   * answer. Same eras, routing, cancellation and errors as {@link #sample(CreateMessageParams)};
   * the capability is {@code elicitation} (form mode) or {@code elicitation.url} (URL mode).
   */
  default ElicitResult elicit(ElicitParams params) throws InterruptedException {
    return elicit(params, CallOptions.defaults());
  }

  /** {@link #elicit(ElicitParams)} with timeouts of its own (handshake era only). */
  default ElicitResult elicit(ElicitParams params, CallOptions options)
      throws InterruptedException {
    throw new UnsupportedOperationException("this context cannot ask for input");
  }

  /** {@link #elicit(ElicitParams)} under an input key of the handler's choosing. */
  default ElicitResult elicit(String key, ElicitParams params) throws InterruptedException {
    return java.util.Objects.requireNonNull(
        ask(Map.of(key, InputRequest.elicit(params))).elicit(key));
  }

  /**
   * The client's roots ({@code roots/list}). In a handshake-era session, when the client declared
   * {@code roots.listChanged}, the answer is cached for the session until it sends {@code
   * notifications/roots/list_changed}; otherwise every call asks. Same eras, routing, cancellation
   * and errors as {@link #sample(CreateMessageParams)}; the capability is {@code roots}.
   */
  default List<Root> listRoots() throws InterruptedException {
    throw new UnsupportedOperationException("this context cannot ask for input");
  }

  /** {@link #listRoots()} under an input key of the handler's choosing. */
  default List<Root> listRoots(String key) throws InterruptedException {
    return java.util.Objects.requireNonNull(
            ask(Map.of(key, InputRequest.listRoots())).listRoots(key))
        .roots();
  }

  /**
   * Asks several questions in one round and returns all the answers by key (read them with
   * {@link InputResponses#elicit}, {@link InputResponses#createMessage}, {@link
   * InputResponses#listRoots}). In a 2026-07-28 request the questions not answered yet go out
   * together in one {@code InputRequiredResult}; in a handshake-era session they are sent one
   * after the other. Errors as {@link #sample(CreateMessageParams)}; -32021 names every
   * capability missing.
   *
   * {@snippet :
   * InputResponses answers = ctx.ask(Map.of(
   *     "user_name", InputRequest.elicit(ElicitParams.form("What is your name?", schema)),
   *     "client_roots", InputRequest.listRoots()));
   * String name = answers.elicit("user_name").content().get("name").stringValue();
   * }
   */
  default InputResponses ask(Map<String, ? extends InputRequest> requests)
      throws InterruptedException {
    throw new UnsupportedOperationException("this context cannot ask for input");
  }

  /**
   * Whether this request may ask {@code request}: the client declared the capability it needs,
   * in its session or in this request's {@code _meta} (SEP-2575). A handler that can do without
   * some input asks this first instead of failing with -32021.
   */
  default boolean canAsk(InputRequest request) {
    return false;
  }

  /**
   * The handler's own state from its last {@link InputRequired}, given back on the retry (it was
   * signed by Herald and checked before the handler ran), or {@code null} on a first run.
   */
  default @Nullable String requestState() {
    return null;
  }

  /**
   * The answers the client sent with this retry ({@code inputResponses}, 2026-07-28), or in the
   * handshake era the answers to the handler's last explicit {@link InputRequired}; empty on a
   * first run. Entries are unchecked client input: the typed accessors fail with -32602 on a
   * malformed entry. Handlers that ask through {@link #elicit}, {@link #sample}, {@link
   * #listRoots} or {@link #ask} do not need this.
   */
  default InputResponses inputResponses() {
    return new InputResponses(tools.jackson.databind.node.JsonNodeFactory.instance.objectNode());
  }
}
