package dev.herald.server;

import static dev.herald.server.Peers.awaitTrue;
import static dev.herald.server.TaskPeer.plainCall;
import static dev.herald.server.TaskPeer.taskCall;
import static dev.herald.server.TaskPeer.taskId;
import static org.assertj.core.api.Assertions.assertThat;

import dev.herald.internal.session.EngineAccess;
import dev.herald.internal.session.OutboundCall;
import dev.herald.tasks.StoredTask;
import dev.herald.wire.CallToolResult;
import dev.herald.wire.ElicitParams;
import dev.herald.wire.ElicitResult;
import dev.herald.wire.ErrorCodes;
import dev.herald.wire.JsonRpcMessage;
import dev.herald.wire.McpException;
import dev.herald.wire.McpJson;
import dev.herald.wire.McpMethods;
import dev.herald.wire.MetaKeys;
import dev.herald.wire.TaskSupport;
import dev.herald.wire.Tool;
import java.time.Duration;
import java.time.Instant;
import java.time.InstantSource;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * The handshake-era (2025-11-25) tasks over an in-memory wire: task-augmented {@code tools/call},
 * {@code tasks/get|result|list|cancel}, status notifications, progress and input of a task,
 * isolation, expiry and the end of the session. Handlers block on latches; tests wait for
 * conditions.
 */
class LegacyTasksTest {
  private final CountDownLatch gate = new CountDownLatch(1);
  private final CountDownLatch running = new CountDownLatch(1);
  private final AtomicBoolean sawCancel = new AtomicBoolean();
  private final AtomicReference<Object> sawTaskId = new AtomicReference<>();

  private McpServer server() {
    return server(TaskSettings.defaults(), McpServer.builder());
  }

  private McpServer server(TaskSettings settings, McpServer.Builder builder) {
    return builder
        .tasks(settings)
        .tool(Tool.builder("plain").build(), call -> CallToolResult.text("plain"))
        .tool(
            Tool.builder("work").taskSupport(TaskSupport.OPTIONAL).build(),
            TaskStart.AT_ONCE,
            call -> {
              RequestContext ctx = call.context();
              sawTaskId.set(ctx.taskId().orElse(null));
              ctx.progress().report(1, 2.0, "started");
              ctx.statusMessage("halfway");
              running.countDown();
              try {
                gate.await();
              } catch (InterruptedException e) {
                sawCancel.set(ctx.cancellation().isCancelled());
                throw e;
              }
              ctx.progress().report(2, 2.0, "finishing");
              return CallToolResult.text("done");
            })
        .tool(
            Tool.builder("must").taskSupport(TaskSupport.REQUIRED).build(),
            TaskStart.AT_ONCE,
            call -> CallToolResult.text("must"))
        .tool(
            Tool.builder("boom").taskSupport(TaskSupport.OPTIONAL).build(),
            TaskStart.AT_ONCE,
            call -> {
              throw new McpException(-32050, "kaboom", McpJson.object().put("why", "test"));
            })
        .tool(
            Tool.builder("toolError").taskSupport(TaskSupport.OPTIONAL).build(),
            TaskStart.AT_ONCE,
            call -> CallToolResult.error("bad input"))
        .tool(
            Tool.builder("ask").taskSupport(TaskSupport.OPTIONAL).build(),
            TaskStart.AT_ONCE,
            call -> {
              ElicitResult r =
                  call.context()
                      .elicit(ElicitParams.form("Name?", McpJson.object().put("type", "object")));
              return CallToolResult.text("hello " + r.content().get("name").stringValue());
            })
        .tool(
            Tool.builder("later").taskSupport(TaskSupport.OPTIONAL).build(),
            TaskStart.WHEN_HANDLER_STARTS_IT,
            call -> {
              RequestContext ctx = call.context();
              ElicitResult r =
                  ctx.elicit(ElicitParams.form("Go?", McpJson.object().put("type", "object")));
              ctx.startTask();
              sawTaskId.set(ctx.taskId().orElse(null));
              running.countDown();
              gate.await();
              return CallToolResult.text("later " + r.action().wire());
            })
        .build();
  }

