package dev.herald.redis;

import static dev.herald.testing.Eventually.eventually;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.herald.testing.Background;
import dev.herald.testing.RedisProcess;
import java.net.URI;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * Joining a cluster at start-up with a bounded wait ({@link RedisCluster#connect(URI, Duration)}),
 * over a real redis-server: a node started before Redis answers joins once it does (telling its
 * caller of each failed try, as {@code herald serve} prints them), and gives up with {@link
 * RedisUnavailableException} when Redis stays away for the whole wait.
 */
class RedisClusterJoinTest {
  @Test
  void aNodeStartedBeforeRedisAnswersJoinsOnceItDoes() throws Exception {
    try (RedisProcess redis = RedisProcess.start()) {
      redis.stop(); // the port is known, nothing listens on it
      CompletableFuture<RedisCluster> joining =
          Background.supply(
              () -> RedisCluster.connect(URI.create(redis.uri()), Duration.ofSeconds(120)));
      redis.restart();
      try (RedisCluster cluster = joining.get(120, TimeUnit.SECONDS)) {
        assertThat(cluster.nodeId()).isNotBlank();
        assertThat(cluster.stores().node().id()).isEqualTo(cluster.nodeId());
      }
    }
  }

  @Test
  void eachFailedTryIsToldBeforeTheNextOne() throws Exception {
    try (RedisProcess redis = RedisProcess.start()) {
      redis.stop();
      List<RedisUnavailableException> told = new CopyOnWriteArrayList<>();
      CompletableFuture<RedisCluster> joining =
          Background.supply(() ->
              RedisCluster.connect(URI.create(redis.uri()), Duration.ofSeconds(120), told::add));
      eventually(Duration.ofSeconds(120), () -> !told.isEmpty(), "a failed try was told");
      redis.restart();
      try (RedisCluster cluster = joining.get(120, TimeUnit.SECONDS)) {
        assertThat(cluster.nodeId()).isNotBlank();
      }
      assertThat(told).allSatisfy(e -> assertThat(e.getMessage()).contains("Redis"));
    }
  }

  @Test
  void aNodeGivesUpWhenRedisStaysAwayForTheWholeWait() {
    int port = RedisProcess.freePort();
    assertThatThrownBy(
            () -> RedisCluster.connect(URI.create("redis://127.0.0.1:" + port), Duration.ZERO))
        .isInstanceOf(RedisUnavailableException.class);
  }
}
