package dev.herald.session;

import java.time.Duration;
import java.util.Objects;
import org.jspecify.annotations.Nullable;

/**
 * Per-call options: the two clocks and progress.
 *
 * <ul>
 *   <li>{@code idleTimeout}: how long the call may go without a response or an accepted progress
 *       update. Only an accepted update resets it (a refused one never does).
 *   <li>{@code timeout}: the absolute deadline from the moment the call is sent; progress never
 *       extends it.
 *   <li>{@code progress}: a listener; when set, Herald attaches a fresh 128-bit random progress
 *       token to the request and routes updates for that token to this listener only.
 *   <li>{@code renderInterval}: the listener's cadence (default 100 ms); {@link Duration#ZERO}
 *       delivers every accepted update.
 * </ul>
 *
 * {@snippet :
 * CallOptions options = CallOptions.builder()
 *     .progress(update -> bar.show(update))
 *     .idleTimeout(Duration.ofSeconds(30))
 *     .timeout(Duration.ofMinutes(5))
 *     .build();
 * }
 */
public record CallOptions(
    @Nullable Duration idleTimeout,
    @Nullable Duration timeout,
    @Nullable ProgressListener progress,
    Duration renderInterval) {

  public static final Duration DEFAULT_RENDER_INTERVAL = Duration.ofMillis(100);

  public CallOptions {
    Objects.requireNonNull(renderInterval, "renderInterval");
    requirePositive(idleTimeout, "idleTimeout");
    requirePositive(timeout, "timeout");
    if (renderInterval.isNegative()) {
      throw new IllegalArgumentException("renderInterval must not be negative: " + renderInterval);
    }
  }

  private static void requirePositive(@Nullable Duration d, String name) {
    if (d != null && (d.isNegative() || d.isZero())) {
      throw new IllegalArgumentException(name + " must be positive: " + d);
    }
  }

  /** No timeouts and no progress: the defaults of the connection apply. */
  public static CallOptions defaults() {
    return new CallOptions(null, null, null, DEFAULT_RENDER_INTERVAL);
  }

  public static Builder builder() {
    return new Builder();
  }

  /** These options with unset clocks filled from {@code fallback}. */
  public CallOptions orDefaults(CallOptions fallback) {
    return new CallOptions(
        idleTimeout != null ? idleTimeout : fallback.idleTimeout,
        timeout != null ? timeout : fallback.timeout,
        progress,
        renderInterval);
  }

  /** Builds {@link CallOptions}. */
  public static final class Builder {
    private @Nullable Duration idleTimeout;
    private @Nullable Duration timeout;
    private @Nullable ProgressListener progress;
    private Duration renderInterval = DEFAULT_RENDER_INTERVAL;

    private Builder() {}

    public Builder idleTimeout(Duration idleTimeout) {
      this.idleTimeout = idleTimeout;
      return this;
    }

    public Builder timeout(Duration timeout) {
      this.timeout = timeout;
      return this;
    }

    public Builder progress(ProgressListener listener) {
      this.progress = Objects.requireNonNull(listener, "listener");
      return this;
    }

    public Builder renderInterval(Duration interval) {
      this.renderInterval = Objects.requireNonNull(interval, "interval");
      return this;
    }

    public CallOptions build() {
      return new CallOptions(idleTimeout, timeout, progress, renderInterval);
    }
  }
}
