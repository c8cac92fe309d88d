package dev.herald.transport;

import org.jspecify.annotations.Nullable;

/** A transport failure: the connection is closed, broken or refused. */
public class TransportException extends RuntimeException {
  private static final long serialVersionUID = 1L;

  public TransportException(String message) {
    super(message);
  }

  public TransportException(String message, @Nullable Throwable cause) {
    super(message, cause);
  }

  /** The message given at construction. */
  @Override
  public String getMessage() {
    String m = super.getMessage();
    return m != null ? m : getClass().getSimpleName();
  }
}
