package dev.herald.transport.http;

import java.time.Duration;
import java.util.Objects;

/**
 * How a dropped SSE stream is resumed: with {@code GET} and {@code Last-Event-ID}, after the
 * server's {@code retry:} delay, or {@code initialDelay} when the server gave none.
 *
 * <p>A reconnection that opens a new event stream counts as a success and resets the count, so a
 * server that polls (closes the stream every few seconds with a {@code retry:} hint, SEP-1699) can
 * keep a long call alive indefinitely. Each failed reconnection (refused, an HTTP error, not an
 * event stream) doubles the delay, up to {@code maxDelay}; after {@code maxAttempts} failures in a
 * row the stream is given up: the request it carried fails, or the standing stream stays closed.
 *
 * {@snippet :
 * StreamableHttpClientTransport transport = StreamableHttpClientTransport.builder()
 *     .uri(URI.create("http://127.0.0.1:8080/mcp"))
 *     .reconnect(new ReconnectPolicy(Duration.ofMillis(500), Duration.ofSeconds(10), 5))
 *     .build();
 * }
 *
 * @param initialDelay the wait before the first reconnection when the server sent no {@code retry:}
 * @param maxDelay the longest wait between failed reconnections
 * @param maxAttempts failed reconnections in a row before giving up; 0 never reconnects
 */
public record ReconnectPolicy(Duration initialDelay, Duration maxDelay, int maxAttempts) {
  /** One second, doubling up to 30 seconds, five failures in a row. */
  public static final ReconnectPolicy DEFAULT =
      new ReconnectPolicy(Duration.ofSeconds(1), Duration.ofSeconds(30), 5);

  /** Never reconnects: a dropped stream fails the request it carried. */
  public static final ReconnectPolicy NEVER = new ReconnectPolicy(Duration.ZERO, Duration.ZERO, 0);

  /**
   * @throws IllegalArgumentException for a negative delay or count, or {@code maxDelay} shorter
   *     than {@code initialDelay}
   */
  public ReconnectPolicy {
    Objects.requireNonNull(initialDelay, "initialDelay");
    Objects.requireNonNull(maxDelay, "maxDelay");
    if (initialDelay.isNegative()) {
      throw new IllegalArgumentException("initialDelay must not be negative, was " + initialDelay);
    }
    if (maxDelay.compareTo(initialDelay) < 0) {
      throw new IllegalArgumentException(
          "maxDelay " + maxDelay + " is shorter than initialDelay " + initialDelay);
    }
    if (maxAttempts < 0) {
      throw new IllegalArgumentException("maxAttempts must not be negative, was " + maxAttempts);
    }
  }

  /**
   * The wait before a reconnection.
   *
   * @param serverRetryMillis the stream's last {@code retry:} value, or -1 when it sent none
   * @param failures failed reconnections in a row so far
   */
  Duration delay(long serverRetryMillis, int failures) {
    Duration base = serverRetryMillis >= 0 ? Duration.ofMillis(serverRetryMillis) : initialDelay;
    // Never sooner than the server asked (the client MUST wait retry ms), never later than the cap.
    Duration cap = maxDelay.compareTo(base) > 0 ? maxDelay : base;
    Duration d = failures > 0 && base.isZero() ? Duration.ofMillis(100) : base;
    for (int i = 0; i < failures && d.compareTo(cap) < 0; i++) {
      d = d.multipliedBy(2);
    }
    return d.compareTo(cap) > 0 ? cap : d;
  }
}
