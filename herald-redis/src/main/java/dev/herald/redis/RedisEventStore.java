package dev.herald.redis;

import dev.herald.http.EventStore;
import dev.herald.http.internal.BatchAppends;
import io.lettuce.core.RedisCommandExecutionException;
import io.lettuce.core.RedisFuture;
import io.lettuce.core.RedisNoScriptException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.jspecify.annotations.Nullable;

/**
 * An {@link EventStore} on Redis Streams, shared by every node: an event appended on one node is
 * replayed by any other (MCP 2025-11-25 basic/transports, "Resumability and Redelivery").
 *
 * <p>Design note. Each (session, stream) is one Redis stream whose entry ids are the events'
 * sequence numbers ({@code <seq>-0}), so a replay after {@code Last-Event-ID} is one {@code XRANGE}
 * from {@code afterSeq + 1}, gaps in the numbering included. Each entry holds the message ({@code
 * m}) and the Redis time it was stored at ({@code t}). A per-session hash holds, for each of its
 * streams, the bytes kept ({@code b:<stream>}), the highest sequence number forgotten ({@code
 * f:<stream>}) and the last one appended ({@code l:<stream>}); it is also the list of the session's
 * streams that {@link #removeSession} deletes. Both are changed only by the Lua scripts below, so
 * each call is atomic and costs one round trip. The bounds are enforced exactly per stream: at
 * most {@code eventsPerStream} events and {@code bytesPerStream} bytes (message plus {@link
 * #OVERHEAD_BYTES} per event), oldest first, and no event older than {@code maxAge} (by Redis's
 * clock, so nodes' clocks do not matter); an event larger than the byte bound is not kept but
 * counts as forgotten. Every append refreshes the stream key's TTL to {@code maxAge}, so an idle
 * stream disappears with its last event; the session hash lives {@code maxAge} plus one hour past
 * its last append, so that a resumption of a stream that expired as a whole is still refused (a
 * gap) for that long. The whole-store byte bound of the in-memory store is not enforced here:
 * Redis's {@code maxmemory} is that bound.
 *
 * <p>{@link #append} returns once Redis acknowledged the event; the server writes the event to its
 * client after that, so an event a client saw is readable from every node. A Redis failure makes
 * the call throw {@link RedisUnavailableException} within the command timeout. {@link #appendAll}
 * (a fan-out's events, one per session) sends the same script once per event without waiting in
 * between, so the batch costs one round trip instead of one per event: Redis runs the scripts one
 * after the other, in order, each as atomic as a lone {@link #append}. The system property {@code
 * herald.redis.batchAppends=false} turns this off (each event then makes its own round trip), to
 * measure the difference.
 *
 * <p>Thread-safe.
 */
final class RedisEventStore implements EventStore, BatchAppends {
  /** What an event costs beyond its message, for the byte bound: the entry, its id and fields. */
  static final long OVERHEAD_BYTES = 64;

  /** How much longer a session's bookkeeping lives than its events. */
  static final Duration META_GRACE = Duration.ofHours(1);

  // The trim loop, shared by append and replay: drops head entries over a bound, remembering the
  // highest forgotten sequence number. Locals: key, now, maxEvents, maxBytes, maxAge, overhead,
  // bytes, forgot.
  private static final String TRIM =
      """
      local n = redis.call('XLEN', key)
      while n > 0 do
        local head = redis.call('XRANGE', key, '-', '+', 'COUNT', 1)[1]
        local f = head[2]
        if n > maxEvents or bytes > maxBytes or now - tonumber(f[2]) >= maxAge then
          redis.call('XDEL', key, head[1])
          bytes = bytes - string.len(f[4]) - overhead
          n = n - 1
          local s = tonumber(string.match(head[1], '^(%d+)'))
          if s > forgot then forgot = s end
        else
          break
        end
      end
      """;

  // The bookkeeping of one stream, read. Locals out: bytes, forgot, last.
  private static final String READ =
      """
      local key = KEYS[1]
      local t = redis.call('TIME')
      local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
      local m = redis.call('HMGET', KEYS[2], 'b:' .. ARGV[1], 'f:' .. ARGV[1], 'l:' .. ARGV[1])
      local bytes = tonumber(m[1]) or 0
      local forgot = tonumber(m[2]) or 0
      local last = tonumber(m[3]) or 0
      local exists = redis.call('EXISTS', key) == 1
      if not exists then
        if last > forgot then forgot = last end
        bytes = 0
      end
      """;

