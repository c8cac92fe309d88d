package dev.herald.client.auth;

import dev.herald.transport.TransportException;
import java.util.Optional;
import org.jspecify.annotations.Nullable;

/**
 * Authorization with a protected MCP server failed: the server's challenge could not be answered
 * (no {@link Authorization} set, the flow failed, the metadata was unusable, the user or the
 * authorization server refused, a step-up kept being refused). It carries the server's {@link
 * Challenge} when there was one, so the host can show what the server asked for.
 *
 * <p>A {@code 401} that cannot be answered ends the transport with this exception, so every
 * pending call and {@code McpClient#sessionClosed()} see it; a {@code 403} that cannot be answered
 * fails only its own request.
 */
public class AuthorizationException extends TransportException {
  private static final long serialVersionUID = 1L;

  private final transient @Nullable Challenge challenge;

  public AuthorizationException(String message) {
    this(message, null, null);
  }

  public AuthorizationException(String message, @Nullable Challenge challenge) {
    this(message, challenge, null);
  }

  public AuthorizationException(
      String message, @Nullable Challenge challenge, @Nullable Throwable cause) {
    super(message, cause);
    this.challenge = challenge;
  }

  /** The server's challenge (its status and {@code WWW-Authenticate}), when there was one. */
  public Optional<Challenge> challenge() {
    return Optional.ofNullable(challenge);
  }
}
