package dev.herald.redis;

import static dev.herald.testing.Eventually.eventually;
import static org.assertj.core.api.Assertions.assertThat;

import dev.herald.tasks.StoredTask;
import dev.herald.tasks.TaskOutcome;
import dev.herald.tasks.TaskOwner;
import dev.herald.tasks.TaskStore;
import dev.herald.testing.RedisProcess;
import dev.herald.wire.ProtocolVersion;
import dev.herald.wire.TaskStatus;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/** Several nodes (each its own connection) on one real redis-server. */
class RedisNodesTest {
  /** Generous: the machine's cores may be busy. */
  private static final Duration WAIT = Duration.ofMinutes(1);

  private static RedisProcess server;

  @BeforeAll
  static void startRedis() {
    server = RedisProcess.start();
  }

  @AfterAll
  static void stopRedis() {
    if (server != null) {
      server.close();
    }
  }

  /**
   * A node of a cluster of its own (a fresh prefix per test) with a shorter heartbeat than the
   * default, so that a stopped node is found in seconds; not much shorter, or a live node's beat
   * delayed on a busy machine (it beats every third of it) would read as a dead node.
   */
  private static RedisStores node(String cluster) {
    return RedisStores.builder(server.uri())
        .prefix(cluster)
        .heartbeatTtl(Duration.ofSeconds(3))
        .build();
  }

  private static String cluster() {
    return "c" + UUID.randomUUID() + ":";
  }

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

  private static List<StoredTask> recorded(TaskStore s) {
    List<StoredTask> all = new CopyOnWriteArrayList<>();
    s.listen(all::add);
    return all;
  }

  private static List<Long> versions(List<StoredTask> heard, String taskId) {
    return heard.stream().filter(t -> t.taskId().equals(taskId)).map(StoredTask::version).toList();
  }

  @Test
  void aNodeSeesItselfAndOthersAliveAndALeavingNodeGoneAtOnce() {
    String c = cluster();
    try (RedisStores a = node(c);
        RedisStores b = node(c)) {
      assertThat(a.node().isAlive(a.node().id())).isTrue();
      assertThat(a.node().isAlive(b.node().id())).isTrue();
      assertThat(a.node().isAlive("never-was")).isFalse();
      assertThat(a.node().id()).isNotEqualTo(b.node().id()).hasSize(32);
      b.node().close();
      assertThat(a.node().isAlive(b.node().id())).isFalse();
    }
  }

  @Test
  void aTaskCreatedOnOneNodeIsReadListedAndCancelledFromAnotherAndBothHearIt() {
    String c = cluster();
    try (RedisStores a = node(c);
        RedisStores b = node(c);
        TaskStore onA = a.taskStore();
        TaskStore onB = b.taskStore()) {
      List<StoredTask> heardOnA = recorded(onA);
      List<StoredTask> heardOnB = recorded(onB);
      TaskOwner alice = TaskOwner.session("alice");
      StoredTask t = task(alice);
      onA.create(t);
      assertThat(onB.get(alice, t.taskId(), Instant.now())).contains(t);
      assertThat(onB.list(alice, null, 10, Instant.now()).tasks()).containsExactly(t);
      Instant now = Instant.now();
      TaskStore.Change c1 = onB.update(t.taskId(), now, x -> x.cancel("by b", now)).orElseThrow();
      assertThat(c1.changed()).isTrue();
      assertThat(onA.get(alice, t.taskId(), now).orElseThrow().status())
          .isEqualTo(TaskStatus.CANCELLED);
      eventually(
          WAIT, () -> versions(heardOnA, t.taskId()).size() == 2, "node a hears both versions");
      eventually(
          WAIT, () -> versions(heardOnB, t.taskId()).size() == 2, "node b hears both versions");
      assertThat(versions(heardOnA, t.taskId())).containsExactly(1L, 2L);
      assertThat(versions(heardOnB, t.taskId())).containsExactly(1L, 2L);
    }
  }

  @Test
  void aCursorMadeOnOneNodeWorksOnAnother() {
    String c = cluster();
    try (RedisStores a = node(c);
        RedisStores b = node(c);
        TaskStore onA = a.taskStore();
        TaskStore onB = b.taskStore()) {
      TaskOwner bob = TaskOwner.principal("bob");
      for (int i = 0; i < 5; i++) {
        onA.create(task(bob));
      }
      TaskStore.Page first = onA.list(bob, null, 3, Instant.now());
      TaskStore.Page second = onB.list(bob, first.nextCursor(), 3, Instant.now());
      assertThat(first.tasks()).hasSize(3);
      assertThat(second.tasks()).hasSize(2).doesNotContainAnyElementsOf(first.tasks());
      assertThat(second.nextCursor()).isNull();
    }
  }

  @Test
  void theTasksOfANodeThatStoppedAreFailedOnceByTheOthers() {
    String c = cluster();
    try (RedisStores dead = node(c);
        RedisStores b = node(c);
        RedisStores other = node(c);
        TaskStore onDead = dead.taskStore();
        TaskStore onB = b.taskStore();
        TaskStore onC = other.taskStore()) {
      List<StoredTask> heardOnB = recorded(onB);
      List<StoredTask> heardOnC = recorded(onC);
      TaskOwner alice = TaskOwner.session("alice");
      StoredTask running = task(alice);
      StoredTask finished = task(alice);
      onDead.create(running);
      onDead.create(finished);
      Instant now = Instant.now();
      onDead.update(
          finished.taskId(),
          now,
          t -> t.complete(new TaskOutcome.Result(dev.herald.wire.McpJson.object()), now));
      onB.create(task(alice)); // a task of a live node stays as it is
      dead.node().stopBeating(); // a crash: the heartbeat key runs out, nothing is cleaned up

      eventually(
          WAIT,
          () -> onB.get(alice, running.taskId(), Instant.now()).orElseThrow().terminal(),
          "a live node fails the dead node's task");
      StoredTask failed = onB.get(alice, running.taskId(), Instant.now()).orElseThrow();
      assertThat(failed.status()).isEqualTo(TaskStatus.FAILED);
      assertThat(failed.outcome())
          .isInstanceOfSatisfying(
              TaskOutcome.Error.class,
              e -> assertThat(e.error().message()).isEqualTo(RedisTaskStore.NODE_STOPPED));
      eventually(
          WAIT, () -> versions(heardOnC, running.taskId()).size() == 2, "c hears the failure");
      eventually(
          WAIT, () -> versions(heardOnB, running.taskId()).size() == 2, "b hears the failure");
      assertThat(versions(heardOnB, running.taskId())).containsExactly(1L, 2L);
      assertThat(versions(heardOnC, running.taskId())).containsExactly(1L, 2L);
      assertThat(onC.get(alice, finished.taskId(), Instant.now()).orElseThrow().status())
          .isEqualTo(TaskStatus.COMPLETED);
      assertThat(onB.list(alice, null, 10, Instant.now()).tasks())
          .filteredOn(t -> !t.terminal())
          .hasSize(1);
    }
  }
}