  /**
   * KEYS: stream, session hash. ARGV: stream id, seq, message, max events, max bytes, max age ms,
   * hash TTL ms, overhead, the highest earlier seq whose append failed (0: none).
   */
  private static final Script APPEND =
      new Script(
          READ
              + """
              local lost = tonumber(ARGV[9])
              if lost > forgot then forgot = lost end
              local seq = tonumber(ARGV[2])
              local maxEvents = tonumber(ARGV[4])
              local maxBytes = tonumber(ARGV[5])
              local maxAge = tonumber(ARGV[6])
              local overhead = tonumber(ARGV[8])
              local cost = string.len(ARGV[3]) + overhead
              if cost > maxBytes then
                if seq > forgot then forgot = seq end
              else
                redis.call('XADD', key, ARGV[2] .. '-0', 't', now, 'm', ARGV[3])
                bytes = bytes + cost
              end
              if seq > last then last = seq end
              """
              + TRIM
              + """
              redis.call('HSET', KEYS[2], 'b:' .. ARGV[1], bytes, 'f:' .. ARGV[1], forgot,
                'l:' .. ARGV[1], last)
              if exists or cost <= maxBytes then redis.call('PEXPIRE', key, maxAge) end
              redis.call('PEXPIRE', KEYS[2], ARGV[7])
              return 1
              """);

  /**
   * KEYS: stream, session hash. ARGV: stream id, first id to return, max age ms, overhead, after
   * seq. Returns {complete (1/0), seq, message, seq, message...}.
   */
  private static final Script REPLAY =
      new Script(
          READ
              + """
              local out = {0}
              if exists then
                local maxEvents = math.huge
                local maxBytes = math.huge
                local maxAge = tonumber(ARGV[3])
                local overhead = tonumber(ARGV[4])
                local before = forgot
              """
              + TRIM
              + """
                if forgot ~= before then
                  redis.call('HSET', KEYS[2], 'b:' .. ARGV[1], bytes, 'f:' .. ARGV[1], forgot)
                end
                for _, e in ipairs(redis.call('XRANGE', key, ARGV[2], '+')) do
                  out[#out + 1] = tonumber(string.match(e[1], '^(%d+)'))
                  out[#out + 1] = e[2][4]
                end
              end
              if tonumber(ARGV[5]) >= forgot then out[1] = 1 end
              return out
              """);

  /** KEYS: stream, session hash. ARGV: stream id. */
  private static final Script REMOVE_STREAM =
      new Script(
          """
          redis.call('DEL', KEYS[1])
          redis.call('HDEL', KEYS[2], 'b:' .. ARGV[1], 'f:' .. ARGV[1], 'l:' .. ARGV[1],
            'o:' .. ARGV[1])
          return 1
          """);

  /** KEYS: session hash. ARGV: stream id, record, hash TTL ms. */
  private static final Script DESCRIBE =
      new Script(
          """
          redis.call('HSET', KEYS[1], 'o:' .. ARGV[1], ARGV[2])
          if redis.call('PTTL', KEYS[1]) < tonumber(ARGV[3]) then
            redis.call('PEXPIRE', KEYS[1], ARGV[3])
          end
          return 1
          """);

  /** KEYS: session hash. ARGV: the stream keys' prefix for this session. */
  private static final Script REMOVE_SESSION =
      new Script(
          """
          for _, f in ipairs(redis.call('HKEYS', KEYS[1])) do
            if string.sub(f, 1, 2) == 'l:' then
              redis.call('DEL', ARGV[1] .. string.sub(f, 3))
            end
          end
          redis.call('DEL', KEYS[1])
          return 1
          """);

  /**
   * Per stream key, the highest sequence number whose append failed (Redis was away) and is not yet
   * recorded as forgotten: the stream's next append records it, so that a resumption from before
   * it is refused on every node instead of silently skipping the event. Bounded by {@link
   * #MAX_UNSTORED} streams (beyond that, such a gap goes unrecorded).
   */
  private final java.util.concurrent.ConcurrentHashMap<String, Long> unstored =
      new java.util.concurrent.ConcurrentHashMap<>();

  static final int MAX_UNSTORED = 65_536;

  private final Redis redis;
  private final byte[] maxEvents;
  private final byte[] maxBytes;
  private final long maxAgeMillis;
  private final byte[] maxAge;
  private final byte[] metaTtl;
  private final byte[] overhead = Redis.bytes(OVERHEAD_BYTES);
  private final boolean batching =
      Boolean.parseBoolean(System.getProperty("herald.redis.batchAppends", "true"));

