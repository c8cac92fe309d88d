package dev.herald.client;

import static dev.herald.testing.Eventually.eventually;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.herald.internal.session.EngineAccess;
import dev.herald.session.CallOptions;
import dev.herald.session.CancelledException;
import dev.herald.session.CountingEventListener;
import dev.herald.session.ProgressRecord;
import dev.herald.session.ProgressRejection;
import dev.herald.session.ProgressUpdate;
import dev.herald.session.TimeoutException;
import dev.herald.wire.CallToolResult;
import dev.herald.wire.JsonRpcMessage;
import dev.herald.wire.McpJson;
import dev.herald.wire.McpMethods;
import dev.herald.wire.RequestId;
import dev.herald.wire.TaskStatus;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicReference;
import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import tools.jackson.databind.node.ObjectNode;

/**
 * The client's engine for tasks of a handshake-era server (MCP 2025-11-25 basic/utilities/tasks)
 * against a scripted raw peer: the status listener's order and dedup, the progress token kept
 * until the task is terminal (seed rules: refused as late afterwards, the last value rendered
 * before the result), a clock that runs out sends {@code tasks/cancel} and never {@code
 * notifications/cancelled}, and the gates before sending.
 */
@Timeout(20)
class TaskFollowingTest {
  static final String TASK_ID = "0123456789abcdef0123456789abcdef";

  /** A 2025-11-25 server whose task the test moves by hand. */
  static final class TaskServer extends RawPeer {
    final String capabilities;
    volatile String status = "working";
    volatile @Nullable String message;
    volatile int updated; // seconds past the creation, for lastUpdatedAt
    final AtomicReference<JsonRpcMessage.@Nullable Request> resultRequest = new AtomicReference<>();
    volatile @Nullable String progressToken;

    TaskServer(String capabilities) {
      this.capabilities = capabilities;
      start();
    }

    String task() {
      ObjectNode t = McpJson.object();
      t.put("taskId", TASK_ID).put("status", status);
      if (message != null) {
        t.put("statusMessage", message);
      }
      t.put("createdAt", "2026-01-01T00:00:00Z")
          .put("lastUpdatedAt", String.format("2026-01-01T00:00:%02dZ", updated))
          .put("ttl", 60000)
          .put("pollInterval", 5000);
      return t.toString();
    }

    void move(String newStatus, @Nullable String newMessage) {
      status = newStatus;
      message = newMessage;
      updated++;
    }

    void notifyStatus() {
      send(new JsonRpcMessage.Notification(McpMethods.TASKS_STATUS, ModernPeer.json(task())));
    }

    void progress(double value) {
      ObjectNode p = McpJson.object();
      p.put("progressToken", progressToken).put("progress", value).put("total", 10);
      send(new JsonRpcMessage.Notification(McpMethods.PROGRESS, p));
    }

    /** Answers the held tasks/result with the final tool result. */
    void answerResult(String text) {
      JsonRpcMessage.Request r = resultRequest.get();
      send(
          ModernPeer.result(
              r,
              "{\"content\":[{\"type\":\"text\",\"text\":\""
                  + text
                  + "\"}],\"_meta\":{\"io.modelcontextprotocol/related-task\":{\"taskId\":\""
                  + TASK_ID
                  + "\"}}}"));
    }

