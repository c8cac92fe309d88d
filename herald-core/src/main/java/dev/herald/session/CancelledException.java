package dev.herald.session;

/** Thrown inside a handler whose request was cancelled, and to a caller whose call was cancelled. */
public class CancelledException extends RuntimeException {
  private static final long serialVersionUID = 1L;

  public CancelledException(String reason) {
    super(reason);
  }
}
