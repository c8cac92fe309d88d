/**
 * Scale-out on Redis. {@link dev.herald.redis.RedisStores} connects once and hands out the stores a
 * Herald node shares with the others: {@link dev.herald.http.EventStore} on Redis Streams, {@link
 * dev.herald.tasks.TaskStore}, and the node's {@link dev.herald.redis.ClusterNode} heartbeat.
 * Everything else in the package is package-private.
 *
 * <p>Threading: every public type is thread-safe; store calls block the calling thread for at most
 * the command timeout. Null policy: nothing is null unless marked {@code @Nullable}.
 */
@NullMarked
package dev.herald.redis;

import org.jspecify.annotations.NullMarked;
