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

  /** A builder with nothing set: no clocks of its own, no progress, a 100 ms render interval. */
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

    /**
     * How long the call may go without its response or an accepted progress update before Herald
     * gives up on it (default: none of its own; the connection's default call options apply,
     * which set none unless {@code McpClient.Builder.defaultCallOptions} says otherwise). Only an
     * accepted update resets it; a refused one never does. When it runs out Herald sends {@code
     * notifications/cancelled} and the call fails with {@link TimeoutException} ({@link
     * TimeoutException.Clock#IDLE}). {@code null} leaves it unset.
     *
     * <p>Checked by {@link #build()}: a zero or negative duration is refused there with {@link
     * IllegalArgumentException}.
     */
    public Builder idleTimeout(Duration idleTimeout) {
      this.idleTimeout = idleTimeout;
      return this;
    }

    /**
     * The call's absolute deadline, counted from the moment it is sent (default: none of its own;
     * the connection's default call options apply). Progress never extends it. When it runs out
     * Herald sends {@code notifications/cancelled} and the call fails with {@link
     * TimeoutException} ({@link TimeoutException.Clock#ABSOLUTE}). {@code null} leaves it unset.
     *
     * <p>Checked by {@link #build()}: a zero or negative duration is refused there with {@link
     * IllegalArgumentException}.
     */
    public Builder timeout(Duration timeout) {
      this.timeout = timeout;
      return this;
    }

    /**
     * This call's progress listener (default: none, and then the request carries no progress
     * token, so the peer sends no progress for it). When set, Herald puts a fresh 128-bit random
     * token in the request's {@code _meta.progressToken} and gives this listener the updates for
     * that token only, validated (strictly increasing, finite) and coalesced to {@link
     * #renderInterval}; the last accepted value is delivered before the call completes.
     *
     * @throws NullPointerException if {@code listener} is null
     */
    public Builder progress(ProgressListener listener) {
      this.progress = Objects.requireNonNull(listener, "listener");
      return this;
    }

    /**
     * How often the {@link #progress} listener is called at most (default 100 ms, {@link
     * CallOptions#DEFAULT_RENDER_INTERVAL}); updates in between are coalesced to the latest, and
     * the pending one is flushed when the call ends. {@link Duration#ZERO} delivers every accepted
     * update.
     *
     * <p>Checked by {@link #build()}: a negative duration is refused there with {@link
     * IllegalArgumentException}.
     *
     * @throws NullPointerException if {@code interval} is null
     */
    public Builder renderInterval(Duration interval) {
      this.renderInterval = Objects.requireNonNull(interval, "interval");
      return this;
    }

    /**
     * The options.
     *
     * @throws IllegalArgumentException if a clock is zero or negative, or the render interval is
     *     negative
     */
    public CallOptions build() {
      return new CallOptions(idleTimeout, timeout, progress, renderInterval);
    }
  }
}
