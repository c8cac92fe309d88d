package dev.herald.server;

import static dev.herald.testing.Eventually.eventually;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.herald.internal.session.OutboundCall;
import dev.herald.tasks.StoredTask;
import dev.herald.tasks.TaskOutcome;
import dev.herald.tasks.TaskOwner;
import dev.herald.wire.CallToolResult;
import dev.herald.wire.ElicitParams;
import dev.herald.wire.ErrorCodes;
import dev.herald.wire.InputRequest;
import dev.herald.wire.JsonRpcMessage;
import dev.herald.wire.McpException;
import dev.herald.wire.McpJson;
import dev.herald.wire.McpMethods;
import dev.herald.wire.MetaKeys;
import dev.herald.wire.ProtocolVersion;
import dev.herald.wire.TaskSupport;
import dev.herald.wire.TasksExtension;
import dev.herald.wire.Tool;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * The 2026-07-28 tasks extension's status push over in-memory connections: {@code taskIds} on
 * {@code subscriptions/listen} (acknowledged, -32021 without the extension), {@code
 * notifications/tasks} with the whole detailed task and a {@code requestState}, only for the
 * named tasks the listener may see, fed by the task store's event path; and the views and states
 * it is made of.
 */
class ModernTaskStatusTest {
  private static final String ACK = McpMethods.SUBSCRIPTIONS_ACKNOWLEDGED;
  private static final Instant T0 =
      Instant.now().truncatedTo(java.time.temporal.ChronoUnit.SECONDS);

  private final List<AutoCloseable> open = new ArrayList<>();

  @AfterEach
  void tearDown() throws Exception {
    for (AutoCloseable c : open) {
      c.close();
    }
  }

  private static McpServer server() {
    return McpServer.builder()
        .tool(
            Tool.builder("report").taskSupport(TaskSupport.OPTIONAL).build(),
            call -> CallToolResult.text("report"))
        .build();
  }

  private ModernPeer connect(McpServer server) {
    ModernPeer peer = ModernPeer.connect(server);
    open.add(peer);
    return peer;
  }

  private static ObjectNode declaring() {
    ObjectNode meta = ModernPeer.meta();
    ((ObjectNode) meta.get(MetaKeys.CLIENT_CAPABILITIES))
        .putObject("extensions")
        .putObject(TasksExtension.ID);
    return meta;
  }

  private static StoredTask task(String id, TaskOwner owner, ProtocolVersion.Era era) {
    return StoredTask.create(
        id, owner, McpMethods.TOOLS_CALL, era, T0, Duration.ofHours(1), Duration.ofSeconds(2));
  }

  private static OutboundCall listening(ModernPeer peer, String filter, ObjectNode meta) {
    OutboundCall listen = peer.listen(filter, meta);
    eventually(() -> peer.taggedMethods(listen.id()).contains(ACK), "the listen is acknowledged");
    return listen;
  }

  @Test
  void theAcknowledgementEchoesTheTaskIdsEvenOfTasksThatDoNotExist() {
    McpServer server = server();
    ModernPeer peer = connect(server);

    OutboundCall listen = listening(peer, "{\"taskIds\":[\"a\",\"b\",\"a\"]}", declaring());

    JsonNode acked = peer.tagged(listen.id()).get(0).params().get("notifications");
    assertThat(acked).isEqualTo(Json.parse("{\"taskIds\":[\"a\",\"b\"]}"));
  }

  @Test
  void taskIdsWithoutTheExtensionAreRefusedWithMissingCapabilityNamingIt() {
    McpServer server = server();
    ModernPeer peer = connect(server);

    OutboundCall listen = peer.listen("{\"taskIds\":[\"a\"]}", ModernPeer.meta());

    assertThatThrownBy(() -> Peers.await(listen.result()))
        .isInstanceOfSatisfying(
            McpException.class,
            e -> {
              assertThat(e.code()).isEqualTo(ErrorCodes.MISSING_REQUIRED_CLIENT_CAPABILITY);
              assertThat(e.data().at("/requiredCapabilities/extensions").has(TasksExtension.ID))
                  .isTrue();
            });
    assertThat(peer.notificationMethods()).isEmpty();
    assertThat(server.activeListens()).isZero();
  }

