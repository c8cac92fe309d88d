package dev.herald.internal.server;

import dev.herald.wire.LoggingLevel;
import tools.jackson.databind.node.ObjectNode;

/**
 * Told of the server-wide notifications that start on this node, so a cluster can have every other
 * node fan them out to the sessions it holds (docs/scale-out.md, "Fan-out"). Not told of what
 * another node started and this one only applies ({@link ClusterAccess#applyListChanged} and the
 * like), so nothing echoes.
 *
 * <p>Called on the thread that made the change; implementations return quickly and never throw.
 */
public interface ServerWideListener {
  /** A server-wide catalog changed: {@code area} is {@code tools}, {@code resources} or {@code prompts}. */
  void listChanged(String area);

  /** {@link dev.herald.server.McpServer#notifyResourceUpdated} was called for {@code uri}. */
  void resourceUpdated(String uri);

  /** {@link dev.herald.server.McpServer#log} was called; {@code params} is the cleaned message. */
  void logged(LoggingLevel level, ObjectNode params);
}
