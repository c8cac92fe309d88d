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
}