  private static ObjectNode elicitAnswer(String method) {
    if (!McpMethods.ELICITATION_CREATE.equals(method)) {
      throw McpException.methodNotFound(method);
    }
    return (ObjectNode) McpJson.toTree(ElicitResult.accept(McpJson.object().put("name", "Ada")));
  }

  @Test
  void theServerDeclaresTasksAndToolsListShowsTaskSupportInTheHandshakeEra() throws Exception {
    McpServer server = server();
    try (TaskPeer peer = TaskPeer.connect(server)) {
      ObjectNode tasks = (ObjectNode) McpJson.toTree(peer.session.serverCapabilities().tasks());
      assertThat(tasks.toString())
          .isEqualTo("{\"list\":{},\"cancel\":{},\"requests\":{\"tools\":{\"call\":{}}}}");
      JsonNode tools = peer.request(McpMethods.TOOLS_LIST, McpJson.object()).get("tools");
      for (JsonNode t : tools) {
        if (t.get("name").stringValue().equals("work")) {
          assertThat(t.get("execution").get("taskSupport").stringValue()).isEqualTo("optional");
        }
      }
    }
    McpServer noTasks = McpServer.builder().tool(Tool.builder("x").build(), c -> null).build();
    assertThat(noTasks.capabilities().tasks()).isNull();
  }

  @Test
  void aStatelessRequestSeesNoneOfTheHandshakeEraTaskModel() throws Exception {
    try (StatelessPeer peer = StatelessPeer.connect(server())) {
      ObjectNode tools = peer.request(McpMethods.TOOLS_LIST, StatelessPeer.params());
      assertThat(tools.get("tools"))
          .isNotEmpty()
          .allSatisfy(t -> assertThat(t.has("execution")).as(t.toString()).isFalse());
      ObjectNode call = taskCall("toolError", 1000L, null);
      call.set("_meta", StatelessPeer.params().get("_meta"));
      ObjectNode r = peer.request(McpMethods.TOOLS_CALL, call);
      assertThat(r.has("task")).isFalse();
      assertThat(r.get("isError").booleanValue()).isTrue();
    }
  }

  @Test
  void aTaskCallIsAnsweredWithTheStoredTaskBeforeTheHandlerEndsAndTasksResultGivesTheResult()
      throws Exception {
    McpServer server = server();
    try (TaskPeer peer = TaskPeer.connect(server)) {
      ObjectNode created = peer.request(McpMethods.TOOLS_CALL, taskCall("work", 60_000L, null));
      ObjectNode task = (ObjectNode) created.get("task");
      String id = task.get("taskId").stringValue();
      assertThat(id).matches("[A-Za-z0-9_-]{22}");
      assertThat(task.get("status").stringValue()).isEqualTo("working");
      assertThat(task.get("createdAt").stringValue()).matches("\\d{4}-\\d\\d-\\d\\dT.*Z");
      assertThat(task.get("lastUpdatedAt").isString()).isTrue();
      assertThat(task.get("ttl").longValue()).isEqualTo(60_000L);
      assertThat(task.get("pollInterval").longValue()).isEqualTo(1000L);

      // durable: tasks/get succeeds at once; the handler knows its task id
      assertThat(peer.status(id)).isIn("working");
      running.await();
      assertThat(sawTaskId.get()).isEqualTo(id);
      awaitTrue(() -> peer.statuses(id).contains("working"));
      ObjectNode mid = peer.request(McpMethods.TASKS_GET, taskId(id));
      assertThat(mid.get("statusMessage").stringValue()).isEqualTo("halfway");
      assertThat(mid.has("ttl") && mid.has("pollInterval") && mid.has("createdAt")).isTrue();

      OutboundCall result = peer.send(McpMethods.TASKS_RESULT, taskId(id)); // blocks until terminal
      gate.countDown();
      ObjectNode payload = (ObjectNode) Peers.await(result.result());
      assertThat(payload.get("content").get(0).get("text").stringValue()).isEqualTo("done");
      assertThat(payload.get("_meta").get(MetaKeys.RELATED_TASK).get("taskId").stringValue())
          .isEqualTo(id);
      awaitTrue(() -> peer.statuses(id).contains("completed"));
      assertThat(peer.statuses(id)).endsWith("completed").doesNotHaveDuplicates();
      assertThat(peer.statusNotifications(id))
          .allSatisfy(n -> assertThat(n.has("_meta")).isFalse());
      assertThat(peer.status(id)).isEqualTo("completed");
    }
  }

