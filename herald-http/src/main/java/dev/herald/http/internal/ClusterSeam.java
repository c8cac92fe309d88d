package dev.herald.http.internal;

import dev.herald.internal.server.SessionState;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;

/**
 * What an endpoint asks of the cluster it belongs to (docs/scale-out.md); implemented by a
 * scale-out module (herald-redis), which finds it for its public {@code ClusterMember} through
 * {@link ClusterSeams}.
 *
 * <p>Every method returns without waiting on the network unless it returns a future; futures
 * complete (possibly exceptionally, when the shared state cannot be reached) within a bounded
 * time the implementation chooses.
 */
public interface ClusterSeam {
  /** This node's id. */
  String nodeId();

  /** The endpoint this node serves; called once, when it starts. */
  void attach(ClusterHost host);

  /** The endpoint stops: stop delivering to it. */
  void detach(ClusterHost host);

  /** A session id this node does not know: its record, or empty if no node knows it. */
  CompletableFuture<Optional<SessionRecord>> lookup(String sessionId);

  /**
   * The session's state changed on this node: record it and tell the other nodes. {@code
   * homeNode} is this node when it takes the session's standing stream (the session started here,
   * or a GET opened here), else null: the home is left as it is, so a late write from a node that
   * lost the stream cannot take it back. The future completes once recorded.
   */
  CompletableFuture<?> stateChanged(
      String sessionId, SessionState state, @org.jspecify.annotations.Nullable String homeNode);

  /** An unsolicited message for a session whose standing stream is held by {@code homeNode}. */
  void relay(String sessionId, String homeNode, byte[] json);

  /**
   * A client message (a cancellation, an answer or progress) for a request or call this node does
   * not hold: to the other nodes that hold the session.
   */
  void forward(String sessionId, byte[] json);

  /**
   * The client used the session on this node: its record's expiry is pushed back. Called at most
   * once per {@link ClusterLink#TOUCH_INTERVAL_SECONDS} per session and node.
   */
  default void touched(String sessionId) {}

  /** The client ended the session ({@code DELETE}): it ends on every node and is forgotten. */
  void ended(String sessionId);

  /** A session's record in the directory: its state and the node holding its standing stream. */
  record SessionRecord(SessionState state, String homeNode) {}
}
