package dev.herald.redis;

import static dev.herald.testing.Eventually.eventually;
import static org.assertj.core.api.Assertions.assertThat;

import dev.herald.tasks.StoredTask;
import dev.herald.tasks.TaskOutcome;
import dev.herald.tasks.TaskOwner;
import dev.herald.tasks.TaskStore;
import dev.herald.testing.RedisProcess;
import dev.herald.wire.TaskStatus;
import java.io.File;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * A node in a JVM of its own, killed with SIGKILL while it appends events: every event whose append
 * had returned is replayed by another node, and the task it created is failed by the survivors,
 * once.
 */
class NodeCrashTest {

  /** The test's class and module path, as a class path for the child JVM. */
  private static String classPath() {
    List<String> parts = new ArrayList<>();
    for (String p :
        new String[] {
          System.getProperty("jdk.module.path"), System.getProperty("java.class.path")
        }) {
      if (p != null && !p.isBlank()) {
        parts.add(p);
      }
    }
    return String.join(File.pathSeparator, parts);
  }

  @Test
  void everyAcknowledgedEventOfAKilledNodeIsReplayedElsewhereAndItsTaskIsFailedOnce()
      throws Exception {
    try (RedisProcess redis = RedisProcess.start();
        RedisStores survivor =
            RedisStores.builder(redis.uri())
                .prefix("crash:")
                .heartbeatTtl(Duration.ofMillis(900))
                .build();
        RedisStores other =
            RedisStores.builder(redis.uri())
                .prefix("crash:")
                .heartbeatTtl(Duration.ofMillis(900))
                .build();
        TaskStore tasks = survivor.taskStore();
        TaskStore otherTasks = other.taskStore()) {
      List<StoredTask> heard = new CopyOnWriteArrayList<>();
      tasks.listen(heard::add);
      String javaCommand = ProcessHandle.current().info().command().orElse("java");
      // The child's lines go to a file, not a pipe: a pipe read while the JDK reaps a killed
      // process can lose what the child wrote last, and those lines are the acknowledgements.
      Path out = Files.createTempFile("herald-crashing-node", ".out");
      Process child =
          new ProcessBuilder(
                  javaCommand,
                  "-cp",
                  classPath(),
                  CrashingNode.class.getName(),
                  redis.uri(),
                  "crash:")
              .redirectError(ProcessBuilder.Redirect.INHERIT)
              .redirectOutput(out.toFile())
              .start();
      List<String> lines;
      try {
        eventually(
            Duration.ofMinutes(2), // a JVM starting on a busy machine
            () -> appendedLines(out) >= 100,
            "the child appended 100 events");
      } finally {
        child.destroyForcibly(); // SIGKILL, mid-append
        child.waitFor(60, TimeUnit.SECONDS);
      }
      try {
        lines = Files.readAllLines(out, StandardCharsets.UTF_8);
      } finally {
        Files.deleteIfExists(out);
      }
      String taskId = lines.getFirst().substring("task ".length());
      List<Long> acknowledged =
          lines.stream()
              .filter(l -> l.startsWith("appended "))
              .map(l -> Long.parseLong(l.substring("appended ".length())))
              .toList();

      List<Long> replayed = new ArrayList<>();
      boolean complete = other.eventStore().replay("session", "0", 0, (s, m) -> replayed.add(s));
      assertThat(complete).isTrue();
      assertThat(replayed).containsSubsequence(acknowledged);
      assertThat(replayed.size() - acknowledged.size())
          .as(
              "at most the one append in flight at the kill is stored unacknowledged:"
                  + " acknowledged up to %s, replayed %s",
              acknowledged.isEmpty() ? "none" : acknowledged.getLast(),
              replayed.subList(Math.max(0, replayed.size() - 5), replayed.size()))
          .isBetween(0, 1);

      eventually(
          Duration.ofMinutes(1),
          () ->
              otherTasks
                  .get(TaskOwner.anyone(), taskId, Instant.now())
                  .map(StoredTask::terminal)
                  .orElse(false),
          "the survivors fail the dead node's task");
      StoredTask failed = otherTasks.get(TaskOwner.anyone(), taskId, Instant.now()).orElseThrow();
      assertThat(failed.status()).isEqualTo(TaskStatus.FAILED);
      assertThat(Optional.ofNullable(failed.outcome()))
          .get()
          .isInstanceOfSatisfying(
              TaskOutcome.Error.class,
              e -> assertThat(e.error().message()).isEqualTo(RedisTaskStore.NODE_STOPPED));
      eventually(
          () -> heard.stream().anyMatch(t -> t.taskId().equals(taskId) && t.terminal()),
          "a survivor's listener hears the failure");
      assertThat(heard.stream().filter(t -> t.taskId().equals(taskId) && t.terminal()).count())
          .isEqualTo(1);
    }
  }

  /** How many "appended" lines the child has written so far. */
  private static long appendedLines(Path out) {
    try {
      return Files.readAllLines(out, StandardCharsets.UTF_8).stream()
          .filter(l -> l.startsWith("appended "))
          .count();
    } catch (IOException e) {
      return 0;
    }
  }
}