  @Test
  void theRequestedTtlIsCappedAndAbsentMeansTheDefault() throws Exception {
    McpServer server =
        server(
            TaskSettings.builder()
                .defaultTtl(Duration.ofSeconds(30))
                .maxTtl(Duration.ofMinutes(1))
                .pollInterval(Duration.ofMillis(250))
                .build(),
            McpServer.builder());
    try (TaskPeer peer = TaskPeer.connect(server)) {
      JsonNode capped =
          peer.request(McpMethods.TOOLS_CALL, taskCall("must", 3_600_000L, null)).get("task");
      JsonNode dflt = peer.request(McpMethods.TOOLS_CALL, taskCall("must", null, null)).get("task");
      assertThat(capped.get("ttl").longValue()).isEqualTo(60_000L);
      assertThat(dflt.get("ttl").longValue()).isEqualTo(30_000L);
      assertThat(dflt.get("pollInterval").longValue()).isEqualTo(250L);
    }
  }

  @Test
  void taskSupportDecidesWhichCallsAreRefusedWithMethodNotFound() throws Exception {
    try (TaskPeer peer = TaskPeer.connect(server())) {
      McpException required = peer.error(McpMethods.TOOLS_CALL, plainCall("must", null));
      McpException forbidden = peer.error(McpMethods.TOOLS_CALL, taskCall("plain", null, null));
      assertThat(required.code()).isEqualTo(ErrorCodes.METHOD_NOT_FOUND);
      assertThat(forbidden.code()).isEqualTo(ErrorCodes.METHOD_NOT_FOUND);
      // an optional tool called plainly is a plain call
      assertThat(
              peer.request(McpMethods.TOOLS_CALL, plainCall("toolError", null))
                  .get("isError")
                  .booleanValue())
          .isTrue();
    }
  }

  @Test
  void aHandlersMcpExceptionFailsTheTaskAndTasksResultReturnsThatVeryError() throws Exception {
    try (TaskPeer peer = TaskPeer.connect(server())) {
      String boom = peer.start("boom");
      McpException e = peer.error(McpMethods.TASKS_RESULT, taskId(boom));
      assertThat(e.code()).isEqualTo(-32050);
      assertThat(e.getMessage()).isEqualTo("kaboom");
      assertThat(e.data().get("why").stringValue()).isEqualTo("test");
      assertThat(peer.status(boom)).isEqualTo("failed");

      String toolError = peer.start("toolError");
      ObjectNode r = peer.request(McpMethods.TASKS_RESULT, taskId(toolError));
      assertThat(r.get("isError").booleanValue()).isTrue();
      assertThat(peer.status(toolError)).isEqualTo("failed"); // 2025-11-25: isError is failed
    }
  }