    @Override
    @Nullable JsonRpcMessage answer(JsonRpcMessage.Request r) {
      return switch (r.method()) {
        case McpMethods.INITIALIZE ->
            ModernPeer.result(
                r,
                "{\"protocolVersion\":\"2025-11-25\",\"capabilities\":"
                    + capabilities
                    + ",\"serverInfo\":{\"name\":\"tasks\",\"version\":\"1\"}}");
        case McpMethods.TOOLS_LIST ->
            ModernPeer.result(
                r,
                "{\"tools\":[{\"name\":\"work\",\"inputSchema\":{\"type\":\"object\"},"
                    + "\"execution\":{\"taskSupport\":\"required\"}},"
                    + "{\"name\":\"plain\",\"inputSchema\":{\"type\":\"object\"}}]}");
        case McpMethods.TOOLS_CALL -> {
          ObjectNode meta = r.params() == null ? null : (ObjectNode) r.params().get("_meta");
          if (meta != null && meta.has("progressToken")) {
            progressToken = meta.get("progressToken").asString();
          }
          yield ModernPeer.result(r, "{\"task\":" + task() + "}");
        }
        case McpMethods.TASKS_GET -> ModernPeer.result(r, task());
        case McpMethods.TASKS_RESULT -> {
          resultRequest.set(r);
          yield null; // held until the test answers it
        }
        case McpMethods.TASKS_CANCEL -> {
          move("cancelled", "Client cancelled task execution.");
          yield ModernPeer.result(r, task());
        }
        default -> ModernPeer.result(r, "{}");
      };
    }

    List<JsonRpcMessage.Request> requests() {
      return received.stream()
          .filter(m -> m instanceof JsonRpcMessage.Request)
          .map(m -> (JsonRpcMessage.Request) m)
          .toList();
    }
  }

  static final String ALL =
      "{\"tasks\":{\"list\":{},\"cancel\":{},\"requests\":{\"tools\":{\"call\":{}}}}}";

  private final CountingEventListener events = new CountingEventListener();

  private McpClient connect(TaskServer server) throws InterruptedException {
    return McpClient.builder()
        .eras(EraPreference.HANDSHAKE_ONLY)
        .eventListener(events)
        .connect(server.clientEnd());
  }

  @Test
  void theStatusListenerHearsEachChangeOnceInOrderWhicheverChannelBringsIt() throws Exception {
    TaskServer server = new TaskServer(ALL);
    try (McpClient client = connect(server)) {
      List<TaskSnapshot> told = new CopyOnWriteArrayList<>();
      TaskHandle task = client.callToolAsTask("work", null, CallOptions.defaults(), told::add);
      eventually(() -> server.resultRequest.get() != null, "tasks/result is asked at once");

      server.move("working", "reading");
      server.notifyStatus();
      server.notifyStatus(); // the same change again
      String stale = server.task();
      server.move("input_required", "need a name");
      server.notifyStatus();
      server.send(new JsonRpcMessage.Notification(McpMethods.TASKS_STATUS, ModernPeer.json(stale)));
      server.move("working", null);
      server.notifyStatus();
      server.move("completed", null);
      server.notifyStatus();
      server.notifyStatus();
      server.answerResult("done");

      CallToolResult result = task.await();
      assertThat(result.firstText()).isEqualTo("done");
      eventually(() -> told.size() == 5, "every change told");
      server.move("working", "after the end");
      server.notifyStatus();
      client.ping();
      assertThat(told)
          .extracting(TaskSnapshot::status, TaskSnapshot::statusMessage)
          .containsExactly(
              org.assertj.core.groups.Tuple.tuple(TaskStatus.WORKING, null),
              org.assertj.core.groups.Tuple.tuple(TaskStatus.WORKING, "reading"),
              org.assertj.core.groups.Tuple.tuple(TaskStatus.INPUT_REQUIRED, "need a name"),
              org.assertj.core.groups.Tuple.tuple(TaskStatus.WORKING, null),
              org.assertj.core.groups.Tuple.tuple(TaskStatus.COMPLETED, null));
      assertThat(task.status().status()).isEqualTo(TaskStatus.COMPLETED);
      assertThat(client.followedTasks()).isZero();
    }
  }

