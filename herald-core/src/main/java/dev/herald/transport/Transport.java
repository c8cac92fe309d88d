package dev.herald.transport;

import dev.herald.wire.DecodedMessage;
import dev.herald.wire.EncodedMessage;
import dev.herald.wire.JsonRpcMessage;
import dev.herald.wire.ProtocolVersion;
import dev.herald.wire.RequestId;
import java.util.Optional;
import org.jspecify.annotations.Nullable;

/**
 * One connection to one peer: frames in, frames out. A transport knows bytes, lines, HTTP
 * exchanges and SSE events; it never looks at JSON-RPC methods.
 *
 * <p>Threading: {@link #start} is called once; the transport then calls the {@link Receiver} from
 * its own reader thread, one frame at a time, in arrival order. {@link #send} may be called from
 * any thread; frames from one thread leave in the order sent.
 */
public interface Transport extends AutoCloseable {

  /** Begins reading. Frames and the final close are reported to {@code receiver}. */
  void start(Receiver receiver);

  /**
   * Sends one message.
   *
   * @param message the message
   * @param relatedTo the inbound request this message belongs to (a progress update, a log line
   *     or a reverse request made by that request's handler, or the response to it), or {@code
   *     null} for a message tied to no request. Stream-based transports route by it; stdio
   *     ignores it.
   * @throws TransportException when the connection is closed or broken
   */
  void send(JsonRpcMessage message, @Nullable RequestId relatedTo);

  /**
   * Sends one message that is already encoded, as {@link #send(JsonRpcMessage, RequestId)} does:
   * the path for a notification fanned out to many sessions, encoded once for all of them. The
   * transport writes {@link EncodedMessage#bytes()} as they are and never modifies them (they are
   * shared with other transports). The default re-encodes; Herald's transports override it.
   *
   * @throws TransportException when the connection is closed or broken
   */
  default void send(EncodedMessage encoded, @Nullable RequestId relatedTo) {
    send(encoded.message(), relatedTo);
  }

  /**
   * Closes the stream that carries one inbound request's messages without ending the request,
   * so the client resumes it later (SSE polling, SEP-1699): what the request still sends is kept
   * and delivered when the client reconnects. Transports without such streams (stdio) return
   * {@code false} and change nothing.
   *
   * @return whether a stream was closed
   */
  default boolean pollStream(RequestId request) {
    return false;
  }

  /**
   * The peer cancelled one inbound request ({@code notifications/cancelled}, MCP 2025-11-25
   * basic/utilities/cancellation): its handler was told to stop and no response will be sent for
   * it. A transport that holds a stream open for that response ends it now, cleanly, and forgets
   * the request id so the peer may use it again. Called after the session has released the id.
   * Transports without per-request streams (stdio) change nothing.
   */
  default void requestCancelled(RequestId request) {}

  /**
   * Client side: the client is about to speak {@code version} on this connection. The client calls
   * it before the first request of a version: before its {@code server/discover} probe with
   * 2026-07-28, again before {@code initialize} when it falls back to a handshake version (MCP
   * 2026-07-28 basic/versioning, "Backward Compatibility"), and once more if it settles on another
   * version. The era decides how a stream-based transport frames requests: a 2026-07-28 HTTP
   * transport posts every request on its own with the per-request headers, keeps no session and
   * opens no standing stream, and cancels a request by closing its stream when the client sends
   * {@code notifications/cancelled} for it; a handshake version probes with {@code initialize}.
   *
   * <p>Byte-stream transports (stdio, in-memory) carry both eras unchanged, which is the default:
   * nothing to do, and {@code true}.
   *
   * @return whether this transport can carry {@code version}; a client does not try a version its
   *     transport refuses (it falls back to the other era, or fails when the era was pinned)
   */
  default boolean useProtocolVersion(ProtocolVersion version) {
    return true;
  }

  /**
   * The MCP session id of this connection (Streamable HTTP's {@code MCP-Session-Id}, MCP
   * 2025-11-25 basic/transports "Session Management"), when it has one; empty by default (stdio,
   * and the stateless 2026-07-28 era). Traces record it as {@code mcp.session.id}.
   */
  default Optional<String> sessionId() {
    return Optional.empty();
  }

  /** Closes the connection. Idempotent. */
  @Override
  void close();

  /** Receives what a transport reads. */
  interface Receiver {
    /** One decoded frame. Must not block for long: it runs on the transport's reader. */
    void onFrame(DecodedMessage frame);

    /** The connection ended; {@code cause} is {@code null} for an orderly end. Called once. */
    void onClose(@Nullable Throwable cause);
  }
}