  @Test
  void tasksCancelMovesTheTaskToCancelledBeforeReplyingAndTripsTheHandler() throws Exception {
    try (TaskPeer peer = TaskPeer.connect(server())) {
      String id = peer.start("work");
      running.await();
      OutboundCall waiting = peer.send(McpMethods.TASKS_RESULT, taskId(id));
      ObjectNode cancelled = peer.request(McpMethods.TASKS_CANCEL, taskId(id));
      assertThat(cancelled.get("status").stringValue()).isEqualTo("cancelled");
      assertThat(cancelled.get("taskId").stringValue()).isEqualTo(id);
      awaitTrue(sawCancel::get);

      McpException again = peer.error(McpMethods.TASKS_CANCEL, taskId(id));
      assertThat(again.code()).isEqualTo(ErrorCodes.INVALID_PARAMS);
      // the waiting tasks/result is answered: a cancelled task has no result
      McpException noResult = assertFails(waiting);
      assertThat(noResult.code()).isEqualTo(ErrorCodes.INVALID_PARAMS);
      assertThat(peer.status(id)).isEqualTo("cancelled");
      awaitTrue(() -> peer.statuses(id).contains("cancelled"));
      awaitTrue(() -> peer.session.server().taskRuntime.runningCount() == 0);
      assertThat(peer.wire.notifications(McpMethods.CANCELLED)).isEmpty();
    }
  }

  private static McpException assertFails(OutboundCall call) throws Exception {
    try {
      JsonNode r = Peers.await(call.result());
      throw new AssertionError("succeeded with " + r);
    } catch (McpException e) {
      return e;
    }
  }

  @Test
  void cancellationRacingCompletionLeavesExactlyOneTerminalStatus() throws Exception {
    for (int round = 0; round < 50; round++) {
      CountDownLatch release = new CountDownLatch(1);
      CountDownLatch inHandler = new CountDownLatch(1);
      McpServer server =
          McpServer.builder()
              .tool(
                  Tool.builder("race").taskSupport(TaskSupport.OPTIONAL).build(),
                  TaskStart.AT_ONCE,
                  call -> {
                    inHandler.countDown();
                    try {
                      release.await();
                    } catch (InterruptedException e) {
                      // cancelled: the handler still answers, and its answer must be dropped
                    }
                    return CallToolResult.text("finished");
                  })
              .build();
      try (TaskPeer peer = TaskPeer.connect(server)) {
        String id = peer.start("race");
        inHandler.await();
        OutboundCall cancel = peer.send(McpMethods.TASKS_CANCEL, taskId(id));
        release.countDown();
        boolean cancelWon;
        try {
          JsonNode r = Peers.await(cancel.result());
          assertThat(r.get("status").stringValue()).isEqualTo("cancelled");
          cancelWon = true;
        } catch (McpException e) {
          assertThat(e.code()).isEqualTo(ErrorCodes.INVALID_PARAMS);
          cancelWon = false;
        }
        awaitTrue(() -> server.taskRuntime.runningCount() == 0);
        String status = peer.status(id);
        assertThat(status).isEqualTo(cancelWon ? "cancelled" : "completed");
        if (cancelWon) {
          McpException e = peer.error(McpMethods.TASKS_RESULT, taskId(id));
          assertThat(e.getMessage()).contains("cancelled");
        }
        awaitTrue(() -> peer.statuses(id).contains(status));
        assertThat(peer.statuses(id).stream().filter(s -> !s.equals("working")).toList())
            .containsExactly(status);
      }
      server.close();
    }
  }