  @Test
  void theTasksProgressTokenStaysActiveUntilTheTaskIsTerminalAndItsLastValueIsRenderedFirst()
      throws Exception {
    TaskServer server = new TaskServer(ALL);
    try (McpClient client = connect(server)) {
      List<ProgressUpdate> updates = new CopyOnWriteArrayList<>();
      TaskHandle task =
          client.callToolAsTask(
              "work",
              null,
              CallOptions.builder()
                  .progress(updates::add)
                  .renderInterval(Duration.ofHours(1)) // only the first and the final render
                  .build(),
              null);
      eventually(() -> server.resultRequest.get() != null, "tasks/result is asked");
      assertThat(EngineAccess.of(client).activeProgressTokens())
          .as("the token outlives the CreateTaskResult")
          .isEqualTo(1);

      server.progress(1);
      server.progress(2);
      server.progress(7); // pending: the cadence holds it back
      eventually(() -> events.progressUpdatesAccepted() == 3, "updates after creation accepted");
      // renders reach the listener on the client's listener thread: wait for the first one
      eventually(() -> !updates.isEmpty(), "the first update rendered");
      assertThat(updates).extracting(ProgressUpdate::progress).containsExactly(1.0);

      server.move("completed", null);
      server.notifyStatus();
      server.answerResult("done");
      task.await();

      assertThat(updates)
          .as("the terminal status flushed the pending value before the result")
          .extracting(ProgressUpdate::progress)
          .containsExactly(1.0, 7.0);
      assertThat(updates.getLast().last()).isTrue();
      assertThat(task.progressRecord().orElseThrow().terminal())
          .isEqualTo(ProgressRecord.Terminal.RESPONSE);
      assertThat(EngineAccess.of(client).activeProgressTokens()).isZero();
      server.progress(8);
      eventually(
          () -> events.progressUpdatesRefused(ProgressRejection.LATE) == 1,
          "an update after the terminal status is late");
    }
  }

  @Test
  void theTerminalStatusIsToldOnlyAfterThePendingProgressValueWasRendered() throws Exception {
    TaskServer server = new TaskServer(ALL);
    try (McpClient client = connect(server)) {
      List<String> seen = new CopyOnWriteArrayList<>();
      TaskHandle task =
          client.callToolAsTask(
              "work",
              null,
              CallOptions.builder()
                  .progress(u -> seen.add("progress " + u.progress()))
                  .renderInterval(Duration.ofHours(1)) // 7 stays pending until the end
                  .build(),
              s -> seen.add("status " + s.status().wire()));
      eventually(() -> server.resultRequest.get() != null, "tasks/result is asked");
      server.progress(1);
      server.progress(7);
      eventually(() -> events.progressUpdatesAccepted() == 2, "both updates accepted");

      server.move("completed", null);
      server.notifyStatus();
      eventually(() -> seen.contains("status completed"), "the terminal status");
      assertThat(seen)
          .containsSubsequence("progress 1.0", "progress 7.0", "status completed")
          .filteredOn(e -> e.startsWith("progress"))
          .containsExactly("progress 1.0", "progress 7.0");
      server.answerResult("done");
      task.await();
    }
  }

  @Test
  void aTaskWhoseClockRunsOutSendsTasksCancelAndNeverNotificationsCancelled() throws Exception {
    TaskServer server = new TaskServer(ALL);
    try (McpClient client = connect(server)) {
      // the clock must outlast the task's creation even on a busy machine (it starts as the
      // request leaves; run out before the task exists, it cancels the request instead)
      TaskHandle task =
          client.callToolAsTask(
              "work", null, CallOptions.builder().timeout(Duration.ofSeconds(3)).build(), null);

      assertThatThrownBy(task::await)
          .isInstanceOfSatisfying(
              TimeoutException.class,
              e -> assertThat(e.clock()).isEqualTo(TimeoutException.Clock.ABSOLUTE));

      assertThat(server.requests(McpMethods.TASKS_CANCEL)).hasSize(1);
      assertThat(
              server.requests(McpMethods.TASKS_CANCEL).getFirst().params().get("taskId").asString())
          .isEqualTo(TASK_ID);
      client.ping();
      assertThat(server.notifications(McpMethods.CANCELLED)).isEmpty();
      assertThat(task.progressRecord()).isEmpty();
    }
  }

