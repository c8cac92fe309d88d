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

  /**
   * The event store every node of the cluster shares, so that a stream's events can be replayed
   * by any node; the endpoint uses it unless the application gave its own. Null: the endpoint's
   * default (in memory, this node only).
   */
  default dev.herald.http.@org.jspecify.annotations.Nullable EventStore eventStore() {
    return null;
  }

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
   * lost the stream cannot take it back. {@code claimedAt} dates the home claim (ms since the
   * epoch; unused without one): a claim replaces only an older one, in the directory and on every
   * node that hears of it. The future completes once recorded.
   */
  CompletableFuture<?> stateChanged(
      String sessionId,
      SessionState state,
      @org.jspecify.annotations.Nullable String homeNode,
      long claimedAt);

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

  // ------------------------------------------------------------ resuming a stream on another node

  /**
   * A request's stream of this session became an SSE stream here: recorded with {@code
   * failure}, the JSON-RPC error response (UTF-8 JSON) another node ends the stream with if this node dies
   * before the response (docs/scale-out.md, "Resuming on another node"). The future completes once
   * recorded.
   */
  default CompletableFuture<?> streamOpened(String sessionId, String streamId, byte[] failure) {
    return CompletableFuture.completedFuture(null);
  }

  /** Who produces a stream of this session, as recorded by {@link #streamOpened}. */
  default CompletableFuture<Optional<StreamRecord>> stream(String sessionId, String streamId) {
    return CompletableFuture.completedFuture(Optional.empty());
  }

  /** Asks {@code producer} to send this node the new events of a stream it produces. */
  default void follow(String producer, String sessionId, String streamId) {}

  /**
   * To {@code follower}: the state of a stream it asked to follow, or of one it follows (sent
   * before any event after {@code seq}).
   */
  default void following(
      String follower,
      String sessionId,
      String streamId,
      long seq,
      ClusterSeam.FollowState state) {}

  /** To {@code follower}: a new event of a stream it follows; {@code last} ends the stream. */
  default void streamEvent(
      String follower, String sessionId, String streamId, long seq, byte[] json, boolean last) {}

  /** To {@code follower}: the client resumed the stream elsewhere; stop serving it. */
  default void unfollowed(String follower, String sessionId, String streamId) {}

  /**
   * Whether {@code node} is alive (its heartbeat did not expire).
   *
   * @throws RuntimeException if the shared state cannot be reached
   */
  default boolean alive(String node) {
    return true;
  }

  /** What a stream's producer says of it to the node that follows it. */
  enum FollowState {
    /** Still producing: events after the given sequence number follow, in order. */
    LIVE,
    /** It ended with its response: every event is in the shared store. */
    ENDED,
    /** Its request was cancelled: it ends with no response. */
    CANCELLED,
    /** The producer no longer holds it (its session ended there, or it never knew it). */
    GONE
  }

  /**
   * The node producing a stream and the error response (UTF-8 JSON) that ends it if that node
   * dies.
   */
  record StreamRecord(String node, String failure) {}

  /**
   * A session's record in the directory: its state, the node holding its standing stream, and
   * when that node claimed it (ms since the epoch on the claiming node's clock; 0 if unknown).
   */
  record SessionRecord(SessionState state, String homeNode, long homeClaimedAt) {
    /** A record whose home claim is not dated. */
    public SessionRecord(SessionState state, String homeNode) {
      this(state, homeNode, 0);
    }
  }
}