  @Test
  void progressAfterTheCreateTaskResultUsesTheOriginalTokenWhichStaysTakenUntilTheTaskEnds()
      throws Exception {
    try (TaskPeer peer = TaskPeer.connect(server())) {
      OutboundCall call = peer.send(McpMethods.TOOLS_CALL, taskCall("work", null, "tok-1"));
      ObjectNode created = (ObjectNode) Peers.await(call.result());
      String id = created.get("task").get("taskId").stringValue();
      running.await();

      // the token is still taken: a plain call carrying it is refused
      McpException taken = peer.error(McpMethods.TOOLS_CALL, plainCall("plain", "tok-1"));
      assertThat(taken.code()).isEqualTo(ErrorCodes.INVALID_PARAMS);
      assertThat(taken.getMessage()).contains("progress token");

      gate.countDown();
      awaitTrue(() -> peer.statuses(id).contains("completed"));
      List<RecordingEnd.Sent> progress = peer.sentNotifications(McpMethods.PROGRESS);
      assertThat(progress)
          .extracting(s ->
              ((JsonRpcMessage.Notification) s.message()).params().get("progress").doubleValue())
          .containsExactly(1.0, 2.0);
      // the last one went after the CreateTaskResult, with no related request (the standing stream)
      assertThat(progress.getLast().relatedTo()).isNull();
      int answeredAt = indexOfResponse(peer, call);
      assertThat(peer.sent.indexOf(progress.getLast())).isGreaterThan(answeredAt);
      // the final progress went out before the terminal status
      int completedAt = indexOfStatus(peer, id, "completed");
      assertThat(peer.sent.indexOf(progress.getLast())).isLessThan(completedAt);

      // free again once the task is terminal
      assertThat(peer.request(McpMethods.TOOLS_CALL, plainCall("plain", "tok-1")).toString())
          .contains("plain");
      assertThat(EngineAccess.of(peer.session).detachedCount()).isZero();
    }
  }

  @Test
  void nothingOfATaskReachesTheClientBeforeItsCreateTaskResult() throws Exception {
    try (TaskPeer peer = TaskPeer.connect(server())) {
      for (int i = 0; i < 20; i++) {
        OutboundCall call = peer.send(McpMethods.TOOLS_CALL, taskCall("must", null, "fast-" + i));
        String id = Peers.await(call.result()).get("task").get("taskId").stringValue();
        awaitTrue(() -> peer.statuses(id).contains("completed"));
        assertThat(indexOfResponse(peer, call)).isLessThan(indexOfStatus(peer, id, "completed"));
      }
    }
  }

  private static int indexOfResponse(TaskPeer peer, OutboundCall call) {
    for (int i = 0; i < peer.sent.size(); i++) {
      if (peer.sent.get(i).message() instanceof JsonRpcMessage.Result r
          && r.id().equals(call.id())) {
        return i;
      }
    }
    throw new AssertionError("no response to " + call.id());
  }

  private static int indexOfStatus(TaskPeer peer, String id, String status) {
    for (int i = 0; i < peer.sent.size(); i++) {
      if (peer.sent.get(i).message() instanceof JsonRpcMessage.Notification n
          && n.method().equals(McpMethods.TASKS_STATUS)
          && n.params().get("taskId").stringValue().equals(id)
          && n.params().get("status").stringValue().equals(status)) {
        return i;
      }
    }
    throw new AssertionError("no " + status + " notification");
  }

  @Test
  void aTaskOfOneSessionDoesNotExistForAnother() throws Exception {
    McpServer server = server();
    try (TaskPeer mine = TaskPeer.connect(server);
        TaskPeer other = TaskPeer.connect(server)) {
      String id = mine.start("work");
      for (String method :
          List.of(McpMethods.TASKS_GET, McpMethods.TASKS_RESULT, McpMethods.TASKS_CANCEL)) {
        McpException e = other.error(method, taskId(id));
        assertThat(e.code()).as(method).isEqualTo(ErrorCodes.INVALID_PARAMS);
        assertThat(e.getMessage()).isEqualTo("Unknown task: " + id);
      }
      assertThat(other.request(McpMethods.TASKS_LIST, McpJson.object()).get("tasks")).isEmpty();
      assertThat(mine.request(McpMethods.TASKS_LIST, McpJson.object()).get("tasks")).hasSize(1);
      assertThat(mine.status(id)).isEqualTo("working");
      gate.countDown();
    }
  }

