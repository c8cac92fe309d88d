package dev.herald.wire;

import com.fasterxml.jackson.annotation.JsonProperty;
import org.jspecify.annotations.Nullable;
import tools.jackson.databind.node.ObjectNode;

/**
 * Params of {@code notifications/cancelled}. {@code requestId} is optional in the 2025-11-25
 * schema (tasks are cancelled otherwise); a cancellation without it is ignored.
 */
public record CancelledNotificationParams(
    @Nullable RequestId requestId,
    @Nullable String reason,
    @JsonProperty("_meta") @Nullable ObjectNode meta) {

  public static CancelledNotificationParams of(RequestId id, @Nullable String reason) {
    return new CancelledNotificationParams(id, reason, null);
  }
}
