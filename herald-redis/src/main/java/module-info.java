/**
 * Herald on Redis: several Herald nodes behind a load balancer share one Redis (MCP 2025-11-25
 * basic/transports, "Resumability and Redelivery": a client resumes its stream on any node). Entry
 * point: {@link dev.herald.redis.RedisStores}, which builds the SSE event store (on Redis Streams),
 * the task store and this node's liveness record from one connection; {@link
 * dev.herald.redis.RedisCluster} makes a server a node of a cluster in which any node serves any
 * session (docs/scale-out.md). Lettuce is the Redis client;
 * it and Netty are automatic modules on the module path.
 */
module dev.herald.redis {
  requires transitive dev.herald.http;
  requires lettuce.core;
  requires static org.jspecify;

  exports dev.herald.redis;
}
