package dev.herald.client;

import static dev.herald.client.ModernPeer.result;
import static dev.herald.testing.Eventually.eventually;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.herald.session.CallOptions;
import dev.herald.session.CancelledException;
import dev.herald.wire.CallToolResult;
import dev.herald.wire.ElicitResult;
import dev.herald.wire.JsonRpcMessage;
import dev.herald.wire.McpException;
import dev.herald.wire.McpJson;
import dev.herald.wire.McpMethods;
import dev.herald.wire.MetaKeys;
import dev.herald.wire.RequestId;
import dev.herald.wire.TaskStatus;
import dev.herald.wire.TasksExtension;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicReference;
import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import tools.jackson.databind.node.ObjectNode;

/**
 * The client's engine for tasks of the 2026-07-28 extension {@code io.modelcontextprotocol/tasks}
 * (SEP-2663) against a scripted raw peer: requests declare the extension; a {@code tools/call}
 * answered with {@code resultType: "task"} is followed to its inlined result; the task's ids are
 * listened for ({@code taskIds}); {@code input_required} is answered with the client's handlers
 * and {@code tasks/update}; the {@code requestState} of a notification goes on the next {@code
 * tasks/get}; a failed task is its JSON-RPC error; cancel is {@code tasks/cancel}; there is no
 * {@code tasks/list}.
 */
@Timeout(20)
class ModernTaskFollowingTest {
  static final String ID = "fedcba9876543210fedcba9876543210";
  static final String ELICIT =
      "{\"method\":\"elicitation/create\",\"params\":{\"mode\":\"form\",\"message\":\"name?\","
          + "\"requestedSchema\":{\"type\":\"object\",\"properties\":{\"name\":{\"type\":\"string\"}}}}}";

  static String common(String status) {
    return "\"taskId\":\""
        + ID
        + "\",\"status\":\""
        + status
        + "\",\"createdAt\":\"2026-01-01T00:00:00Z\",\"lastUpdatedAt\":\"2026-01-01T00:00:0"
        + switch (status) {
          case "working" -> "0";
          case "input_required" -> "1";
          default -> "2";
        }
        + "Z\",\"ttlMs\":60000,\"pollIntervalMs\":100";
  }

  static final String CREATED = "{\"resultType\":\"task\"," + common("working") + "}";
  static final String INPUT =
      "{" + common("input_required") + ",\"inputRequests\":{\"who\":" + ELICIT + "}}";
  static final String DONE =
      "{\"resultType\":\"complete\","
          + common("completed")
          + ",\"result\":{\"content\":[{\"type\":\"text\",\"text\":\"hello Ada\"}],\"isError\":true}}";

  static ModernPeer peer() {
    ModernPeer peer = new ModernPeer();
    peer.on(
        McpMethods.SERVER_DISCOVER,
        r ->
            result(
                r,
                ModernPeer.DISCOVER.replace(
                    "\"capabilities\":{",
                    "\"capabilities\":{\"extensions\":{\"io.modelcontextprotocol/tasks\":{}},")));
    return peer;
  }

  @Test
  void aTaskAnswerIsFollowedThroughInputRequiredToItsInlinedResult() throws Exception {
    ModernPeer peer = peer();
    AtomicReference<@Nullable RequestId> listenId = new AtomicReference<>();
    AtomicReference<String> state =
        new AtomicReference<>("{\"resultType\":\"complete\"," + common("working") + "}");
    peer.on(McpMethods.TOOLS_CALL, r -> result(r, CREATED));
    peer.on(
        McpMethods.SUBSCRIPTIONS_LISTEN,
        r -> {
          listenId.set(r.id());
          peer.notifyListen(
              r.id(),
              McpMethods.SUBSCRIPTIONS_ACKNOWLEDGED,
              "{\"notifications\":{\"taskIds\":[\"" + ID + "\"]}}");
          return null;
        });
    peer.on(McpMethods.TASKS_GET, r -> result(r, state.get()));
    peer.on(
        McpMethods.TASKS_UPDATE,
        r -> {
          state.set(DONE);
          return result(r, "{\"resultType\":\"complete\"}");
        });
    List<String> asked = new CopyOnWriteArrayList<>();
    try (McpClient client =
        McpClient.builder()
            .elicitation((p, ctx) -> {
              asked.add(p.message());
              return ElicitResult.accept(McpJson.object().put("name", "Ada"));
            })
            .connect(peer.clientEnd())) {
      List<TaskSnapshot> told = new CopyOnWriteArrayList<>();
      TaskHandle task = client.callToolAsTask("greet", null, CallOptions.defaults(), told::add);
      assertThat(task.hasTask()).isTrue();
      assertThat(task.taskId()).isEqualTo(ID);
      eventually(() -> listenId.get() != null, "the task's ids are listened for");
      ObjectNode listenParams = peer.requests(McpMethods.SUBSCRIPTIONS_LISTEN).getFirst().params();
      assertThat(listenParams.get("notifications").get("taskIds").get(0).asString()).isEqualTo(ID);

      ObjectNode input = ModernPeer.json(INPUT);
      input.put("requestState", "rs-1");
      peer.notifyListen(
          java.util.Objects.requireNonNull(listenId.get()),
          McpMethods.TASKS_EXT_STATUS,
          input.toString());

      CallToolResult result = task.await();

      assertThat(result.firstText()).isEqualTo("hello Ada");
      assertThat(result.failed()).as("a completed task's isError result is its result").isTrue();
      assertThat(asked).containsExactly("name?");
      JsonRpcMessage.Request update = peer.requests(McpMethods.TASKS_UPDATE).getFirst();
      assertThat(update.params().get("taskId").asString()).isEqualTo(ID);
      assertThat(update.params().get("inputResponses").get("who").get("action").asString())
          .isEqualTo("accept");
      List<JsonRpcMessage.Request> gets = peer.requests(McpMethods.TASKS_GET);
      assertThat(gets.getLast().params().get("requestState").asString())
          .as("the notification's requestState rides the next tasks/get")
          .isEqualTo("rs-1");
      JsonRpcMessage.Request call = peer.requests(McpMethods.TOOLS_CALL).getFirst();
      ObjectNode caps = (ObjectNode) call.params().get("_meta").get(MetaKeys.CLIENT_CAPABILITIES);
      assertThat(caps.get("extensions").has(TasksExtension.ID)).isTrue();
      assertThat(caps.has("tasks")).as("no 2025 tasks capability in 2026").isFalse();
      assertThat(call.params().has("task")).as("no params.task in 2026").isFalse();
      eventually(() -> told.size() == 3, "every change told");
      assertThat(told)
          .extracting(TaskSnapshot::status)
          .containsExactly(TaskStatus.WORKING, TaskStatus.INPUT_REQUIRED, TaskStatus.COMPLETED);
      eventually(() -> client.openListens() == 0, "the listen ends with the task");
      assertThat(peer.requests(McpMethods.TASKS_RESULT)).isEmpty();
    }
  }

