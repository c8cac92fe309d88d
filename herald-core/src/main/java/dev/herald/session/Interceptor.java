package dev.herald.session;

import dev.herald.wire.ProtocolVersion;
import dev.herald.wire.RequestId;
import java.util.Optional;
import org.jspecify.annotations.Nullable;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * Observes, changes or short-circuits every request a peer sends, in the spirit of OkHttp's
 * interceptors. Interceptors are given to {@code McpServer.Builder#interceptor} (where {@code S}
 * is the {@code ServerSession} the request arrived on) or {@code McpClient.Builder#interceptor}
 * (where {@code S} is the {@code McpClient}); typical uses are audit logs, rate limits and
 * authorization.
 *
 * <p><b>Order.</b> Interceptors run in the order they were added, before Herald's own gates: they
 * see every request, including ones for methods the receiver does not offer, ones from the wrong
 * protocol era and ones that a capability gate will refuse. After the last user interceptor, the
 * request goes through Herald's gates (method and era, lifecycle, declared capability, as the
 * MCP specification's "Lifecycle" and "Capability Negotiation" sections require) and then the
 * method's handler. One check comes before every interceptor: the era of the request. On a
 * server, a stateless (2026-07-28) request whose {@code _meta} is missing a required field or
 * names a version the server does not serve is answered (-32602, -32022) before any interceptor
 * runs; what reaches the interceptors has a known era ({@link Chain#protocolVersion()}). The
 * server's results of stateless requests, an interceptor's own included, get {@code resultType},
 * caching hints and {@code serverInfo} after the interceptors returned.
 *
 * <p><b>Contract.</b> An implementation either calls {@link Chain#proceed()} exactly once and
 * returns what it returned (possibly changed), or does not call it at all and answers by itself:
 * returning a result object short-circuits with that result, and throwing {@link
 * dev.herald.wire.McpException} answers with that JSON-RPC error (for instance {@code -32600} or
 * an application code for a refused authorization). Calling {@code proceed()} twice, or returning
 * {@code null}, is a bug: it fails the request with {@code -32603} and the failure names the
 * interceptor. Any other exception is a bug too and is answered with a bare {@code -32603
 * Internal error} (logged with its stack, never sent to the peer). If the request is cancelled
 * ({@code notifications/cancelled}), nothing is sent for it, whatever the interceptor returns.
 *
 * <p><b>Requests this side sends.</b> {@link #sending} sees the requests going the other way,
 * before they are written, and may add {@code _meta} entries to them; it is told when each ends.
 *
 * <p><b>Threading.</b> {@link #intercept} runs on the request's own virtual thread, so it may
 * block; it must be thread-safe, since requests run concurrently.
 *
 * {@snippet :
 * McpServer server = McpServer.builder()
 *     .interceptor(chain -> {
 *       long start = System.nanoTime();
 *       try {
 *         return chain.proceed();
 *       } finally {
 *         audit.record(chain.method(), System.nanoTime() - start);
 *       }
 *     })
 *     .build();
 * }
 *
 * @param <S> what a request arrived on: the {@code ServerSession} on a server, the {@code
 *     McpClient} on a client
 */
@FunctionalInterface
public interface Interceptor<S> {
  /**
   * Handles one request, usually by calling {@link Chain#proceed()}.
   *
   * @return the JSON-RPC result object to send
   * @throws dev.herald.wire.McpException to answer with that JSON-RPC error
   * @throws Exception what {@link Chain#proceed()} threw, passed on; anything else is answered
   *     with {@code -32603}
   */
  JsonNode intercept(Chain<S> chain) throws Exception;

  /**
   * Sees a request this side is about to send: on a client, every request to the server ({@code
   * tools/call}, {@code initialize}...); on a server, every request to the client (sampling,
   * elicitation, roots, ping). It runs on the thread that sends, before the request is written,
   * and may add entries to the request's {@code params._meta} with {@link Sending#putMeta} (W3C
   * trace context, as the MCP specification's basic "_meta" section allows for {@code
   * traceparent} and {@code tracestate}, say). Interceptors are asked in the order they were
   * added. The default does nothing.
   *
   * <p>It must be fast and must not throw (an exception is logged and the request is sent as if
   * the interceptor had returned {@code null}); it must not call back into Herald.
   *
   * @param request the request about to be sent; usable only during this call
   * @return told once when the request ends (its response, an error, a cancellation, a timeout,
   *     or the end of the connection), or {@code null}
   */
  default @Nullable Sent sending(Sending request) {
    return null;
  }

  /**
   * A request this side is about to send, as {@link #sending} sees it. Not thread-safe: use it
   * only during that call.
   */
  interface Sending {
    /** The JSON-RPC method. */
    String method();

    /** The request's id, unique among this session's pending requests. */
    RequestId id();

    /** The params as they will be sent, or {@code null}; read only. */
    @Nullable ObjectNode params();

    /**
     * The MCP session id of the connection the request goes out on (Streamable HTTP's {@code
     * MCP-Session-Id}), when it has one.
     */
    Optional<String> sessionId();

    /**
     * Puts an entry into the request's {@code params._meta}, replacing any with the same key.
     * The caller's params are not changed: the request is sent with a copy.
     */
    void putMeta(String key, String value);
  }

  /** Told once when a request that {@link #sending} saw ends. */
  @FunctionalInterface
  interface Sent {
    /**
     * The request ended. Runs on the thread that completed it (the transport's reader, a timer,
     * the canceller); must be fast and must not throw.
     *
     * @param result the result object, or {@code null} when it failed
     * @param failure {@code null} on success; else a {@link dev.herald.wire.McpException} for an
     *     error response, a {@link CancelledException} (or its subtype {@link TimeoutException})
     *     when it was cancelled, or a {@link dev.herald.transport.TransportException} when the
     *     connection ended
     */
    void ended(@Nullable JsonNode result, @Nullable Throwable failure);
  }

  /**
   * One request on its way to its handler, and the rest of the chain. Not thread-safe: use it
   * only from the thread {@link #intercept} was called on.
   *
   * @param <S> what the request arrived on
   */
  interface Chain<S> {
    /** The server session or client the request arrived on. */
    S session();

    /** The JSON-RPC method, as sent (it may name no method the receiver offers). */
    String method();

    /** The request's id, unique among this session's active requests. */
    RequestId id();

    /** The raw params, or {@code null} when the request had none. */
    @Nullable ObjectNode params();

    /** {@code params._meta}, or {@code null}. */
    @Nullable ObjectNode meta();

    /**
     * The protocol version the request is served under: the version negotiated by {@code
     * initialize}, or, before any, the version a 2026-07-28 request names in {@code
     * _meta["io.modelcontextprotocol/protocolVersion"]}; empty when neither is known yet.
     */
    Optional<ProtocolVersion> protocolVersion();

    /** Cancelled when the peer cancels the request or the session ends. */
    CancellationToken cancellation();

    /**
     * The principal whose access token the request carried, as the transport's {@link
     * dev.herald.auth.TokenVerifier} established it (MCP 2025-11-25 basic/authorization); empty
     * when the transport does not authorize (stdio, an unprotected HTTP endpoint) and always on a
     * client.
     */
    default Optional<dev.herald.auth.Principal> principal() {
      return Optional.empty();
    }

    /**
     * The MCP session id of the connection the request arrived on (Streamable HTTP's {@code
     * MCP-Session-Id}), when it has one.
     */
    default Optional<String> sessionId() {
      return Optional.empty();
    }

    /**
     * Passes the request to the next interceptor, or to Herald's gates and the handler.
     *
     * @return the result object the rest of the chain produced
     * @throws dev.herald.wire.McpException when the rest of the chain answers with an error
     * @throws IllegalStateException if called more than once by the same interceptor
     * @throws Exception what the handler threw
     */
    JsonNode proceed() throws Exception;
  }
}
