package dev.herald.transport.http;

import dev.herald.transport.TransportException;

/**
 * The server ended the session: it answered a request carrying {@code Mcp-Session-Id} with HTTP
 * 404 (MCP 2025-11-25 basic/transports §Session Management). The transport is closed; a client
 * must start over with a fresh {@code initialize} on a new transport, without the old session id.
 *
 * <p>Reported through {@link dev.herald.transport.Transport.Receiver#onClose(Throwable)}, so every
 * call still pending on the session fails with a {@link TransportException} whose cause is this.
 *
 * {@snippet :
 * try {
 *   client.callTool("search", args);
 * } catch (TransportException e) {
 *   if (e.getCause() instanceof SessionExpiredException) {
 *     client = McpClient.builder().connect(newTransport()); // start over
 *   }
 * }
 * }
 */
public final class SessionExpiredException extends TransportException {
  private static final long serialVersionUID = 1L;

  public SessionExpiredException(String message) {
    super(message);
  }
}