  @Test
  void aServerWithoutTaskToolsIgnoresTaskIdsAsAnUnknownMember() {
    McpServer server =
        McpServer.builder()
            .tool(Tool.builder("plain").build(), call -> CallToolResult.text("plain"))
            .build();
    ModernPeer peer = connect(server);

    OutboundCall listen = listening(peer, "{\"taskIds\":[\"a\"]}", ModernPeer.meta());

    assertThat(peer.tagged(listen.id()).get(0).params().get("notifications"))
        .isEqualTo(McpJson.object());
  }

  @Test
  void aStatusNotificationCarriesTheWholeDetailedTaskAndARequestStateForThatTask() {
    McpServer server = server();
    ModernPeer peer = connect(server);
    OutboundCall listen = listening(peer, "{\"taskIds\":[\"t1\"]}", declaring());
    StoredTask working = task("t1", TaskOwner.anyone(), ProtocolVersion.Era.MODERN);
    ObjectNode result = (ObjectNode) McpJson.toTree(CallToolResult.error("disk full"));
    result.putObject("_meta").putObject(MetaKeys.RELATED_TASK).put("taskId", "t1");
    StoredTask done =
        working.complete(new TaskOutcome.Result(result), T0.plusSeconds(5)).orElseThrow();

    assertThat(server.listens.taskChanged(working)).isEqualTo(1);
    eventually(() -> peer.tagged(listen.id()).size() == 2, "the working status");
    assertThat(server.listens.taskChanged(done)).isEqualTo(1);
    eventually(() -> peer.tagged(listen.id()).size() == 3, "the completed status");

    List<JsonRpcMessage.Notification> tagged = peer.tagged(listen.id());
    assertThat(peer.taggedMethods(listen.id()))
        .containsExactly(ACK, TasksExtension.NOTIFICATION, TasksExtension.NOTIFICATION);
    ObjectNode last = tagged.get(2).params();
    assertThat(last.get("taskId").stringValue()).isEqualTo("t1");
    assertThat(last.get("status").stringValue()).isEqualTo("completed");
    assertThat(last.get("ttlMs").longValue()).isEqualTo(3_600_000L);
    assertThat(last.get("pollIntervalMs").longValue()).isEqualTo(2000L);
    assertThat(last.get("createdAt").stringValue()).isEqualTo(T0.toString());
    assertThat(last.at("/result/isError").booleanValue()).isTrue();
    assertThat(last.at("/result/content/0/text").stringValue()).isEqualTo("disk full");
    assertThat(last.get("result").has("_meta")).isFalse(); // no related-task meta
    assertThat(last.has("error")).isFalse();
    assertThat(MetaKeys.subscriptionId((ObjectNode) last.get("_meta"))).isEqualTo(listen.id());

    String state = last.get("requestState").stringValue();
    TaskRequestStates states = new TaskRequestStates(server.requestStates);
    states.verify(state, "t1", null); // what a later tasks/get accepts
    assertThatThrownBy(() -> states.verify(state, "t2", null))
        .isInstanceOfSatisfying(
            McpException.class, e -> assertThat(e.code()).isEqualTo(ErrorCodes.INVALID_PARAMS));
    assertThatThrownBy(() -> states.verify(state, "t1", "someone"))
        .isInstanceOf(McpException.class);
    assertThatThrownBy(
            () -> states.verify(state.substring(0, state.length() - 2) + "AA", "t1", null))
        .isInstanceOf(McpException.class);
    assertThat(peer.routedTo(listen.id())).hasSize(3); // all on the listen's own stream
  }

