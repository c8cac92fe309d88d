package dev.herald.auth;

/**
 * A bearer token was refused: malformed, badly signed, expired, issued by another authorization
 * server or for another resource, revoked, or not verifiable in time. The message is safe to send
 * to the client as the {@code error_description} of a {@code WWW-Authenticate: Bearer} challenge
 * (RFC 6750 section 3): it never contains the token.
 */
public final class InvalidTokenException extends Exception {

  private static final long serialVersionUID = 1L;

  public InvalidTokenException(String message) {
    super(message);
  }

  public InvalidTokenException(String message, Throwable cause) {
    super(message, cause);
  }
}
