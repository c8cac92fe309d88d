package dev.herald.internal.session;

import org.jspecify.annotations.Nullable;
import tools.jackson.databind.node.ObjectNode;

/**
 * Handles one notification method. Runs on the transport's reader, in arrival order: it must not
 * block, and must hand user callbacks to another thread.
 */
@FunctionalInterface
public interface NotificationHandler {
  void handle(@Nullable ObjectNode params);

  /**
   * The capability the peer must have declared for this notification to be acted on and did not
   * (MCP specification, basic/lifecycle "Capability Negotiation"), or {@code null} to handle it.
   * Asked on the reader just before {@link #handle}; a notification refused here is dropped with a
   * debug log and reported to the session's listener as {@link
   * dev.herald.session.EventListener.DropReason#NOT_DECLARED}. By default nothing is missing.
   */
  default @Nullable String missingCapability() {
    return null;
  }

  /**
   * Finds the handler of a notification method for one session, or {@code null} for a method it
   * does not handle. It may make the handler on each call (notifications are few): one small
   * router per session instead of a map of handlers per session.
   */
  @FunctionalInterface
  interface Router {
    @Nullable NotificationHandler find(String method);
  }
}