  @Test
  void onlyNamedTasksTheListenerMaySeeAreEverSent() {
    McpServer server =
        McpServer.builder()
            .tool(
                Tool.builder("report").taskSupport(TaskSupport.OPTIONAL).build(),
                call -> CallToolResult.text("report"))
            .requestState(RequestStateSettings.builder().principal(ctx -> "alice").build())
            .build();
    ModernPeer peer = connect(server);
    OutboundCall listen =
        listening(peer, "{\"taskIds\":[\"mine\",\"bobs\",\"legacy\",\"anyones\"]}", declaring());
    String alice = RequestStateCodec.digest("principal:alice", 16);
    String bob = RequestStateCodec.digest("principal:bob", 16);

    assertThat(
            server.listens.taskChanged(
                task("bobs", TaskOwner.principal(bob), ProtocolVersion.Era.MODERN)))
        .isZero();
    assertThat(
            server.listens.taskChanged(
                task("legacy", TaskOwner.session("s1"), ProtocolVersion.Era.LEGACY)))
        .isZero();
    assertThat(
            server.listens.taskChanged(
                task("unnamed", TaskOwner.anyone(), ProtocolVersion.Era.MODERN)))
        .isZero();
    assertThat(
            server.listens.taskChanged(
                task("mine", TaskOwner.principal(alice), ProtocolVersion.Era.MODERN)))
        .isEqualTo(1);
    assertThat(
            server.listens.taskChanged(
                task("anyones", TaskOwner.anyone(), ProtocolVersion.Era.MODERN)))
        .isEqualTo(1);
    eventually(() -> peer.tagged(listen.id()).size() == 3, "two statuses");

    List<JsonRpcMessage.Notification> tagged = peer.tagged(listen.id());
    assertThat(tagged.subList(1, 3))
        .extracting(n -> n.params().get("taskId").stringValue())
        .containsExactly("mine", "anyones");
    // the state is bound to the listener's principal
    new TaskRequestStates(server.requestStates)
        .verify(tagged.get(1).params().get("requestState").stringValue(), "mine", alice);
  }

  @Test
  void anInputRequiredStatusListsEveryOutstandingRequestAndACreateResultNothingButTheTask() {
    StoredTask asking =
        task("t1", TaskOwner.anyone(), ProtocolVersion.Era.MODERN)
            .needInput(
                Map.of(
                    "a", InputRequest.elicit(ElicitParams.form("first?", McpJson.object())),
                    "b", InputRequest.elicit(ElicitParams.form("second?", McpJson.object()))),
                "waiting",
                T0.plusSeconds(1))
            .orElseThrow();

    ObjectNode get = TaskViews.getResult(asking);
    assertThat(get.get("resultType").stringValue()).isEqualTo("complete");
    assertThat(get.get("status").stringValue()).isEqualTo("input_required");
    assertThat(get.get("inputRequests").propertyNames()).containsExactlyInAnyOrder("a", "b");
    assertThat(get.at("/inputRequests/a/method").stringValue()).isEqualTo("elicitation/create");
    assertThat(get.has("requestState")).isFalse();

    ObjectNode created = (ObjectNode) McpJson.toTree(TaskViews.created(asking));
    assertThat(created.get("resultType").stringValue()).isEqualTo("task");
    assertThat(created.propertyNames())
        .doesNotContain("requestState", "inputRequests", "result", "error", "ttl", "pollInterval")
        .contains("taskId", "status", "createdAt", "lastUpdatedAt", "ttlMs", "pollIntervalMs");
  }