  RedisEventStore(Redis redis, int eventsPerStream, long bytesPerStream, Duration maxAge) {
    if (eventsPerStream < 1) {
      throw new IllegalArgumentException(
          "eventsPerStream must be at least 1, was " + eventsPerStream);
    }
    if (bytesPerStream < 1) {
      throw new IllegalArgumentException("bytesPerStream must be positive, was " + bytesPerStream);
    }
    if (maxAge.toMillis() < 1) {
      throw new IllegalArgumentException("maxAge must be at least 1 ms, was " + maxAge);
    }
    this.redis = redis;
    this.maxEvents = Redis.bytes(eventsPerStream);
    this.maxBytes = Redis.bytes(bytesPerStream);
    this.maxAgeMillis = maxAge.toMillis();
    this.maxAge = Redis.bytes(maxAgeMillis);
    this.metaTtl = Redis.bytes(maxAgeMillis + META_GRACE.toMillis());
  }

  /** {@code <prefix>ev:<session id length>:<session id>:<stream id>}: unambiguous for any ids. */
  private String streamKey(String sessionId, String streamId) {
    return streamKeyPrefix(sessionId) + streamId;
  }

  private String streamKeyPrefix(String sessionId) {
    return redis.key("ev:" + sessionId.length() + ":" + sessionId + ":");
  }

  /** {@code <prefix>evs:<session id>}: the session's streams and their bookkeeping. */
  private String sessionKey(String sessionId) {
    return redis.key("evs:" + sessionId);
  }

  /**
   * {@inheritDoc}
   *
   * <p>An event whose append fails is not kept; the stream's next successful append records it as
   * forgotten, so a later resumption from before it is refused (a gap) rather than served without
   * it.
   *
   * @throws RedisUnavailableException if Redis did not acknowledge the event within the timeout
   */
  @Override
  public void append(String sessionId, String streamId, long seq, byte[] message) {
    String[] keys = {streamKey(sessionId, streamId), sessionKey(sessionId)};
    Long lost = unstored.get(keys[0]);
    try {
      redis.call(
          "append an event",
          () ->
              APPEND.integer(
                  redis,
                  keys,
                  Redis.bytes(streamId),
                  Redis.bytes(seq),
                  message,
                  maxEvents,
                  maxBytes,
                  maxAge,
                  metaTtl,
                  overhead,
                  Redis.bytes(lost == null ? 0 : lost)));
    } catch (RuntimeException e) {
      if (unstored.size() < MAX_UNSTORED || unstored.containsKey(keys[0])) {
        unstored.merge(keys[0], seq, Math::max);
      }
      throw e;
    }
    if (lost != null) {
      unstored.remove(keys[0], lost);
    }
  }

  @Override
  public boolean batching() {
    return batching;
  }

  /**
   * {@inheritDoc}
   *
   * <p>Pipelined: every event's script is sent before the first answer is awaited. An event
   * whose script Redis no longer knows (it restarted) is sent again with its source; one that
   * fails is recorded as {@link #append} records it, so the stream's next append marks it
   * forgotten.
   */
  @Override
  public Map<Integer, RuntimeException> appendAll(List<Event> events) {
    int n = events.size();
    Map<Integer, RuntimeException> failed = new HashMap<>();
    List<String[]> keys = new ArrayList<>(n);
    List<byte[][]> args = new ArrayList<>(n);
    List<Long> lost = new ArrayList<>(n);
    List<RedisFuture<Long>> sent = new ArrayList<>(n);
    boolean interrupted = Thread.interrupted(); // as Redis.call: bounded by the timeout instead
    try {
      for (int i = 0; i < n; i++) {
        Event e = events.get(i);
        String[] k = {streamKey(e.sessionId(), e.streamId()), sessionKey(e.sessionId())};
        Long l = unstored.get(k[0]);
        byte[][] a = {
          Redis.bytes(e.streamId()),
          Redis.bytes(e.seq()),
          e.message(),
          maxEvents,
          maxBytes,
          maxAge,
          metaTtl,
          overhead,
          Redis.bytes(l == null ? 0 : l)
        };
        keys.add(k);
        args.add(a);
        lost.add(l == null ? 0L : l);
        try {
          sent.add(APPEND.integerAsync(redis, k, a));
        } catch (RuntimeException x) { // refused at once (disconnected)
          sent.add(null);
          failed.put(i, failure(x));
        }
      }
      long deadline = System.nanoTime() + 2 * redis.timeout().toNanos();
      for (int i = 0; i < n; i++) {
        RedisFuture<Long> f = sent.get(i);
        if (f == null) {
          continue;
        }
        try {
          f.get(Math.max(0, deadline - System.nanoTime()), TimeUnit.NANOSECONDS);
        } catch (InterruptedException x) {
          interrupted = true;
          i--; // wait for the same answer again
        } catch (TimeoutException x) {
          failed.put(i, failure(x));
        } catch (ExecutionException x) {
          Throwable cause = x.getCause() == null ? x : x.getCause();
          if (cause instanceof RedisNoScriptException) {
            String[] k = keys.get(i);
            byte[][] a = args.get(i);
            try {
              redis.call("append an event", () -> APPEND.integer(redis, k, a));
            } catch (RuntimeException y) {
              failed.put(i, y);
            }
          } else {
            failed.put(i, failure(cause));
          }
        }
      }
    } finally {
      if (interrupted) {
        Thread.currentThread().interrupt();
      }
    }
    for (int i = 0; i < n; i++) {
      String key = keys.get(i)[0];
      if (failed.containsKey(i)) {
        if (unstored.size() < MAX_UNSTORED || unstored.containsKey(key)) {
          unstored.merge(key, events.get(i).seq(), Math::max);
        }
      } else if (lost.get(i) != 0L) {
        unstored.remove(key, lost.get(i));
      }
    }
    return failed;
  }

