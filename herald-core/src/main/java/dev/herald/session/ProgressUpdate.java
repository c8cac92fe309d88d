package dev.herald.session;

import java.time.Duration;
import org.jspecify.annotations.Nullable;

/**
 * What a progress bar shows at one render: the last accepted value, the total when the sender gave
 * one ({@code null} means indeterminate; Herald never invents a total), the latest sanitized
 * message, the time since the call started, and whether this is the final render of the call.
 *
 * <p>{@code progress == total} means nothing on its own: a call completes only with its response.
 */
public record ProgressUpdate(
    double progress,
    @Nullable Double total,
    @Nullable String message,
    Duration elapsed,
    long acceptedCount,
    boolean last) {

  /** Whether a total is known, so a percentage may be drawn. */
  public boolean determinate() {
    return total != null && total > 0;
  }

  /** Progress as 0..1 when a total is known, else empty. */
  public java.util.OptionalDouble fraction() {
    Double t = total;
    if (t == null || !determinate()) {
      return java.util.OptionalDouble.empty();
    }
    return java.util.OptionalDouble.of(Math.max(0, Math.min(1, progress / t)));
  }
}
