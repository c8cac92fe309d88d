package dev.herald.http;

/**
 * This server's membership in a cluster of Herald nodes behind a load balancer, sharing their
 * sessions' state (docs/scale-out.md). Made by a scale-out module, such as herald-redis's {@code
 * RedisCluster}, and given to {@link EndpointBuilder#cluster}.
 *
 * <p>With a cluster, any node serves any request of a handshake-era session (MCP 2025-11-25
 * basic/transports, "Session Management"): a session id this node does not know is looked up in
 * the cluster's directory and served here from the state found there; only what must reach a
 * stream held by another node (an unsolicited notification for a session whose standing stream is
 * there, a cancellation or an answer for a request running there) crosses nodes. Without one, a
 * server is the single node it always was.
 *
 * <p>Implemented by Herald's scale-out modules only: {@link EndpointBuilder#cluster} refuses an
 * implementation it does not know.
 */
public interface ClusterMember {
  /** This node's id, unique within the cluster. */
  String nodeId();
}
