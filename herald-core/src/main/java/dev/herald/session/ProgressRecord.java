package dev.herald.session;

import java.time.Duration;
import java.util.Map;
import org.jspecify.annotations.Nullable;

/**
 * What one call's progress did: the record a person reads when a bar froze. It tells apart the
 * sender that stopped, the receiver that refused invalid movement, and the UI that did not render.
 *
 * @param tokenHash a short hash of the progress token (never the token itself)
 * @param accepted updates accepted
 * @param rejected updates refused, by reason (late and unknown updates are counted by the session)
 * @param rendered renders delivered to the listener
 * @param lastProgress the last accepted value, or {@code null} if none
 * @param totalKnown whether any accepted update carried a total
 * @param terminal how the call ended, or {@code null} while it runs
 * @param elapsed time from the call's start to its end (or to now)
 * @param sinceLastAccepted time since the last accepted update (or since start)
 */
public record ProgressRecord(
    String tokenHash,
    long accepted,
    Map<ProgressRejection, Long> rejected,
    long rendered,
    @Nullable Double lastProgress,
    boolean totalKnown,
    @Nullable Terminal terminal,
    Duration elapsed,
    Duration sinceLastAccepted) {

  /** How a call ended. */
  public enum Terminal {
    RESPONSE,
    ERROR,
    CANCELLED,
    TIMEOUT_IDLE,
    TIMEOUT_ABSOLUTE,
    CONNECTION_CLOSED
  }

  public long rejectedTotal() {
    return rejected.values().stream().mapToLong(Long::longValue).sum();
  }
}
