package dev.herald.session;

import org.jspecify.annotations.Nullable;

/**
 * A handler's way to report progress on its request. It only sends when the request carried
 * {@code _meta.progressToken}; otherwise every call is a no-op (the peer did not ask).
 *
 * <p>Values must strictly increase and be finite: a value that does not is refused (returns
 * {@code false}) and never sent. Updates are coalesced: at most one notification per cadence goes
 * on the wire, and the last value is always flushed before the response. After the response (or a
 * cancellation) every call is refused.
 *
 * <p>Thread-safe.
 */
public interface ProgressReporter {

  /** Whether the peer asked for progress on this request. */
  boolean requested();

  /**
   * Reports {@code progress}, optionally out of {@code total}, with an optional human-readable
   * message (which must carry no secrets).
   *
   * @return {@code true} if accepted for sending, {@code false} if refused or not requested
   */
  boolean report(double progress, @Nullable Double total, @Nullable String message);

  default boolean report(double progress) {
    return report(progress, null, null);
  }

  /**
   * Reports {@code done} out of {@code of} as a whole percentage (0..100 of 100), so the peer never
   * learns raw counts or sizes (SA-MCP-PRG-002). Only a percentage that moved is sent.
   */
  boolean percent(long done, long of, @Nullable String message);

  /**
   * Changes this request's coalescing cadence: at most one notification per {@code interval};
   * {@link java.time.Duration#ZERO} puts every accepted value on the wire. Returns this reporter.
   */
  default ProgressReporter cadence(java.time.Duration interval) {
    return this;
  }

  /** A reporter for a request that asked for no progress. */
  ProgressReporter NONE =
      new ProgressReporter() {
        @Override
        public boolean requested() {
          return false;
        }

        @Override
        public boolean report(double progress, @Nullable Double total, @Nullable String message) {
          return false;
        }

        @Override
        public boolean percent(long done, long of, @Nullable String message) {
          return false;
        }
      };
}