  /** A failed pipelined append, as {@link Redis#call} would have reported it. */
  private static RuntimeException failure(Throwable cause) {
    if (cause instanceof RedisCommandExecutionException) {
      return new IllegalStateException(
          "Redis refused to append an event: " + cause.getMessage(), cause);
    }
    return new RedisUnavailableException(
        "Redis is unavailable (could not append an event): " + cause, cause);
  }

  /**
   * {@inheritDoc}
   *
   * @throws RedisUnavailableException if Redis did not answer within the timeout
   */
  @Override
  public boolean replay(String sessionId, String streamId, long afterSeq, Replay sink) {
    String[] keys = {streamKey(sessionId, streamId), sessionKey(sessionId)};
    String from = afterSeq < 0 ? "-" : Long.toUnsignedString(afterSeq + 1) + "-0";
    List<Object> out =
        redis.call(
            "replay events",
            () ->
                REPLAY.multi(
                    redis,
                    keys,
                    Redis.bytes(streamId),
                    Redis.bytes(from),
                    maxAge,
                    overhead,
                    Redis.bytes(afterSeq)));
    for (int i = 1; i + 1 < out.size(); i += 2) {
      sink.event((Long) out.get(i), (byte[]) out.get(i + 1));
    }
    return ((Long) out.get(0)) == 1L;
  }

  @Override
  public void removeStream(String sessionId, String streamId) {
    String[] keys = {streamKey(sessionId, streamId), sessionKey(sessionId)};
    unstored.remove(keys[0]);
    redis.call("remove a stream", () -> REMOVE_STREAM.integer(redis, keys, Redis.bytes(streamId)));
  }

  @Override
  public void removeSession(String sessionId) {
    String[] keys = {sessionKey(sessionId)};
    String streams = streamKeyPrefix(sessionId);
    unstored.keySet().removeIf(k -> k.startsWith(streams));
    redis.call(
        "remove a session's streams",
        () -> REMOVE_SESSION.integer(redis, keys, Redis.bytes(streamKeyPrefix(sessionId))));
  }

  /**
   * The highest sequence number appended to a stream (kept or not), or 0 if the store knows
   * nothing of it: where a node that takes a stream over continues its numbering.
   *
   * @throws RedisUnavailableException if Redis did not answer within the timeout
   */
  long lastSeq(String sessionId, String streamId) {
    String key = sessionKey(sessionId);
    byte[] last =
        redis.call("read a stream's last event", () -> redis.sync().hget(key, "l:" + streamId));
    return last == null ? 0 : Long.parseLong(Redis.string(last));
  }

  /**
   * Records who produces a stream ({@code record}: the node, a newline, the error that ends the
   * stream if that node dies), in the session's hash, for as long as the session's events live.
   *
   * @throws RedisUnavailableException if Redis did not answer within the timeout
   */
  void describe(String sessionId, String streamId, byte[] record) {
    String[] keys = {sessionKey(sessionId)};
    redis.call(
        "record a stream's producer",
        () -> DESCRIBE.integer(redis, keys, Redis.bytes(streamId), record, metaTtl));
  }

  /**
   * What {@link #describe} recorded for a stream, or null.
   *
   * @throws RedisUnavailableException if Redis did not answer within the timeout
   */
  byte @Nullable [] description(String sessionId, String streamId) {
    String key = sessionKey(sessionId);
    return redis.call("read a stream's producer", () -> redis.sync().hget(key, "o:" + streamId));
  }

  /** For tests: how long events are kept. */
  long maxAgeMillis() {
    return maxAgeMillis;
  }
}
