package dev.herald.transport;

/** A transport failure: the connection is closed, broken or refused. */
public class TransportException extends RuntimeException {
  private static final long serialVersionUID = 1L;

  public TransportException(String message) {
    super(message);
  }

  public TransportException(String message, Throwable cause) {
    super(message, cause);
  }
}
