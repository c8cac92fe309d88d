package dev.herald.http.internal;

import dev.herald.internal.server.SessionState;
import dev.herald.server.McpServer;

/**
 * What a cluster may do to the endpoint of its node (docs/scale-out.md): deliver what other nodes
 * relay, forward or change. Given to {@link ClusterSeam#attach}.
 *
 * <p>Thread-safe; every method returns without waiting on the network.
 */
public final class ClusterHost {
  private final ClusterLink link;

  ClusterHost(ClusterLink link) {
    this.link = link;
  }

  /** The MCP server this endpoint serves. */
  public McpServer server() {
    return link.endpoint.config.mcp;
  }

  /**
   * An unsolicited message another node made for a session whose standing stream this node holds:
   * written to that stream (or kept for it until a GET opens), once.
   */
  public void relayed(String sessionId, byte[] json) {
    link.relayed(sessionId, json);
  }

  /**
   * A client message that reached another node for a request or call of this session: handed to
   * this node's session if it runs that request or waits for that answer, else ignored.
   */
  public void forwarded(String sessionId, byte[] json) {
    link.forwarded(sessionId, json);
  }

  /**
   * Another node changed the session's state, and its home unless {@code homeNode} is null (a
   * home claim made at {@code claimedAt}, ms since the epoch): this node's copy follows. A claim
   * older than one this node already knows is stale (heard late) and ignored with its state.
   */
  public void refreshed(
      String sessionId,
      SessionState state,
      @org.jspecify.annotations.Nullable String homeNode,
      long claimedAt) {
    link.refreshed(sessionId, state, homeNode, claimedAt);
  }

  /** Another node asks to follow a stream this node produces (its client resumed there). */
  public void followRequested(String sessionId, String streamId, String follower) {
    link.followRequested(sessionId, streamId, follower);
  }

  /** The producer of a stream this node follows said its state. */
  public void following(
      String sessionId, String streamId, long seq, ClusterSeam.FollowState state) {
    link.followAnswered(sessionId, streamId, seq, state);
  }

  /** A new event of a stream this node follows. */
  public void streamEvent(String sessionId, String streamId, long seq, byte[] json, boolean last) {
    link.streamEvent(sessionId, streamId, seq, json, last);
  }

  /** A stream this node followed was resumed elsewhere. */
  public void unfollowed(String sessionId, String streamId) {
    link.unfollowed(sessionId, streamId);
  }

  /** The client ended the session on another node: it ends here too. */
  public void ended(String sessionId) {
    link.ended(sessionId);
  }

  /**
   * The state of every session whose standing stream this node holds (or that it started and no
   * other node took), so a cluster can record them again after its shared state was lost.
   */
  public java.util.Map<String, SessionState> homeSessions() {
    return link.homeSessions();
  }

  /** Sessions this node serves now (its own and copies of others'). */
  public int sessionCount() {
    return link.endpoint.sessions.size();
  }
}
