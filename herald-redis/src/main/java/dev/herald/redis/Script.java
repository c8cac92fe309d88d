package dev.herald.redis;

import io.lettuce.core.RedisNoScriptException;
import io.lettuce.core.ScriptOutputType;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;
import java.util.List;

/**
 * A Lua script run atomically in Redis: by its SHA-1 ({@code EVALSHA}, one short command), falling
 * back to sending its source ({@code EVAL}, which also caches it) when Redis does not know it, as
 * after a Redis restart.
 */
final class Script {
  private final String source;
  private final String sha;

  Script(String source) {
    this.source = source;
    try {
      this.sha =
          HexFormat.of()
              .formatHex(
                  MessageDigest.getInstance("SHA-1")
                      .digest(source.getBytes(StandardCharsets.UTF_8)));
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException("SHA-1 is missing from this JDK", e);
    }
  }

  /** Runs a script that returns an integer (inside {@link Redis#call}). */
  long integer(Redis redis, String[] keys, byte[]... args) {
    Long n = run(redis, ScriptOutputType.INTEGER, keys, args);
    return n;
  }

  /** Runs a script that returns a bulk string (inside {@link Redis#call}). */
  byte @org.jspecify.annotations.Nullable [] bytes(Redis redis, String[] keys, byte[]... args) {
    byte[] b = run(redis, ScriptOutputType.VALUE, keys, args);
    return b;
  }

  /** Runs a script that returns an array (inside {@link Redis#call}). */
  List<Object> multi(Redis redis, String[] keys, byte[]... args) {
    List<Object> out = run(redis, ScriptOutputType.MULTI, keys, args);
    return out;
  }

  /**
   * Sends a script that returns an integer without waiting for it ({@code EVALSHA}): the caller
   * pipelines several and then waits; one that fails with {@code NOSCRIPT} is run again with
   * {@link #integer}.
   */
  io.lettuce.core.RedisFuture<Long> integerAsync(Redis redis, String[] keys, byte[]... args) {
    return redis.async().evalsha(sha, ScriptOutputType.INTEGER, keys, args);
  }

  @SuppressWarnings("TypeParameterUnusedInFormals") // Lettuce's own signature
  private <T> T run(Redis redis, ScriptOutputType type, String[] keys, byte[]... args) {
    try {
      return redis.sync().evalsha(sha, type, keys, args);
    } catch (RedisNoScriptException e) {
      return redis.sync().eval(source, type, keys, args);
    }
  }
}
