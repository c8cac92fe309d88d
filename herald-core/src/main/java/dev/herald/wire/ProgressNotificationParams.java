package dev.herald.wire;

import com.fasterxml.jackson.annotation.JsonProperty;
import java.math.BigDecimal;
import org.jspecify.annotations.Nullable;
import tools.jackson.databind.node.ObjectNode;

/**
 * Params of {@code notifications/progress}. Numbers are kept as {@link BigDecimal} so that their
 * value is exactly what was on the wire; {@link #progressValue()} gives the double used for
 * ordering (non-finite when the wire value does not fit a double).
 */
public record ProgressNotificationParams(
    ProgressToken progressToken,
    BigDecimal progress,
    @Nullable BigDecimal total,
    @Nullable String message,
    @JsonProperty("_meta") @Nullable ObjectNode meta) {

  public ProgressNotificationParams {
    java.util.Objects.requireNonNull(progressToken, "progressToken");
    java.util.Objects.requireNonNull(progress, "progress");
  }

  public static ProgressNotificationParams of(
      ProgressToken token, double progress, @Nullable Double total, @Nullable String message) {
    return new ProgressNotificationParams(
        token,
        BigDecimal.valueOf(progress),
        total == null ? null : BigDecimal.valueOf(total),
        message,
        null);
  }

  public double progressValue() {
    return progress.doubleValue();
  }

  public @Nullable Double totalValue() {
    return total == null ? null : total.doubleValue();
  }
}