  @Test
  void tasksListIsPaginatedAndABadCursorIsInvalidParams() throws Exception {
    McpServer server = server(TaskSettings.defaults(), McpServer.builder().pageSize(2));
    try (TaskPeer peer = TaskPeer.connect(server)) {
      for (int i = 0; i < 5; i++) {
        peer.start("must");
      }
      int seen = 0;
      String cursor = null;
      do {
        ObjectNode p = McpJson.object();
        if (cursor != null) {
          p.put("cursor", cursor);
        }
        ObjectNode page = peer.request(McpMethods.TASKS_LIST, p);
        seen += page.get("tasks").size();
        assertThat(page.get("tasks").size()).isLessThanOrEqualTo(2);
        cursor = page.has("nextCursor") ? page.get("nextCursor").stringValue() : null;
      } while (cursor != null);
      assertThat(seen).isEqualTo(5);
      McpException bad =
          peer.error(McpMethods.TASKS_LIST, McpJson.object().put("cursor", "not-a-cursor"));
      assertThat(bad.code()).isEqualTo(ErrorCodes.INVALID_PARAMS);
    }
  }

  @Test
  void aTaskAsksForInputWithRelatedTaskMetaAndIsInputRequiredMeanwhile() throws Exception {
    CountDownLatch asked = new CountDownLatch(1);
    CountDownLatch answer = new CountDownLatch(1);
    McpServer server = server();
    try (TaskPeer peer =
        TaskPeer.connect(
            server,
            TaskPeer.ELICITATION,
            call -> {
              asked.countDown();
              answer.await();
              return elicitAnswer(call.method());
            })) {
      String id = peer.start("ask");
      asked.await();
      assertThat(peer.status(id)).isEqualTo("input_required");
      JsonRpcMessage.Request elicit = peer.wire.requests(McpMethods.ELICITATION_CREATE).getFirst();
      assertThat(
              elicit.params().get("_meta").get(MetaKeys.RELATED_TASK).get("taskId").stringValue())
          .isEqualTo(id);
      answer.countDown();
      ObjectNode r = peer.request(McpMethods.TASKS_RESULT, taskId(id));
      assertThat(r.get("content").get(0).get("text").stringValue()).isEqualTo("hello Ada");
      assertThat(peer.statuses(id)).containsSubsequence("input_required", "working", "completed");
    }
  }

  @Test
  void aHandlerStartingItsTaskLaterAsksThroughTheRequestFirstThenGoesOnAsTheTask()
      throws Exception {
    McpServer server = server();
    try (TaskPeer peer =
        TaskPeer.connect(server, TaskPeer.ELICITATION, call -> elicitAnswer(call.method()))) {
      ObjectNode created = peer.request(McpMethods.TOOLS_CALL, taskCall("later", null, null));
      String id = created.get("task").get("taskId").stringValue();
      running.await();
      assertThat(sawTaskId.get()).isEqualTo(id);
      JsonRpcMessage.Request elicit = peer.wire.requests(McpMethods.ELICITATION_CREATE).getFirst();
      assertThat(elicit.params().has("_meta")).isFalse(); // asked as part of the request
      assertThat(peer.status(id)).isEqualTo("working");
      gate.countDown();
      ObjectNode r = peer.request(McpMethods.TASKS_RESULT, taskId(id));
      assertThat(r.get("content").get(0).get("text").stringValue()).isEqualTo("later accept");
    }
  }

