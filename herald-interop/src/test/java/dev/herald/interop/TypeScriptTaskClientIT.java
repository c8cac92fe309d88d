package dev.herald.interop;

import static org.assertj.core.api.Assertions.assertThat;

import dev.herald.cli.fixture.DemoFixture;
import dev.herald.http.McpHttpServer;
import dev.herald.testing.HeraldJar;
import dev.herald.wire.McpJson;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import tools.jackson.databind.JsonNode;

/**
 * The TypeScript SDK 1.32.2's client (interop/ts/task-client.mjs) driving Herald's task tools (MCP
 * 2025-11-25 basic/utilities/tasks) over stdio and Streamable HTTP: a task followed to its result
 * with its progress, {@code tasks/get} and {@code tasks/result} by hand, an elicitation answered
 * during a task (with related-task meta), a tool error and a protocol error, a cancellation, and
 * {@code tasks/list}.
 */
@Timeout(120)
class TypeScriptTaskClientIT {

  private static JsonNode runClient(List<String> target) throws Exception {
    List<String> cmd =
        new ArrayList<>(List.of("node", TsPeer.dir().resolve("task-client.mjs").toString()));
    cmd.addAll(target);
    Process p = new ProcessBuilder(cmd).redirectError(ProcessBuilder.Redirect.INHERIT).start();
    byte[] out = p.getInputStream().readAllBytes();
    assertThat(p.waitFor(90, TimeUnit.SECONDS)).isTrue();
    String text = new String(out, StandardCharsets.UTF_8).trim();
    assertThat(text).as("the client's report").isNotEmpty();
    return McpJson.mapper().readTree(text.substring(text.lastIndexOf('\n') + 1));
  }

  @Test
  void typeScriptClientDrivesHeraldTaskToolsOverStdio() throws Exception {
    List<String> target = new ArrayList<>(List.of("--"));
    target.addAll(HeraldJar.command("serve", "--stdio"));
    assertTasksWorked(runClient(target));
  }

  @Test
  void typeScriptClientDrivesHeraldTaskToolsOverStreamableHttp() throws Exception {
    try (McpHttpServer http =
        McpHttpServer.builder().server(DemoFixture.server()).port(0).build().start()) {
      assertTasksWorked(runClient(List.of(http.uri().toString())));
    }
  }

  private static void assertTasksWorked(JsonNode seen) {
    assertThat(seen.get("errors")).as("errors the TS client hit").isEmpty();

    JsonNode tasks = seen.get("capabilities").get("tasks");
    assertThat(tasks).as("capabilities.tasks").isNotNull();
    assertThat(tasks.at("/requests/tools/call").isObject()).isTrue();
    assertThat(tasks.has("list")).isTrue();
    assertThat(tasks.has("cancel")).isTrue();
    assertThat(seen.get("taskSupport").get("slow_compute").stringValue()).isEqualTo("optional");
    assertThat(seen.get("taskSupport").get("failing_job").stringValue()).isEqualTo("required");
    assertThat(seen.get("taskSupport").has("greet")).isFalse();

    // The SDK's stream: created, polled to completed, the result from tasks/result; the task's
    // progress reached the call's listener, in order.
    JsonNode slow = seen.get("slow");
    assertThat(slow.get("kinds").get(0).stringValue()).isEqualTo("taskCreated");
    assertThat(last(slow.get("kinds"))).isEqualTo("result");
    assertThat(last(slow.get("statuses"))).isEqualTo("completed");
    assertThat(slow.get("text").stringValue()).isEqualTo("ts: computed for 1 s");
    List<Double> progress = new ArrayList<>();
    slow.get("progress").forEach(p -> progress.add(p.doubleValue()));
    assertThat(progress).isNotEmpty().isSorted().doesNotHaveDuplicates();
    assertThat(progress).allSatisfy(v -> assertThat(v).isBetween(1.0, 4.0));

    // By hand: the CreateTaskResult carries a status, ttl and pollInterval; tasks/result gives the
    // original result with related-task meta.
    assertThat(seen.get("created").get("status").stringValue()).isEqualTo("working");
    assertThat(seen.get("created").get("ttl").isNumber()).isTrue();
    assertThat(seen.get("created").get("pollInterval").isNumber()).isTrue();
    assertThat(seen.get("byHand").get("status").stringValue()).isEqualTo("completed");
    assertThat(seen.get("byHand").get("text").stringValue())
        .isEqualTo("by-hand: computed for 0.5 s");
    assertThat(seen.get("byHand").get("relatedTask").booleanValue()).isTrue();

    // The elicitation asked during the task names the task, and its answer reaches the tool.
    JsonNode confirm = seen.get("confirm");
    assertThat(confirm.get("text").stringValue()).isEqualTo("Deleted ts.txt");
    assertThat(seen.get("elicitations")).hasSize(1);
    assertThat(seen.get("elicitations").get(0).get("message").stringValue())
        .isEqualTo("Delete ts.txt? (nothing is deleted)");
    assertThat(seen.get("elicitations").get(0).get("relatedTask").stringValue())
        .isEqualTo(confirm.get("taskId").stringValue());

    // A tool error result: the task is failed (2025-11-25), tasks/result gives the result.
    assertThat(seen.get("failing").get("status").stringValue()).isEqualTo("failed");
    assertThat(seen.get("failing").get("isError").booleanValue()).isTrue();
    assertThat(seen.get("failing").get("text").stringValue())
        .isEqualTo("failing_job failed, as it always does");

    // A protocol error: failed, and tasks/result answers with the original JSON-RPC error.
    assertThat(seen.get("protocolError").get("status").stringValue()).isEqualTo("failed");
    assertThat(seen.get("protocolError").get("result").get("code").intValue()).isEqualTo(-32603);

    // Cancel: cancelled before the reply; cancelling the terminal task or an unknown id: -32602.
    JsonNode cancel = seen.get("cancel");
    assertThat(cancel.get("ackStatus").stringValue()).isEqualTo("cancelled");
    assertThat(cancel.get("status").stringValue()).isEqualTo("cancelled");
    assertThat(cancel.get("again").get("code").intValue()).isEqualTo(-32602);
    assertThat(cancel.get("unknown").get("code").intValue()).isEqualTo(-32602);

    assertThat(seen.get("listed").booleanValue()).as("tasks/list names every task").isTrue();

    // notifications/tasks/status reached the TS client after the call that created the task had
    // been answered (on the pipe, or the standing GET stream over HTTP).
    List<String> completed = new ArrayList<>();
    seen.get("statusNotifications")
        .forEach(n -> {
          if (n.get("status").stringValue().equals("completed")) {
            completed.add(n.get("taskId").stringValue());
          }
        });
    assertThat(completed)
        .as("completed status notifications: %s", seen.get("statusNotifications"))
        .contains(slow.get("taskId").stringValue());
  }

  private static String last(JsonNode array) {
    return array.get(array.size() - 1).stringValue();
  }
}