  @Test
  void cancellingWithoutTheServersTasksCancelSendsNoCancellationAtAll() throws Exception {
    TaskServer server = new TaskServer("{\"tasks\":{\"requests\":{\"tools\":{\"call\":{}}}}}");
    try (McpClient client = connect(server)) {
      TaskHandle task = client.callToolAsTask("work", null, CallOptions.defaults(), null);

      task.cancel("stop");

      assertThatThrownBy(task::await).isInstanceOf(CancelledException.class);
      client.ping();
      assertThat(server.requests(McpMethods.TASKS_CANCEL)).isEmpty();
      assertThat(server.notifications(McpMethods.CANCELLED)).isEmpty();
      assertThatThrownBy(() -> client.cancelTask(TASK_ID))
          .isInstanceOf(IllegalStateException.class)
          .hasMessageContaining("tasks.cancel");
    }
  }

  @Test
  void aForbiddenToolOrAServerWithoutTaskToolCallsIsRefusedBeforeAnythingIsSent() throws Exception {
    TaskServer server = new TaskServer(ALL);
    try (McpClient client = connect(server)) {
      assertThatThrownBy(() -> client.callToolAsTask("plain", null, CallOptions.defaults(), null))
          .isInstanceOf(IllegalStateException.class)
          .hasMessageContaining("forbidden");
      assertThat(server.requests(McpMethods.TOOLS_CALL)).isEmpty();
    }
    TaskServer none = new TaskServer("{\"tools\":{}}");
    try (McpClient client = connect(none)) {
      assertThatThrownBy(() -> client.callToolAsTask("work", null, CallOptions.defaults(), null))
          .isInstanceOf(IllegalStateException.class)
          .hasMessageContaining("tasks.requests.tools.call");
      assertThat(none.requests(McpMethods.TOOLS_CALL)).isEmpty();
    }
  }

  @Test
  void aPlainCallOfARequiredToolIsTaskAugmentedAndReturnsTheFinalResult() throws Exception {
    TaskServer server = new TaskServer(ALL);
    try (McpClient client = connect(server)) {
      Thread answerer =
          Thread.ofVirtual()
              .start(() -> {
                eventually(() -> server.resultRequest.get() != null, "tasks/result");
                server.move("completed", null);
                server.answerResult("plain result");
              });

      CallToolResult result = client.callTool("work", null);

      answerer.join();
      assertThat(result.firstText()).isEqualTo("plain result");
      JsonRpcMessage.Request call = server.requests(McpMethods.TOOLS_CALL).getFirst();
      assertThat(call.params().get("task").isObject()).isTrue();
    }
  }

  @Test
  void pollingBacksOffWhileNothingNewArrivesAndStartsOverWhenSomethingDoes() {
    TaskPolling polling = new TaskPolling();
    assertThat(polling.next()).isEqualTo(Duration.ofSeconds(1));
    polling.suggested(Duration.ofMillis(200));
    assertThat(polling.next()).isEqualTo(Duration.ofMillis(200));
    polling.quietPoll();
    assertThat(polling.next()).isEqualTo(Duration.ofMillis(300));
    polling.quietPoll();
    assertThat(polling.next()).isEqualTo(Duration.ofMillis(450));
    for (int i = 0; i < 20; i++) {
      polling.quietPoll();
    }
    assertThat(polling.next()).isEqualTo(Duration.ofMillis(1600)); // eight times at most
    polling.heard();
    assertThat(polling.next()).isEqualTo(Duration.ofMillis(200));
    polling.suggested(Duration.ofMillis(1));
    assertThat(polling.next()).isEqualTo(TaskPolling.FLOOR);
    polling.suggested(Duration.ofSeconds(10));
    for (int i = 0; i < 20; i++) {
      polling.quietPoll();
    }
    assertThat(polling.next()).isEqualTo(TaskPolling.CEILING);
    polling.suggested(Duration.ofMinutes(1));
    assertThat(polling.next()).isEqualTo(Duration.ofMinutes(1)); // never faster than asked
  }

  static RequestId id(JsonRpcMessage.Request r) {
    return r.id();
  }
}
