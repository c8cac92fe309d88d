package dev.herald.session;

import dev.herald.wire.ClientCapabilities;
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
 *       extends it. No call is unbounded by default: a call that sets none gets the connection's
 *       default, and when that sets none either, {@link #DEFAULT_TIMEOUT} (10 minutes), so that a
 *       peer cannot hold a call forever. Only {@link Builder#noTimeout()} turns it off.
 *   <li>{@code unbounded}: the call asked explicitly for no absolute deadline ({@link
 *       Builder#noTimeout()}); {@code timeout} is then {@code null}.
 *   <li>{@code progress}: a listener; when set, Herald attaches a fresh 128-bit random progress
 *       token to the request and routes updates for that token to this listener only.
 *   <li>{@code renderInterval}: the listener's cadence (default 100 ms); {@link Duration#ZERO}
 *       delivers every accepted update.
 *   <li>{@code capabilities}: client capabilities for this one request, added to what the client
 *       declared (SEP-2575, MCP 2026-07-28 basic/index "_meta": {@code
 *       io.modelcontextprotocol/clientCapabilities}); they never revoke and never outlive the
 *       request. {@code null}: none beyond the client's.
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
    Duration renderInterval,
    boolean unbounded,
    @Nullable ClientCapabilities capabilities) {

  public static final Duration DEFAULT_RENDER_INTERVAL = Duration.ofMillis(100);

  /**
   * The absolute deadline of a call for which neither its own options nor the connection's
   * defaults set one: 10 minutes. Generous on purpose: it exists so that no call waits forever on
   * a peer that never answers (MCP specification, basic/lifecycle "Timeouts": implementations
   * should establish timeouts for all sent requests).
   */
  public static final Duration DEFAULT_TIMEOUT = Duration.ofMinutes(10);

  /** The fallback every call's options are completed with: {@link #DEFAULT_TIMEOUT}, nothing else. */
  private static final CallOptions BOUNDED =
      new CallOptions(null, DEFAULT_TIMEOUT, null, DEFAULT_RENDER_INTERVAL, false, null);

  /**
   * @throws IllegalArgumentException if a clock is zero or negative, the render interval is
   *     negative, or {@code unbounded} is set together with a {@code timeout}
   */
  public CallOptions {
    Objects.requireNonNull(renderInterval, "renderInterval");
    requirePositive(idleTimeout, "idleTimeout");
    requirePositive(timeout, "timeout");
    if (renderInterval.isNegative()) {
      throw new IllegalArgumentException("renderInterval must not be negative: " + renderInterval);
    }
    if (unbounded && timeout != null) {
      throw new IllegalArgumentException("a call cannot have both a timeout and no timeout");
    }
  }

  /** Options whose absolute deadline is {@code timeout}, or unset when it is {@code null}. */
  public CallOptions(
      @Nullable Duration idleTimeout,
      @Nullable Duration timeout,
      @Nullable ProgressListener progress,
      Duration renderInterval) {
    this(idleTimeout, timeout, progress, renderInterval, false, null);
  }

  /** Options without per-request capabilities. */
  public CallOptions(
      @Nullable Duration idleTimeout,
      @Nullable Duration timeout,
      @Nullable ProgressListener progress,
      Duration renderInterval,
      boolean unbounded) {
    this(idleTimeout, timeout, progress, renderInterval, unbounded, null);
  }

  private static void requirePositive(@Nullable Duration d, String name) {
    if (d != null && (d.isNegative() || d.isZero())) {
      throw new IllegalArgumentException(name + " must be positive: " + d);
    }
  }

  /**
   * No clocks of its own and no progress: the defaults of the connection apply, and when they set
   * no absolute deadline, {@link #DEFAULT_TIMEOUT}.
   */
  public static CallOptions defaults() {
    return new CallOptions(null, null, null, DEFAULT_RENDER_INTERVAL, false, null);
  }

  /** A builder with nothing set: no clocks of its own, no progress, a 100 ms render interval. */
  public static Builder builder() {
    return new Builder();
  }

  /**
   * These options with unset clocks filled from {@code fallback}. An absolute deadline is set when
   * it has a {@code timeout} or is {@code unbounded}; only an unset one is taken from {@code
   * fallback}.
   */
  public CallOptions orDefaults(CallOptions fallback) {
    boolean deadlineSet = timeout != null || unbounded;
    return new CallOptions(
        idleTimeout != null ? idleTimeout : fallback.idleTimeout,
        deadlineSet ? timeout : fallback.timeout,
        progress,
        renderInterval,
        deadlineSet ? unbounded : fallback.unbounded,
        capabilities);
  }

  /**
   * These options as a call runs with them: filled from the connection's {@code defaults}, and
   * then, when no absolute deadline was set or explicitly turned off, {@link #DEFAULT_TIMEOUT}.
   */
  public CallOptions effective(CallOptions defaults) {
    return orDefaults(defaults).orDefaults(BOUNDED);
  }

  /** Builds {@link CallOptions}. */
  public static final class Builder {
    private @Nullable Duration idleTimeout;
    private @Nullable Duration timeout;
    private @Nullable ProgressListener progress;
    private Duration renderInterval = DEFAULT_RENDER_INTERVAL;
    private boolean unbounded;
    private @Nullable ClientCapabilities capabilities;

    private Builder() {}

    /**
     * Client capabilities for this request only, added to those the client declared (SEP-2575;
     * default: none beyond the client's). A 2026-07-28 request carries the union in {@code
     * _meta["io.modelcontextprotocol/clientCapabilities"]}; a handshake-era request carries these
     * extras there, which the server adds to the session's for this request. They open
     * request-bound behaviour only (an elicitation in this call's round trips, say), never
     * unsolicited notifications. Calling it again adds to what was given before.
     *
     * @throws NullPointerException if {@code capabilities} is null
     */
    public Builder capabilities(ClientCapabilities capabilities) {
      Objects.requireNonNull(capabilities, "capabilities");
      this.capabilities =
          this.capabilities == null ? capabilities : this.capabilities.union(capabilities);
      return this;
    }

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
     * the connection's default call options apply, and when they set none, {@link
     * CallOptions#DEFAULT_TIMEOUT}, 10 minutes). Progress never extends it. When it runs out
     * Herald sends {@code notifications/cancelled} (before the call fails) and the call fails with
     * {@link TimeoutException} ({@link TimeoutException.Clock#ABSOLUTE}). {@code null} leaves it
     * unset. Replaces an earlier {@link #noTimeout()}.
     *
     * <p>Checked by {@link #build()}: a zero or negative duration is refused there with {@link
     * IllegalArgumentException}.
     */
    public Builder timeout(Duration timeout) {
      this.timeout = timeout;
      this.unbounded = false;
      return this;
    }

    /**
     * No absolute deadline at all: the call may wait for its response as long as the connection
     * lasts (an idle timeout, when set, still applies). Off by default: a call without a deadline
     * of its own gets the connection's, or {@link CallOptions#DEFAULT_TIMEOUT}. Replaces an
     * earlier {@link #timeout(Duration)}.
     */
    public Builder noTimeout() {
      this.timeout = null;
      this.unbounded = true;
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
      return new CallOptions(
          idleTimeout, timeout, progress, renderInterval, unbounded, capabilities);
    }
  }
}
