package dev.herald.redis;

import static dev.herald.testing.Eventually.eventually;
import static org.assertj.core.api.Assertions.assertThat;

import dev.herald.http.EventStore;
import dev.herald.http.contract.EventStoreContract;
import dev.herald.testing.RedisProcess;
import io.lettuce.core.RedisURI;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The event store on a real redis-server: the {@link EventStoreContract}, a second node replaying
 * what the first appended, and the age bound on Redis's clock.
 */
class RedisEventStoreTest extends EventStoreContract {
  private static final AtomicInteger STORES = new AtomicInteger();
  private static RedisProcess server;
  private static Redis redis;

  @BeforeAll
  static void startRedis() {
    server = RedisProcess.start();
    redis = Redis.connect(RedisURI.create(server.uri()), "test:", Duration.ofSeconds(10));
  }

  @AfterAll
  static void stopRedis() {
    if (redis != null) {
      redis.close();
    }
    if (server != null) {
      server.close();
    }
  }

  /** A store of its own: a fresh key prefix on the shared connection. */
  private static Redis fresh() {
    return redis.withPrefix("t" + STORES.incrementAndGet() + ":");
  }

  @Override
  protected EventStore newStore(int eventsPerStream, long bytesPerStream) {
    return new RedisEventStore(fresh(), eventsPerStream, bytesPerStream, Duration.ofMinutes(5));
  }

  @Test
  void anotherNodeReplaysEveryEventTheFirstAppended() {
    try (RedisStores a = RedisStores.builder(server.uri()).prefix("nodes:").build();
        RedisStores b = RedisStores.builder(server.uri()).prefix("nodes:").build()) {
      for (int i = 1; i <= 20; i++) {
        a.eventStore().append("sess", "0", i * 2L, json("e" + i));
      }
      List<Long> seen = new ArrayList<>();
      assertThat(b.eventStore().replay("sess", "0", 31, (seq, m) -> seen.add(seq))).isTrue();
      assertThat(seen).containsExactly(32L, 34L, 36L, 38L, 40L);
      assertThat(((RedisEventStore) b.eventStore()).lastSeq("sess", "0")).isEqualTo(40);
      assertThat(((RedisEventStore) b.eventStore()).lastSeq("sess", "other")).isZero();
      b.eventStore().removeSession("sess");
      assertThat(replayed(a.eventStore(), "sess", "0", 0)).isEmpty();
    }
  }

  @Test
  void eventsOlderThanTheAgeBoundAreForgottenAndTheReplayHasAGap() {
    RedisEventStore s = new RedisEventStore(fresh(), 100, 1024 * 1024, Duration.ofMillis(300));
    s.append("s1", "r1", 1, json("old"));
    eventually(
        () -> !s.replay("s1", "r1", 0, (seq, m) -> {}),
        "event 1 is forgotten once it is older than 300 ms");
    assertThat(replayed(s, "s1", "r1", 0)).isEmpty();
    assertThat(s.replay("s1", "r1", 1, (seq, m) -> {})).isTrue();
    s.append("s1", "r1", 2, json("new"));
    assertThat(replayed(s, "s1", "r1", 1)).containsExactly("2=new");
  }

  @Test
  void aStreamThatExpiredAsAWholeStillRefusesAResumptionFromBeforeItsEnd() {
    Redis r = fresh();
    RedisEventStore s = new RedisEventStore(r, 100, 1024 * 1024, Duration.ofMillis(200));
    s.append("s1", "r1", 1, json("a"));
    s.append("s1", "r1", 2, json("b"));
    String key = r.key("ev:2:s1:r1");
    eventually(() -> r.sync().exists(key) == 0, "the stream key expires with its last event");
    assertThat(s.replay("s1", "r1", 1, (seq, m) -> {})).isFalse();
    assertThat(s.replay("s1", "r1", 2, (seq, m) -> {})).isTrue();
  }

  @Test
  void anInterruptedThreadStillAppendsAndKeepsItsInterrupt() {
    EventStore s = store();
    Thread.currentThread().interrupt();
    try {
      s.append("s1", "r1", 1, json("last words"));
      assertThat(Thread.currentThread().isInterrupted()).isTrue();
    } finally {
      Thread.interrupted();
    }
    assertThat(replayed(s, "s1", "r1", 0)).containsExactly("1=last words");
  }
}
