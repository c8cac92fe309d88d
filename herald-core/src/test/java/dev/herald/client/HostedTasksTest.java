package dev.herald.client;

import static dev.herald.testing.Eventually.eventually;
import static org.assertj.core.api.Assertions.assertThat;

import dev.herald.wire.ElicitResult;
import dev.herald.wire.JsonRpcMessage;
import dev.herald.wire.McpJson;
import dev.herald.wire.McpMethods;
import dev.herald.wire.MetaKeys;
import dev.herald.wire.RequestId;
import java.util.Optional;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicBoolean;
import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * A client that hosts tasks (MCP 2025-11-25 basic/utilities/tasks, the client as receiver),
 * driven by a raw server over an in-memory pair: a task-augmented {@code elicitation/create} is
 * answered at once with a task that {@code tasks/get} knows; the handler runs in the background;
 * {@code tasks/result} blocks until it ends and carries related-task meta; {@code tasks/cancel}
 * moves the task to cancelled before answering and trips the handler's token, and is -32602 on a
 * terminal task; {@code tasks/list} lists them; each change goes out as {@code
 * notifications/tasks/status}; an unaugmented request is answered normally.
 */
@Timeout(20)
class HostedTasksTest {
  static final String ASK =
      "{\"mode\":\"form\",\"message\":\"name?\",\"requestedSchema\":{\"type\":\"object\","
          + "\"properties\":{\"name\":{\"type\":\"string\"}}},\"task\":{\"ttl\":60000}}";

  private final CountDownLatch answer = new CountDownLatch(1);
  private final AtomicBoolean sawCancel = new AtomicBoolean();

  private McpClient connect(ScriptedServer server) throws InterruptedException {
    return McpClient.builder()
        .eras(EraPreference.HANDSHAKE_ONLY)
        .hostTasks(true)
        .elicitation((p, ctx) -> {
          if (p.message().equals("stall?")) {
            CountDownLatch stop = new CountDownLatch(1);
            ctx.cancellation().onCancel(stop::countDown);
            stop.await();
            sawCancel.set(ctx.cancellation().isCancelled());
            return ElicitResult.decline();
          }
          answer.await();
          return ElicitResult.accept(McpJson.object().put("name", "Ada"));
        })
        .connect(server.clientEnd());
  }

  private static int next = 100;

  private static RequestId ask(ScriptedServer server, String method, String params) {
    RequestId id = RequestId.of(next++);
    server.send(new JsonRpcMessage.Request(id, method, ModernPeer.json(params)));
    return id;
  }

  private static Optional<JsonRpcMessage.Response> response(ScriptedServer server, RequestId id) {
    return server.received.stream()
        .filter(m -> m instanceof JsonRpcMessage.Response r && r.id().equals(id))
        .map(m -> (JsonRpcMessage.Response) m)
        .findFirst();
  }

  private static JsonNode result(ScriptedServer server, RequestId id) {
    eventually(() -> response(server, id).isPresent(), "the client answers " + id);
    JsonRpcMessage.Response r = response(server, id).orElseThrow();
    assertThat(r).isInstanceOf(JsonRpcMessage.Result.class);
    return ((JsonRpcMessage.Result) r).result();
  }

  private static @Nullable Integer errorCode(ScriptedServer server, RequestId id) {
    eventually(() -> response(server, id).isPresent(), "the client answers " + id);
    return response(server, id).orElseThrow() instanceof JsonRpcMessage.Error e
        ? e.error().code()
        : null;
  }

  @Test
  void aTaskAugmentedElicitationBecomesATaskTheServerCanFollowToItsResult() throws Exception {
    ScriptedServer server = new ScriptedServer("{}");
    try (McpClient client = connect(server)) {
      ObjectNode tasks = client.capabilities().tasks();
      assertThat(tasks).isNotNull();
      assertThat(tasks.get("requests").get("elicitation").has("create")).isTrue();
      assertThat(tasks.get("requests").has("sampling")).as("no sampling handler").isFalse();

      JsonNode created = result(server, ask(server, McpMethods.ELICITATION_CREATE, ASK));
      String taskId = created.get("task").get("taskId").asString();
      assertThat(created.get("task").get("status").asString()).isEqualTo("working");
      assertThat(taskId).hasSize(32);
      JsonNode got =
          result(server, ask(server, McpMethods.TASKS_GET, "{\"taskId\":\"" + taskId + "\"}"));
      assertThat(got.get("status").asString()).isEqualTo("working");

      RequestId waiting = ask(server, McpMethods.TASKS_RESULT, "{\"taskId\":\"" + taskId + "\"}");
      client.ping();
      assertThat(response(server, waiting)).as("tasks/result blocks until terminal").isEmpty();
      answer.countDown();

      JsonNode outcome = result(server, waiting);
      assertThat(outcome.get("action").asString()).isEqualTo("accept");
      assertThat(outcome.get("content").get("name").asString()).isEqualTo("Ada");
      assertThat(MetaKeys.relatedTask((ObjectNode) outcome.get("_meta")).taskId())
          .isEqualTo(taskId);
      eventually(
          () ->
              server.notifications(McpMethods.TASKS_STATUS).stream()
                  .anyMatch(n -> n.params().get("status").asString().equals("completed")),
          "notifications/tasks/status for the completion");
      JsonNode listed = result(server, ask(server, McpMethods.TASKS_LIST, "{}"));
      assertThat(listed.get("tasks").get(0).get("taskId").asString()).isEqualTo(taskId);
      assertThat(
              errorCode(
                  server, ask(server, McpMethods.TASKS_CANCEL, "{\"taskId\":\"" + taskId + "\"}")))
          .as("a terminal task cannot be cancelled")
          .isEqualTo(-32602);
      assertThat(errorCode(server, ask(server, McpMethods.TASKS_GET, "{\"taskId\":\"nope\"}")))
          .isEqualTo(-32602);
    }
  }

  @Test
  void cancelMovesTheTaskToCancelledBeforeAnsweringAndTripsTheHandler() throws Exception {
    ScriptedServer server = new ScriptedServer("{}");
    try (McpClient client = connect(server)) {
      JsonNode created =
          result(
              server, ask(server, McpMethods.ELICITATION_CREATE, ASK.replace("name?", "stall?")));
      String taskId = created.get("task").get("taskId").asString();

      JsonNode cancelled =
          result(server, ask(server, McpMethods.TASKS_CANCEL, "{\"taskId\":\"" + taskId + "\"}"));

      assertThat(cancelled.get("status").asString()).isEqualTo("cancelled");
      eventually(sawCancel::get, "the handler's token tripped");
      JsonNode got =
          result(server, ask(server, McpMethods.TASKS_GET, "{\"taskId\":\"" + taskId + "\"}"));
      assertThat(got.get("status").asString()).isEqualTo("cancelled");
    }
  }

  @Test
  void aRequestWithoutTaskIsAnsweredNormally() throws Exception {
    ScriptedServer server = new ScriptedServer("{}");
    answer.countDown();
    try (McpClient client = connect(server)) {
      JsonNode r =
          result(
              server,
              ask(
                  server,
                  McpMethods.ELICITATION_CREATE,
                  ASK.replace(",\"task\":{\"ttl\":60000}", "")));
      assertThat(r.get("action").asString()).isEqualTo("accept");
      assertThat(r.has("task")).isFalse();
    }
  }
}
