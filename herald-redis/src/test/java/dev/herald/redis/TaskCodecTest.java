package dev.herald.redis;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.herald.tasks.StoredTask;
import dev.herald.tasks.TaskOutcome;
import dev.herald.tasks.TaskOwner;
import dev.herald.wire.ElicitParams;
import dev.herald.wire.InputRequest;
import dev.herald.wire.JsonRpcMessage;
import dev.herald.wire.McpJson;
import dev.herald.wire.ProtocolVersion;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** A task read back from its JSON in Redis equals the task written. */
class TaskCodecTest {
  private static final Instant T0 = Instant.parse("2026-07-28T10:00:00.123456789Z");

  private static StoredTask task(TaskOwner owner, Duration ttl) {
    return StoredTask.create(
        "abc", owner, "tools/call", ProtocolVersion.Era.MODERN, T0, ttl, Duration.ofMillis(1500));
  }

  @Test
  void aTaskWaitingForInputComesBackEqual() {
    var schema = McpJson.object();
    schema.put("type", "object");
    StoredTask t =
        task(TaskOwner.principal("p"), Duration.ofSeconds(30))
            .needInput(
                Map.of(
                    "name",
                    new InputRequest.Elicit(ElicitParams.form("Your name?", schema)),
                    "roots",
                    new InputRequest.ListRoots(null)),
                "need a word",
                T0.plusNanos(7))
            .orElseThrow();
    assertThat(TaskCodec.decode(TaskCodec.encode(t))).isEqualTo(t);
  }

  @Test
  void terminalTasksWithAResultOrAnErrorComeBackEqual() {
    var result = McpJson.object();
    result.putArray("content").addObject().put("type", "text").put("text", "caf\u00e9");
    result.put("ratio", new java.math.BigDecimal("0.25"));
    StoredTask done =
        task(TaskOwner.anyone(), null).complete(new TaskOutcome.Result(result), T0).orElseThrow();
    var data = McpJson.object().put("why", "because");
    StoredTask failed =
        task(TaskOwner.session("s"), Duration.ofDays(2))
            .complete(
                new TaskOutcome.Error(new JsonRpcMessage.ErrorObject(-32603, "boom", data)), T0)
            .orElseThrow();
    StoredTask cancelled =
        task(TaskOwner.session("s"), Duration.ofDays(2)).cancel(null, T0).orElseThrow();
    for (StoredTask t : new StoredTask[] {done, failed, cancelled}) {
      assertThat(TaskCodec.decode(TaskCodec.encode(t))).isEqualTo(t);
    }
  }

  @Test
  void somethingElseInTheKeyIsAClearError() {
    assertThatThrownBy(() -> TaskCodec.decode("{\"id\":1}".getBytes(StandardCharsets.UTF_8)))
        .isInstanceOf(IllegalStateException.class)
        .hasMessageContaining("not readable");
  }
}
