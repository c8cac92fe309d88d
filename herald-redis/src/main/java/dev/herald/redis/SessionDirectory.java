package dev.herald.redis;

import dev.herald.http.internal.ClusterSeam;
import dev.herald.internal.server.SessionState;
import java.time.Duration;
import java.util.Map;
import java.util.Optional;
import org.jspecify.annotations.Nullable;

/**
 * The session directory (docs/scale-out.md): one hash per session, {@code <prefix>session:<id>},
 * with the session's {@code state} and its {@code home} node, expiring {@code ttl} after its last
 * write or lookup. Blocking calls, for virtual threads; each waits at most the command timeout and
 * fails with {@link RedisUnavailableException}, except that a lookup rides out a reconnection (see
 * {@link #lookup}).
 */
final class SessionDirectory {
  /**
   * How long a lookup waits for a connection that is reconnecting; below the endpoint's own bound
   * on a lookup (5 s), so a Redis still down is answered 503 by the endpoint, not cut off.
   */
  static final Duration LOOKUP_PATIENCE = Duration.ofSeconds(3);

  private final Redis redis;
  private final long ttlSeconds;
  private final Duration patience;

  SessionDirectory(Redis redis, Duration ttl) {
    this(redis, ttl, LOOKUP_PATIENCE);
  }

  SessionDirectory(Redis redis, Duration ttl, Duration lookupPatience) {
    this.redis = redis;
    this.ttlSeconds = Math.max(1, ttl.toSeconds());
    this.patience = lookupPatience;
  }

  private String key(String sessionId) {
    return redis.key("session:" + sessionId);
  }

  /**
   * The session's record, or empty if no node knows it (or its record is unreadable). While this
   * node's connection is down and reconnecting, the read is tried again for up to the lookup
   * patience: after a Redis restart each node reconnects on its own, and a request for a session
   * made on a node that is back must not fail on one that is a moment behind (its client would
   * give the session up and start another).
   */
  Optional<ClusterSeam.SessionRecord> lookup(String sessionId) {
    String key = key(sessionId);
    Map<String, byte[]> fields =
        redis.callThroughReconnect("read a session", patience, () -> redis.sync().hgetall(key));
    byte[] state = fields.get("state");
    byte[] home = fields.get("home");
    byte[] homeAt = fields.get("homeAt");
    if (state == null || home == null) {
      return Optional.empty();
    }
    try {
      redis.call("refresh a session", () -> redis.sync().expire(key, ttlSeconds));
    } catch (RedisUnavailableException e) {
      // the record was read: the next use pushes its expiry back
    }
    try {
      return Optional.of(
          new ClusterSeam.SessionRecord(
              SessionStateCodec.decode(state), Redis.string(home), millis(homeAt)));
    } catch (IllegalArgumentException e) {
      return Optional.empty();
    }
  }

  private static long millis(byte @Nullable [] at) {
    try {
      return at == null ? 0 : Long.parseLong(Redis.string(at));
    } catch (NumberFormatException e) {
      return 0;
    }
  }

  /** A session's home in the directory and when it was claimed (ms; 0 if not dated). */
  record Home(String node, long claimedAt) {}

  /**
   * KEYS: the session. ARGV: state, TTL seconds, home node ("" for none), claim time (ms).
   * Returns the home recorded after the write and its claim time, as "home\nclaimedAt".
   */
  private static final Script WRITE =
      new Script(
          """
          redis.call('HSET', KEYS[1], 'state', ARGV[1])
          if ARGV[3] ~= '' then
            local at = tonumber(redis.call('HGET', KEYS[1], 'homeAt') or '0')
            if tonumber(ARGV[4]) >= at then
              redis.call('HSET', KEYS[1], 'home', ARGV[3], 'homeAt', ARGV[4])
            end
          end
          redis.call('EXPIRE', KEYS[1], ARGV[2])
          local home = redis.call('HMGET', KEYS[1], 'home', 'homeAt')
          return (home[1] or '') .. '\\n' .. (home[2] or '0')
          """);

  /**
   * Writes the session's state, and its home unless {@code homeNode} is null (the home is
   * unchanged), and refreshes its expiry. A home claim made at {@code claimedAtMillis} replaces
   * only a claim made no later: a claim whose write was delayed (a busy node's queue) cannot take
   * the home back from a standing GET opened after it on another node.
   *
   * @return the session's home after the write (node "" if none is recorded)
   */
  Home write(
      String sessionId, SessionState state, @Nullable String homeNode, long claimedAtMillis) {
    String[] keys = {key(sessionId)};
    byte[] home =
        redis.call(
            "record a session",
            () ->
                WRITE.bytes(
                    redis,
                    keys,
                    SessionStateCodec.encode(state),
                    Redis.bytes(ttlSeconds),
                    Redis.bytes(homeNode == null ? "" : homeNode),
                    Redis.bytes(claimedAtMillis)));
    String h = home == null ? "" : Redis.string(home);
    int nl = h.indexOf('\n');
    return nl < 0
        ? new Home(h, 0)
        : new Home(h.substring(0, nl), millis(Redis.bytes(h.substring(nl + 1))));
  }

  /**
   * The cluster's epoch: a random value set by the first node that finds none. A Redis that
   * restarted empty has none, so a node that sees a value other than the one it saw before knows
   * the directory was lost and records its sessions again.
   */
  String epoch() {
    String key = redis.key("epoch");
    byte[] v = redis.call("read the cluster's epoch", () -> redis.sync().get(key));
    if (v == null) {
      byte[] mine = Redis.bytes(java.util.UUID.randomUUID().toString());
      redis.call(
          "mark the cluster's epoch",
          () -> redis.sync().set(key, mine, io.lettuce.core.SetArgs.Builder.nx()));
      v = redis.call("read the cluster's epoch", () -> redis.sync().get(key));
    }
    return v == null ? "" : Redis.string(v);
  }

  /** Pushes back the session's expiry. */
  void touch(String sessionId) {
    String key = key(sessionId);
    redis.call("refresh a session", () -> redis.sync().expire(key, ttlSeconds));
  }

  /** Forgets the session (the client ended it). */
  void remove(String sessionId) {
    String key = key(sessionId);
    redis.call("forget a session", () -> redis.sync().del(key));
  }
}