  @Test
  void aFailedTaskCarriesTheJsonRpcErrorAndNoResult() {
    StoredTask failed =
        task("t1", TaskOwner.anyone(), ProtocolVersion.Era.MODERN)
            .complete(
                new TaskOutcome.Error(
                    new JsonRpcMessage.ErrorObject(ErrorCodes.INTERNAL_ERROR, "boom", null)),
                T0.plusSeconds(1))
            .orElseThrow();

    ObjectNode get = TaskViews.getResult(failed);
    assertThat(get.get("status").stringValue()).isEqualTo("failed");
    assertThat(get.at("/error/code").intValue()).isEqualTo(ErrorCodes.INTERNAL_ERROR);
    assertThat(get.has("result")).isFalse();
  }

  @Test
  void overOnePipeATaskIsCreatedAnsweredThroughTasksUpdateAndHeardOnTheListen() throws Exception {
    ObjectNode named = McpJson.object().put("type", "object");
    McpServer server =
        McpServer.builder()
            .tool(
                Tool.builder("ask_name").taskSupport(TaskSupport.REQUIRED).build(),
                call ->
                    CallToolResult.text(
                        "hi "
                            + call.context()
                                .elicit("name", ElicitParams.form("Name?", named))
                                .content()
                                .get("name")
                                .stringValue()))
            .build();
    ModernPeer peer = connect(server);
    ObjectNode caps = declaring();
    ((ObjectNode) caps.get(MetaKeys.CLIENT_CAPABILITIES)).putObject("elicitation");

    ObjectNode params = McpJson.object().put("name", "ask_name");
    params.set("_meta", caps.deepCopy());
    JsonNode created = peer.request(McpMethods.TOOLS_CALL, params);
    assertThat(created.get("resultType").stringValue()).isEqualTo("task");
    String id = created.get("taskId").stringValue();
    OutboundCall listen = listening(peer, "{\"taskIds\":[\"" + id + "\"]}", caps.deepCopy());
    eventually(
        () ->
            peer.tagged(listen.id()).stream()
                .anyMatch(n -> n.params().path("status").asString("").equals("input_required")),
        "the input_required status on the listen");

    ObjectNode update = McpJson.object().put("taskId", id);
    update
        .putObject("inputResponses")
        .putObject("name")
        .put("action", "accept")
        .putObject("content")
        .put("name", "Ada");
    update.set("_meta", caps.deepCopy());
    JsonNode ack = peer.request(McpMethods.TASKS_UPDATE, update);
    assertThat(ack.get("resultType").stringValue()).isEqualTo("complete");
    eventually(
        () ->
            peer.tagged(listen.id()).stream()
                .anyMatch(n -> n.params().path("status").asString("").equals("completed")),
        "the completed status on the listen");

    JsonNode done =
        peer.tagged(listen.id()).stream()
            .map(JsonRpcMessage.Notification::params)
            .filter(p -> p.path("status").asString("").equals("completed"))
            .findFirst()
            .orElseThrow();
    assertThat(done.at("/result/content/0/text").stringValue()).isEqualTo("hi Ada");
    ObjectNode get = McpJson.object().put("taskId", id);
    get.put("requestState", done.get("requestState").stringValue());
    get.set("_meta", caps.deepCopy());
    assertThat(peer.request(McpMethods.TASKS_GET, get).get("status").stringValue())
        .isEqualTo("completed");
    server.close();
  }

  @Test
  void aListenFirstHearsTheCurrentStatusOfTheNamedTasksThenEveryChange() throws Exception {
    java.util.concurrent.CountDownLatch release = new java.util.concurrent.CountDownLatch(1);
    McpServer server =
        McpServer.builder()
            .tool(
                Tool.builder("hold").taskSupport(TaskSupport.OPTIONAL).build(),
                call -> {
                  call.context().statusMessage("holding");
                  release.await();
                  return CallToolResult.text("released");
                })
            .build();
    ModernPeer peer = connect(server);
    ObjectNode params = McpJson.object().put("name", "hold");
    params.set("_meta", declaring());
    String id = peer.request(McpMethods.TOOLS_CALL, params).get("taskId").stringValue();
    eventually(
        () ->
            "holding"
                .equals(
                    server.taskRuntime.find(TaskOwner.anyone(), id).orElseThrow().statusMessage()),
        "the status message is stored");

    OutboundCall listen = listening(peer, "{\"taskIds\":[\"" + id + "\"]}", declaring());
    eventually(() -> peer.tagged(listen.id()).size() == 2, "the current status");
    JsonNode current = peer.tagged(listen.id()).get(1).params();
    assertThat(current.get("status").stringValue()).isEqualTo("working");
    assertThat(current.get("statusMessage").stringValue()).isEqualTo("holding");

    release.countDown();
    eventually(
        () ->
            peer.tagged(listen.id()).stream()
                .anyMatch(n -> n.params().path("status").asString("").equals("completed")),
        "the completed status");
    server.close();
  }

