package dev.herald.redis;

import dev.herald.http.EventStore;
import dev.herald.tasks.StoredTask;
import dev.herald.tasks.TaskOwner;
import dev.herald.tasks.TaskStore;
import dev.herald.wire.ProtocolVersion;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.UUID;

/**
 * A node in a process of its own, for {@link NodeCrashTest}: creates one task, then appends events
 * to one stream without end, printing {@code task <id>} and then {@code appended <seq>} after each
 * append returned, until it is killed.
 */
final class CrashingNode {
  private CrashingNode() {}

  public static void main(String[] args) {
    RedisStores stores =
        RedisStores.builder(args[0])
            .prefix(args[1])
            .heartbeatTtl(Duration.ofMillis(900))
            .eventLimits(1_000_000, 1L << 30, Duration.ofMinutes(5)) // keep all: the test reads all
            .build();
    TaskStore tasks = stores.taskStore();
    StoredTask task =
        StoredTask.create(
            UUID.randomUUID().toString(),
            TaskOwner.anyone(),
            "tools/call",
            ProtocolVersion.Era.MODERN,
            Instant.now(),
            Duration.ofMinutes(5),
            Duration.ofSeconds(1));
    tasks.create(task);
    System.out.println("task " + task.taskId());
    System.out.flush();
    EventStore events = stores.eventStore();
    for (long seq = 1; ; seq++) {
      events.append(
          "session", "0", seq, ("{\"seq\":" + seq + "}").getBytes(StandardCharsets.UTF_8));
      System.out.println("appended " + seq);
      System.out.flush();
    }
  }
}
