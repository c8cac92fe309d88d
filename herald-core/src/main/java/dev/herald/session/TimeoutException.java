package dev.herald.session;

/** A call ran past one of its two clocks; Herald sent {@code notifications/cancelled} for it. */
public final class TimeoutException extends CancelledException {
  private static final long serialVersionUID = 1L;

  /** Which clock ran out. */
  public enum Clock {
    /** No accepted progress (or response) for the idle timeout. */
    IDLE,
    /** The absolute deadline, which progress never extends. */
    ABSOLUTE
  }

  private final Clock clock;

  public TimeoutException(Clock clock, String message) {
    super(message);
    this.clock = clock;
  }

  public Clock clock() {
    return clock;
  }
}
