package dev.herald.redis;

import static dev.herald.testing.Eventually.eventually;
import static org.assertj.core.api.Assertions.assertThat;

import dev.herald.server.McpServer;
import dev.herald.testing.RawHttpClient;
import dev.herald.testing.RedisProcess;
import dev.herald.testing.SseReader;
import dev.herald.wire.LoggingLevel;
import io.lettuce.core.RedisURI;
import io.lettuce.core.pubsub.RedisPubSubAdapter;
import io.lettuce.core.pubsub.StatefulRedisPubSubConnection;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * Home claims heard out of order (docs/scale-out.md, "The session directory"), on a real
 * redis-server: the creating node's session-state message, which names it the home, reaching
 * another node after that node's own standing GET claimed the home (a busy node's receive queue
 * behind) is older than the claim, and changes nothing there.
 */
class HomeClaimOrderTest {
  private RedisProcess redis;
  private Node a;
  private Node b;
  private Redis raw;

  static final class Node extends HttpNode {
    Node(String redisUri) {
      super(McpServer.builder().build(), redisUri);
    }
  }

  @BeforeEach
  void start() {
    redis = RedisProcess.start();
    a = new Node(redis.uri());
    b = new Node(redis.uri());
    raw = Redis.connect(RedisURI.create(redis.uri()), "herald:", Duration.ofSeconds(5));
  }

  @AfterEach
  void stop() {
    raw.close();
    a.close();
    b.close();
    redis.close();
  }

  @Test
  void theCreatingNodesHomeMessageHeardAfterAGetClaimedTheHomeElsewhereLeavesThatGetOpen()
      throws Exception {
    String channel = raw.key("cluster");
    String origin = a.cluster.nodeId() + "\nstate\n";
    AtomicReference<byte[]> creation = new AtomicReference<>();
    StatefulRedisPubSubConnection<String, byte[]> listener = raw.pubSub();
    listener.addListener(
        new RedisPubSubAdapter<>() {
          @Override
          public void message(String ch, byte[] message) {
            String text = new String(message, StandardCharsets.UTF_8);
            // origin \n kind \n session \n home \n claim date \n state: the one naming A home
            String[] f = text.split("\n", 5);
            if (text.startsWith(origin) && f.length == 5 && f[3].equals(a.cluster.nodeId())) {
              creation.compareAndSet(null, message);
            }
          }
        });
    listener.sync().subscribe(channel);

    String session = new RawHttpClient(a.http.uri()).initialize();
    eventually(() -> creation.get() != null, "A published the session's state naming it home");

    try (SseReader standing = b.client(session).get(null)) {
      String key = raw.key("session:" + session);
      eventually(() -> b.cluster.nodeId().equals(homeIn(key)), "B's GET claimed the home in Redis");

      // A's message, published before the GET, heard by B only now: stale, so ignored
      raw.sync().publish(channel, creation.get());
      // published after it, so B handles it after the stale message, and B (still the home)
      // writes it on the open GET
      a.mcp.log(LoggingLevel.WARNING, "cluster", "after the stale message");

      SseReader.Event e;
      do {
        e = standing.next(Duration.ofSeconds(30));
        assertThat(e).as("B's standing GET stays open").isNotNull();
      } while (e.priming());
      assertThat(RawHttpClient.describe(e.json())).isEqualTo("log after the stale message");
      assertThat(homeIn(key)).isEqualTo(b.cluster.nodeId());
    }
  }

  private String homeIn(String key) {
    byte[] home = raw.sync().hget(key, "home");
    return home == null ? "" : new String(home, StandardCharsets.UTF_8);
  }
}