  @Test
  void anotherPrincipalsTaskIsUnknownToTasksGetUpdateAndCancel() throws Exception {
    java.util.concurrent.atomic.AtomicReference<String> who =
        new java.util.concurrent.atomic.AtomicReference<>("alice");
    McpServer server =
        McpServer.builder()
            .tool(
                Tool.builder("wait").taskSupport(TaskSupport.OPTIONAL).build(),
                call -> {
                  Thread.currentThread().join(); // until cancelled
                  return CallToolResult.text("never");
                })
            .requestState(RequestStateSettings.builder().principal(ctx -> who.get()).build())
            .build();
    ModernPeer peer = connect(server);
    ObjectNode params = McpJson.object().put("name", "wait");
    params.set("_meta", declaring());
    String id = peer.request(McpMethods.TOOLS_CALL, params).get("taskId").stringValue();

    who.set("bob");
    for (String method :
        List.of(McpMethods.TASKS_GET, McpMethods.TASKS_CANCEL, McpMethods.TASKS_UPDATE)) {
      ObjectNode p = McpJson.object().put("taskId", id);
      p.putObject("inputResponses");
      p.set("_meta", declaring());
      assertThatThrownBy(() -> peer.request(method, p))
          .as(method)
          .isInstanceOfSatisfying(
              McpException.class, e -> assertThat(e.code()).isEqualTo(ErrorCodes.INVALID_PARAMS));
    }
    who.set("alice");
    ObjectNode mine = McpJson.object().put("taskId", id);
    mine.set("_meta", declaring());
    assertThat(peer.request(McpMethods.TASKS_GET, mine).get("status").stringValue())
        .isEqualTo("working");
    peer.request(McpMethods.TASKS_CANCEL, mine.deepCopy());
    server.close();
  }

  @Test
  void theLegacyViewUsesTtlAndPollInterval() {
    ObjectNode legacy =
        (ObjectNode)
            McpJson.toTree(
                LegacyTasks.task(task("t1", TaskOwner.session("s"), ProtocolVersion.Era.LEGACY)));
    assertThat(legacy.get("ttl").longValue()).isEqualTo(3_600_000L);
    assertThat(legacy.get("pollInterval").longValue()).isEqualTo(2000L);
    assertThat(legacy.has("ttlMs")).isFalse();
    assertThat(legacy.get("createdAt").stringValue()).isEqualTo(T0.toString());
  }

  @Test
  void discoverOffersTheExtensionWhileAToolMayRunAsATaskAndNeverTheLegacySlot() throws Exception {
    McpServer server = server();
    ModernPeer peer = connect(server);

    JsonNode discovered = peer.request(McpMethods.SERVER_DISCOVER, McpJson.object());

    assertThat(discovered.at("/capabilities/extensions/" + TasksExtension.ID.replace("/", "~1")))
        .isEqualTo(McpJson.object());
    assertThat(discovered.get("capabilities").has("tasks")).isFalse();
    JsonNode tools = peer.request(McpMethods.TOOLS_LIST, McpJson.object()).get("tools");
    assertThat(tools.get(0).has("execution")).isFalse();
  }
}
