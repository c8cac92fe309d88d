package dev.herald.redis;

import static dev.herald.testing.Eventually.eventually;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.herald.http.EventStore;
import dev.herald.tasks.StoredTask;
import dev.herald.tasks.TaskOwner;
import dev.herald.tasks.TaskStore;
import dev.herald.testing.RedisProcess;
import dev.herald.wire.ProtocolVersion;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * Redis killed (SIGKILL) and started again on the same port, empty: every store call fails with
 * {@link RedisUnavailableException} instead of hanging, and the same stores work again once Redis
 * is back, without a new connection.
 */
class RedisOutageTest {

  private static StoredTask task(TaskOwner owner) {
    return StoredTask.create(
        UUID.randomUUID().toString(),
        owner,
        "tools/call",
        ProtocolVersion.Era.MODERN,
        Instant.now(),
        Duration.ofMinutes(5),
        Duration.ofSeconds(1));
  }

  private static byte[] json(String s) {
    return ("{\"n\":\"" + s + "\"}").getBytes(StandardCharsets.UTF_8);
  }

  /** Runs every kind of store call once and returns what each threw (null: it succeeded). */
  private static List<Throwable> everyCall(EventStore events, TaskStore tasks, long seq) {
    TaskOwner alice = TaskOwner.session("alice");
    List<Runnable> calls =
        List.of(
            () -> events.append("s", "0", seq, json("e" + seq)),
            () -> events.replay("s", "0", 0, (n, m) -> {}),
            () -> events.removeStream("s", "gone"),
            () -> tasks.create(task(alice)),
            () -> tasks.get(alice, "x", Instant.now()),
            () -> tasks.update("x", Instant.now(), t -> java.util.Optional.empty()),
            () -> tasks.list(alice, null, 10, Instant.now()),
            () -> tasks.purgeExpired(Instant.now()),
            tasks::size);
    List<Throwable> thrown = new ArrayList<>();
    for (Runnable r : calls) {
      try {
        r.run();
        thrown.add(null);
      } catch (RuntimeException e) {
        thrown.add(e);
      }
    }
    return thrown;
  }

  @Test
  void connectingWhereNoRedisListensFailsClearly() throws Exception {
    ExecutorService pool = Executors.newSingleThreadExecutor();
    try {
      Future<?> connecting =
          pool.submit(() ->
              RedisStores.builder("redis://127.0.0.1:" + RedisProcess.freePort())
                  .commandTimeout(Duration.ofSeconds(1))
                  .build());
      assertThatThrownBy(() -> connecting.get(120, TimeUnit.SECONDS)) // bounded: never hangs
          .hasCauseInstanceOf(RedisUnavailableException.class)
          .hasMessageContaining("cannot connect to Redis at 127.0.0.1");
    } finally {
      pool.shutdownNow();
    }
  }

  @Test
  void whileRedisIsDownEveryCallFailsClearlyAndAfterItsRestartTheSameStoresWorkAgain()
      throws Exception {
    ExecutorService pool = Executors.newSingleThreadExecutor();
    try (RedisProcess server = RedisProcess.start();
        RedisStores a =
            RedisStores.builder(server.uri())
                .commandTimeout(Duration.ofSeconds(2))
                .heartbeatTtl(Duration.ofSeconds(3))
                .build();
        RedisStores b = RedisStores.connect(server.uri());
        TaskStore onA = a.taskStore();
        TaskStore onB = b.taskStore()) {
      List<StoredTask> heardOnA = new CopyOnWriteArrayList<>();
      onA.listen(heardOnA::add);
      assertThat(everyCall(a.eventStore(), onA, 1)).containsOnlyNulls();

      server.stop();
      Future<List<Throwable>> down = pool.submit(() -> everyCall(a.eventStore(), onA, 2));
      List<Throwable> failures = down.get(120, TimeUnit.SECONDS); // bounded: never hangs
      assertThat(failures)
          .allSatisfy(e ->
              assertThat(e)
                  .isInstanceOf(RedisUnavailableException.class)
                  .hasMessageContaining("Redis is unavailable"));

      server.restart();
      eventually(
          () -> everyCall(a.eventStore(), onA, 3).stream().allMatch(e -> e == null),
          "every call works again once Redis is back");
      eventually(() -> a.node().isAlive(a.node().id()), "the heartbeat is back");

      StoredTask after = task(TaskOwner.session("bob"));
      eventually(
          () -> {
            try {
              onB.create(task(TaskOwner.session("probe")));
              return true;
            } catch (RedisUnavailableException e) {
              return false;
            }
          },
          "node b works again");
      onB.create(after);
      eventually(
          () -> heardOnA.stream().anyMatch(t -> t.taskId().equals(after.taskId())),
          "node a hears node b's changes again (subscribed again after the reconnect)");
      List<Long> seen = new ArrayList<>();
      b.eventStore().replay("s", "0", 0, (n, m) -> seen.add(n));
      assertThat(seen).contains(3L);
    } finally {
      pool.shutdownNow();
    }
  }
}
