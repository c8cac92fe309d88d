package dev.herald.bench;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;

/**
 * The commands a Redis has run so far, by command ({@code INFO commandstats}, read through {@code
 * redis-cli}); the commands a Lua script runs are counted as well as the script call itself.
 */
final class RedisCommandStats {
  private RedisCommandStats() {}

  /** Calls so far by command name, of the Redis at {@code redisUri}. */
  static Map<String, Long> read(String redisUri) throws IOException, InterruptedException {
    URI u = URI.create(redisUri);
    Process p =
        new ProcessBuilder(
                "redis-cli",
                "-h",
                u.getHost(),
                "-p",
                Integer.toString(u.getPort()),
                "info",
                "commandstats")
            .redirectErrorStream(true)
            .start();
    Map<String, Long> m = new TreeMap<>();
    try (BufferedReader r =
        new BufferedReader(new InputStreamReader(p.getInputStream(), StandardCharsets.UTF_8))) {
      for (String line; (line = r.readLine()) != null; ) {
        int at = line.indexOf(":calls=");
        if (line.startsWith("cmdstat_") && at > 0) {
          int end = line.indexOf(',', at);
          m.put(
              line.substring(8, at),
              Long.parseLong(line.substring(at + 7, end < 0 ? line.length() : end)));
        }
      }
    }
    p.waitFor(10, TimeUnit.SECONDS);
    return m;
  }
}