  @Test
  void aHeldOpenTasksGetStreamsEveryStatusChangeThenAnswersWithTheTerminalTask() throws Exception {
    try (TaskPeer peer = TaskPeer.connect(server())) {
      String id = peer.start("work");
      running.await();
      awaitTrue(() -> peer.statuses(id).contains("working")); // the status message change
      ObjectNode follow = taskId(id);
      follow.putObject("_meta").put(TaskMethods.FOLLOW, true);
      int observers = server(peer).taskRuntime.observerCount();
      OutboundCall held = peer.send(McpMethods.TASKS_GET, follow);
      awaitTrue(() -> server(peer).taskRuntime.observerCount() == observers + 1); // it follows
      gate.countDown();
      JsonNode last = Peers.await(held.result());
      assertThat(last.get("status").stringValue()).isEqualTo("completed");
      List<RecordingEnd.Sent> onGet =
          peer.sentNotifications(McpMethods.TASKS_STATUS).stream()
              .filter(s -> held.id().equals(s.relatedTo()))
              .toList();
      assertThat(onGet)
          .extracting(
              s -> ((JsonRpcMessage.Notification) s.message()).params().get("status").stringValue())
          .endsWith("completed");
      // and the standing stream had it too
      assertThat(
              peer.sentNotifications(McpMethods.TASKS_STATUS).stream()
                  .filter(s -> s.relatedTo() == null)
                  .map(s ->
                      ((JsonRpcMessage.Notification) s.message())
                          .params()
                          .get("status")
                          .stringValue()))
          .contains("completed");
      // a held-open tasks/get of a terminal task answers at once
      assertThat(peer.request(McpMethods.TASKS_GET, follow).get("status").stringValue())
          .isEqualTo("completed");
    }
  }

  private static McpServer server(TaskPeer peer) {
    return peer.session.server();
  }

  @Test
  void closingTheSessionCancelsItsRunningTasksAndFreesEverything() throws Exception {
    McpServer server = server();
    TaskPeer peer = TaskPeer.connect(server);
    String id =
        peer.request(McpMethods.TOOLS_CALL, taskCall("work", null, "tok"))
            .get("task")
            .get("taskId")
            .stringValue();
    running.await();
    String owner = peer.session.taskSessionId();
    peer.close();
    awaitTrue(sawCancel::get);
    awaitTrue(() -> server.taskRuntime.runningCount() == 0);
    StoredTask stored =
        server.taskRuntime.find(dev.herald.tasks.TaskOwner.session(owner), id).orElseThrow();
    assertThat(stored.status().wire()).isEqualTo("cancelled");
    assertThat(EngineAccess.of(peer.session).detachedCount()).isZero();
    server.close();
  }

  @Test
  void anExpiredTaskIsPurgedCancelledAndThenUnknown() throws Exception {
    McpServer server = server();
    AtomicReference<Instant> now = new AtomicReference<>(Instant.parse("2026-01-01T00:00:00Z"));
    server.taskRuntime.clock(InstantSource.fixed(now.get()));
    try (TaskPeer peer = TaskPeer.connect(server)) {
      String id =
          peer.request(McpMethods.TOOLS_CALL, taskCall("work", 5_000L, null))
              .get("task")
              .get("taskId")
              .stringValue();
      running.await();
      OutboundCall waiting = peer.send(McpMethods.TASKS_RESULT, taskId(id));
      awaitTrue(() -> peer.session.engine().inFlightCount() == 1);
      server.taskRuntime.clock(InstantSource.fixed(now.get().plusSeconds(6)));
      server.taskRuntime.purge();
      awaitTrue(sawCancel::get);
      assertThat(peer.error(McpMethods.TASKS_GET, taskId(id)).code())
          .isEqualTo(ErrorCodes.INVALID_PARAMS);
      assertThat(assertFails(waiting).code()).isEqualTo(ErrorCodes.INVALID_PARAMS);
      assertThat(server.taskRuntime.runningCount()).isZero();
    }
  }

  @Test
  void aFullStoreRefusesTheCallAndCreatesNothing() throws Exception {
    McpServer server =
        server(TaskSettings.builder().maxActiveTasks(1).build(), McpServer.builder());
    try (TaskPeer peer = TaskPeer.connect(server)) {
      peer.start("work");
      McpException full = peer.error(McpMethods.TOOLS_CALL, taskCall("work", null, null));
      assertThat(full.code()).isEqualTo(ErrorCodes.INTERNAL_ERROR);
      assertThat(full.getMessage()).contains("Too many active tasks");
      assertThat(peer.request(McpMethods.TASKS_LIST, McpJson.object()).get("tasks")).hasSize(1);
      gate.countDown();
    }
  }
}
