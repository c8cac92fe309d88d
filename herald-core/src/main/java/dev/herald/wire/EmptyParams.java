package dev.herald.wire;

import com.fasterxml.jackson.annotation.JsonProperty;
import org.jspecify.annotations.Nullable;
import tools.jackson.databind.node.ObjectNode;

/**
 * Params that carry only {@code _meta} (MCP {@code RequestParams} / {@code NotificationParams}):
 * {@code ping}, {@code server/discover}, {@code roots/list}, {@code notifications/initialized} and
 * the {@code list_changed} notifications.
 */
public record EmptyParams(@JsonProperty("_meta") @Nullable ObjectNode meta) {
  private static final EmptyParams EMPTY = new EmptyParams(null);

  public static EmptyParams empty() {
    return EMPTY;
  }

  /** {@code _meta["io.modelcontextprotocol/subscriptionId"]} of a list_changed notification, or {@code null}. */
  public @Nullable RequestId subscriptionId() {
    return MetaKeys.subscriptionId(meta);
  }
}
