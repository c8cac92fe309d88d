package dev.herald.client;

import dev.herald.wire.ResourceUpdatedParams;
import dev.herald.wire.SubscriptionFilter;
import org.jspecify.annotations.Nullable;

/**
 * What a {@link Subscription} delivers (MCP 2026-07-28 basic/patterns/subscriptions; in the
 * handshake era the session's {@code list_changed} and {@code resources/subscribe} updates): list
 * changes of the areas and updates of the resources the filter asked for, and only those. Every
 * method has a no-op default. Called in arrival order on the client's listener thread, never on
 * the transport's reader; a listener that throws is logged and the others still run.
 */
public interface SubscriptionListener {
  /** An area's list changed; the client's cache of it is already stale. */
  default void listChanged(McpClient.Area area) {}

  /** A subscribed resource changed. */
  default void resourceUpdated(ResourceUpdatedParams update) {}

  /**
   * A task named in the filter's {@code taskIds} changed ({@code notifications/tasks} of the
   * 2026-07-28 extension {@code io.modelcontextprotocol/tasks}): the whole detailed task, with its
   * inlined result, error or input requests, and the {@code requestState} the server minted for
   * the next {@code tasks/get}, or {@code null}.
   */
  default void taskStatus(
      dev.herald.wire.TasksExtension.DetailedTask task, @Nullable String requestState) {}

  /**
   * The server said what it will honour of the filter ({@code
   * notifications/subscriptions/acknowledged}); {@code honoured} may be a strict subset of {@code
   * requested}. Called again each time the subscription is re-established.
   */
  default void acknowledged(SubscriptionFilter requested, SubscriptionFilter honoured) {}

  /**
   * The subscription ended for good and will not be re-established: the server refused it, the
   * client closed, or the connection ended ({@code cause}); never called after {@link
   * Subscription#close()}.
   */
  default void ended(@Nullable Throwable cause) {}
}