  @Test
  void aPlainCallThatBecomesATaskReturnsTheFailedTasksErrorAndCancelIsTasksCancel()
      throws Exception {
    ModernPeer peer = peer();
    peer.on(McpMethods.TOOLS_CALL, r -> result(r, CREATED));
    peer.on(
        McpMethods.TASKS_GET,
        r ->
            result(
                r,
                "{\"resultType\":\"complete\","
                    + common("failed")
                    + ",\"error\":{\"code\":-32603,\"message\":\"disk full\"}}"));
    try (McpClient client = McpClient.builder().connect(peer.clientEnd())) {
      assertThatThrownBy(() -> client.callTool("greet", null))
          .isInstanceOfSatisfying(
              McpException.class,
              e -> {
                assertThat(e.code()).isEqualTo(-32603);
                assertThat(e.getMessage()).contains("disk full");
              });
      assertThatThrownBy(client::listTasks).isInstanceOf(UnsupportedOperationException.class);
    }

    ModernPeer slow = peer();
    slow.on(McpMethods.TOOLS_CALL, r -> result(r, CREATED));
    slow.on(
        McpMethods.TASKS_GET,
        r -> result(r, "{\"resultType\":\"complete\"," + common("working") + "}"));
    slow.on(McpMethods.TASKS_CANCEL, r -> result(r, "{\"resultType\":\"complete\"}"));
    try (McpClient client = McpClient.builder().connect(slow.clientEnd())) {
      ToolCallHandle call = client.callToolAsync("greet", null, CallOptions.defaults());
      eventually(() -> call.taskId().isPresent(), "the call became a task");

      assertThat(call.cancel("stop")).isTrue();

      assertThatThrownBy(call::await).isInstanceOf(CancelledException.class);
      assertThat(slow.requests(McpMethods.TASKS_CANCEL)).hasSize(1);
      client.tools();
      assertThat(slow.notifications(McpMethods.CANCELLED))
          .as("never notifications/cancelled for a task (the listen may be cancelled)")
          .allSatisfy(n ->
              assertThat(n.params().get("requestId"))
                  .isNotEqualTo(
                      McpJson.toTree(slow.requests(McpMethods.TOOLS_CALL).getFirst().id())));
    }
  }

  @Test
  void withTheExtensionTurnedOffNoRequestDeclaresItAndCallToolAsTaskRefuses() throws Exception {
    ModernPeer peer = peer();
    peer.on(McpMethods.TOOLS_CALL, r -> result(r, "{\"resultType\":\"complete\",\"content\":[]}"));
    try (McpClient client = McpClient.builder().taskExtension(false).connect(peer.clientEnd())) {
      client.callTool("greet", null);
      ObjectNode caps =
          (ObjectNode)
              peer.requests(McpMethods.TOOLS_CALL)
                  .getFirst()
                  .params()
                  .get("_meta")
                  .get(MetaKeys.CLIENT_CAPABILITIES);
      assertThat(caps.has("extensions") && caps.get("extensions").has(TasksExtension.ID)).isFalse();
      assertThatThrownBy(() -> client.callToolAsTask("greet", null, CallOptions.defaults(), null))
          .isInstanceOf(IllegalStateException.class);
    }
  }
}
