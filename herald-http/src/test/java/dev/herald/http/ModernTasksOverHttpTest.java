package dev.herald.http;

import static dev.herald.testing.Eventually.eventually;
import static dev.herald.testing.RawHttpClient.json;
import static org.assertj.core.api.Assertions.assertThat;

import dev.herald.server.McpServer;
import dev.herald.server.TaskStart;
import dev.herald.testing.SseReader;
import dev.herald.wire.CallToolResult;
import dev.herald.wire.ElicitParams;
import dev.herald.wire.ElicitResult;
import dev.herald.wire.ErrorCodes;
import dev.herald.wire.InputRequest;
import dev.herald.wire.InputResponses;
import dev.herald.wire.McpException;
import dev.herald.wire.McpJson;
import dev.herald.wire.TaskSupport;
import dev.herald.wire.Tool;
import java.net.http.HttpResponse;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * The 2026-07-28 {@code io.modelcontextprotocol/tasks} extension (SEP-2663) over Streamable HTTP,
 * with raw JSON-RPC POSTs, one request per POST: server-directed task creation gated per request,
 * the detailed task of {@code tasks/get}, input through {@code tasks/update}, cancellation,
 * composition with input rounds, status pushed on a {@code subscriptions/listen} stream after the
 * creating POST returned (with a {@code requestState} a later {@code tasks/get} accepts), and
 * nothing of the 2025-11-25 task model.
 */
class ModernTasksOverHttpTest {
  private static final String EXT = "io.modelcontextprotocol/tasks";
  private static final String PLAIN_META =
      "'_meta':{'io.modelcontextprotocol/protocolVersion':'2026-07-28',"
          + "'io.modelcontextprotocol/clientCapabilities':{'elicitation':{}}}";
  private static final String TASKS_META =
      "'_meta':{'io.modelcontextprotocol/protocolVersion':'2026-07-28',"
          + "'io.modelcontextprotocol/clientCapabilities':{'elicitation':{},'extensions':{'"
          + EXT
          + "':{}}}}";

  private final CountDownLatch release = new CountDownLatch(1);
  private McpServer mcp;
  private McpHttpServer http;
  private Stateless26 client;
  private int ids;

  @BeforeEach
  void start() {
    ObjectNode confirm = McpJson.object().put("type", "object");
    confirm.putObject("properties").putObject("confirm").put("type", "boolean");
    ObjectNode named = McpJson.object().put("type", "object");
    named.putObject("properties").putObject("name").put("type", "string");
    mcp =
        McpServer.builder()
            .tool(
                Tool.builder("greet").build(),
                call -> CallToolResult.text("Hello, " + call.string("name", "you") + "!"))
            .tool(
                Tool.builder("slow_compute").taskSupport(TaskSupport.OPTIONAL).build(),
                call -> {
                  long seconds = call.arguments().path("seconds").asLong(0);
                  if (seconds > 0) {
                    release.await(seconds, TimeUnit.SECONDS);
                  }
                  return CallToolResult.text("computed " + call.string("label", ""));
                })
            .tool(
                Tool.builder("half_way").taskSupport(TaskSupport.OPTIONAL).build(),
                call -> {
                  call.context().progress().report(1, 2.0, "half");
                  release.await(30, TimeUnit.SECONDS);
                  return CallToolResult.text("whole");
                })
            .tool(
                Tool.builder("quick_steps").taskSupport(TaskSupport.OPTIONAL).build(),
                call -> {
                  for (int i = 1; i < 10; i++) {
                    call.context().progress().report(i, 10.0, "step");
                  }
                  release.await(30, TimeUnit.SECONDS);
                  return CallToolResult.text("stepped");
                })
            .tool(
                Tool.builder("failing_job").taskSupport(TaskSupport.REQUIRED).build(),
                call -> CallToolResult.error("the job failed"))
            .tool(
                Tool.builder("protocol_error_job").taskSupport(TaskSupport.OPTIONAL).build(),
                call -> {
                  throw new McpException(ErrorCodes.INTERNAL_ERROR, "Internal error: job crashed");
                })
            .tool(
                Tool.builder("confirm_delete").taskSupport(TaskSupport.OPTIONAL).build(),
                call -> {
                  ElicitResult r =
                      call.context().elicit(ElicitParams.form("Delete the file?", confirm));
                  return CallToolResult.text("deleted: " + r.accepted());
                })
            .tool(
                Tool.builder("multi_input").taskSupport(TaskSupport.OPTIONAL).build(),
                call -> {
                  InputResponses r =
                      call.context()
                          .ask(
                              Map.of(
                                  "first",
                                  InputRequest.elicit(ElicitParams.form("First?", named)),
                                  "second",
                                  InputRequest.elicit(ElicitParams.form("Second?", named))));
                  return CallToolResult.text(
                      "got "
                          + r.elicit("first").content().get("name").stringValue()
                          + " and "
                          + r.elicit("second").content().get("name").stringValue());
                })
            .tool(
                Tool.builder("test_tool_with_task").taskSupport(TaskSupport.REQUIRED).build(),
                TaskStart.WHEN_HANDLER_STARTS_IT,
                call -> {
                  ElicitResult r =
                      call.context().elicit("user_name", ElicitParams.form("Your name?", named));
                  String name = r.content().get("name").stringValue();
                  call.context().startTask();
                  return CallToolResult.text("Hello, " + name + ", from a task");
                })
            .build();
    http = McpHttpServer.builder().server(mcp).port(0).build().start();
    client = new Stateless26(http.uri());
  }

  @AfterEach
  void stop() {
    release.countDown();
    http.close();
    mcp.close();
  }

  // ---------------------------------------------------------------- raw exchanges

  /** Posts one request; returns the whole JSON-RPC response (JSON or the SSE stream's last event). */
  private JsonNode post(String method, String name, String params) throws Exception {
    String body =
        "{'jsonrpc':'2.0','id':" + (++ids) + ",'method':'" + method + "','params':" + params + "}";
    HttpResponse<String> r = client.post(Stateless26.headers(method, name), body);
    String text = r.body().strip();
    if (text.startsWith("{")) {
      return json(text);
    }
    JsonNode last = null;
    for (String line : text.split("\n")) {
      if (line.startsWith("data: ")) {
        last = json(line.substring(6));
      }
    }
    return last;
  }

  private JsonNode call(String tool, String arguments, String meta) throws Exception {
    return post(
        "tools/call", tool, "{'name':'" + tool + "','arguments':" + arguments + "," + meta + "}");
  }

  private JsonNode tasks(String method, String taskId, String extra, String meta) throws Exception {
    return post(method, taskId, "{'taskId':'" + taskId + "'" + extra + "," + meta + "}");
  }

  private JsonNode get(String taskId) throws Exception {
    return tasks("tasks/get", taskId, "", TASKS_META).get("result");
  }

  private JsonNode awaitStatus(String taskId, String... statuses) throws Exception {
    JsonNode[] last = new JsonNode[1];
    eventually(
        () -> {
          try {
            last[0] = get(taskId);
          } catch (Exception e) {
            throw new IllegalStateException(e);
          }
          return List.of(statuses).contains(last[0].path("status").asString(""));
        },
        "task " + taskId + " reaches " + List.of(statuses));
    return last[0];
  }

  private static int code(JsonNode response) {
    return response.path("error").path("code").asInt();
  }

  // ---------------------------------------------------------------- negotiation

  @Test
  void discoverOffersTheExtensionAndNothingOfTheLegacyTaskModelShows() throws Exception {
    JsonNode discovered = post("server/discover", null, "{" + PLAIN_META + "}").get("result");
    assertThat(discovered.at("/capabilities/extensions").has(EXT)).isTrue();
    assertThat(discovered.at("/capabilities/extensions/" + EXT.replace("/", "~1")))
        .isEqualTo(McpJson.object());
    assertThat(discovered.get("capabilities").has("tasks")).isFalse();

    JsonNode tools = post("tools/list", null, "{" + TASKS_META + "}").at("/result/tools");
    assertThat(tools).isNotEmpty().allSatisfy(t -> assertThat(t.has("execution")).isFalse());
    assertThat(code(tasks("tasks/result", "x", "", TASKS_META)))
        .isEqualTo(ErrorCodes.METHOD_NOT_FOUND);
    assertThat(code(post("tasks/list", null, "{" + TASKS_META + "}")))
        .isEqualTo(ErrorCodes.METHOD_NOT_FOUND);
  }

  @Test
  void withoutTheExtensionAnOptionalToolRunsPlainAndARequiredOneAndTasksMethodsAre32021()
      throws Exception {
    JsonNode plain = call("slow_compute", "{'seconds':0,'label':'x'}", PLAIN_META).get("result");
    assertThat(plain.get("resultType").asString()).isEqualTo("complete");
    assertThat(plain.has("taskId")).isFalse();
    assertThat(plain.at("/content/0/text").asString()).isEqualTo("computed x");

    JsonNode required = call("failing_job", "{}", PLAIN_META);
    assertThat(code(required)).isEqualTo(ErrorCodes.MISSING_REQUIRED_CLIENT_CAPABILITY);
    assertThat(required.at("/error/data/requiredCapabilities/extensions").has(EXT)).isTrue();

    assertThat(code(tasks("tasks/get", "gate-test", "", PLAIN_META))).isEqualTo(-32021);
    assertThat(code(tasks("tasks/update", "gate-test", ",'inputResponses':{}", PLAIN_META)))
        .isEqualTo(-32021);
    assertThat(code(tasks("tasks/cancel", "gate-test", "", PLAIN_META))).isEqualTo(-32021);
  }

  @Test
  void aLegacyTaskParamNeverPromotesASyncTool() throws Exception {
    JsonNode r =
        post(
                "tools/call",
                "greet",
                "{'name':'greet','arguments':{'name':'legacy'},'task':{'ttl':60000},"
                    + TASKS_META
                    + "}")
            .get("result");
    assertThat(r.get("resultType").asString()).isEqualTo("complete");
    assertThat(r.has("taskId")).isFalse();
    assertThat(r.at("/content/0/text").asString()).isEqualTo("Hello, legacy!");
  }

  // ---------------------------------------------------------------- lifecycle

  @Test
  void aTaskIsCreatedFlatAndDurablyThenTasksGetInlinesItsResult() throws Exception {
    JsonNode created = call("slow_compute", "{'seconds':30,'label':'life'}", TASKS_META);
    JsonNode task = created.get("result");
    assertThat(task.get("resultType").asString()).isEqualTo("task");
    assertThat(task.get("status").asString()).isEqualTo("working");
    assertThat(task.get("ttlMs").isIntegralNumber()).isTrue();
    assertThat(task.get("pollIntervalMs").isIntegralNumber()).isTrue();
    assertThat(task.get("createdAt").asString()).matches("\\d{4}-\\d{2}-\\d{2}T.*Z");
    assertThat(task.has("task")).isFalse();
    for (String absent :
        List.of("requestState", "inputRequests", "result", "error", "ttl", "pollInterval")) {
      assertThat(task.has(absent)).as(absent).isFalse();
    }
    String id = task.get("taskId").asString();

    JsonNode working = get(id); // at once: durable creation
    assertThat(working.get("taskId").asString()).isEqualTo(id);
    assertThat(working.get("resultType").asString()).isEqualTo("complete");
    assertThat(working.get("status").asString()).isEqualTo("working");
    assertThat(working.has("result")).isFalse();
    assertThat(working.has("requestState")).isFalse();

    release.countDown();
    JsonNode done = awaitStatus(id, "completed");
    assertThat(done.at("/result/content/0/text").asString()).isEqualTo("computed life");
    assertThat(done.get("result").has("_meta")).isFalse();
    assertThat(done.has("requestState")).isFalse();
    assertThat(code(tasks("tasks/get", "no-such-task", "", TASKS_META)))
        .isEqualTo(ErrorCodes.INVALID_PARAMS);
  }

  @Test
  void aToolErrorCompletesWithIsErrorAndAProtocolErrorFails() throws Exception {
    String failing = call("failing_job", "{}", TASKS_META).at("/result/taskId").asString();
    JsonNode completed = awaitStatus(failing, "completed", "failed", "cancelled");
    assertThat(completed.get("status").asString()).isEqualTo("completed");
    assertThat(completed.at("/result/isError").asBoolean()).isTrue();

    String crashing = call("protocol_error_job", "{}", TASKS_META).at("/result/taskId").asString();
    JsonNode failed = awaitStatus(crashing, "completed", "failed", "cancelled");
    assertThat(failed.get("status").asString()).isEqualTo("failed");
    assertThat(failed.at("/error/code").asInt()).isEqualTo(ErrorCodes.INTERNAL_ERROR);
    assertThat(failed.at("/error/message").isString()).isTrue();
    assertThat(failed.has("result")).isFalse();
  }

  @Test
  void cancelAcknowledgesEmptySettlesCancelledAndIsIdempotentOnceTerminal() throws Exception {
    String id = call("slow_compute", "{'seconds':60}", TASKS_META).at("/result/taskId").asString();

    JsonNode ack = tasks("tasks/cancel", id, "", TASKS_META).get("result");
    assertThat(ack.get("resultType").asString()).isEqualTo("complete");
    for (String absent : List.of("taskId", "status", "result", "error", "inputRequests")) {
      assertThat(ack.has(absent)).as(absent).isFalse();
    }
    assertThat(awaitStatus(id, "cancelled", "completed", "failed").get("status").asString())
        .isEqualTo("cancelled");
    JsonNode again = tasks("tasks/cancel", id, "", TASKS_META);
    assertThat(again.at("/result/resultType").asString()).isEqualTo("complete");
    assertThat(code(tasks("tasks/cancel", "no-such-task", "", TASKS_META)))
        .isEqualTo(ErrorCodes.INVALID_PARAMS);
  }

  @Test
  void progressAfterTheCreatingPostIsFoldedIntoTheStatusMessage() throws Exception {
    JsonNode created =
        post(
            "tools/call",
            "half_way",
            "{'name':'half_way','arguments':{},"
                + TASKS_META.replace("'_meta':{", "'_meta':{'progressToken':'p1',")
                + "}");
    String id = created.at("/result/taskId").asString();
    eventually(
        () -> {
          try {
            return "half (50%)".equals(get(id).path("statusMessage").asString(""));
          } catch (Exception e) {
            throw new IllegalStateException(e);
          }
        },
        "the progress shows in the status message");
    release.countDown();
    assertThat(awaitStatus(id, "completed").at("/result/content/0/text").asString())
        .isEqualTo("whole");
  }

  @Test
  void aBurstOfProgressEndsWithItsLastValueInTheStatusMessage() throws Exception {
    String id = call("quick_steps", "{}", TASKS_META).at("/result/taskId").asString();
    eventually(
        () -> {
          try {
            return "step (90%)".equals(get(id).path("statusMessage").asString(""));
          } catch (Exception e) {
            throw new IllegalStateException(e);
          }
        },
        "the last value of the burst shows");
  }

  // ---------------------------------------------------------------- input

  @Test
  void anInputRequiredTaskListsItsRequestsAndResumesOnTasksUpdate() throws Exception {
    String id =
        call("confirm_delete", "{'filename':'a.txt'}", TASKS_META).at("/result/taskId").asString();
    JsonNode asking = awaitStatus(id, "input_required");
    List<String> keys = new ArrayList<>();
    asking.get("inputRequests").propertyNames().forEach(keys::add);
    assertThat(keys).hasSize(1);
    assertThat(asking.at("/inputRequests/" + keys.get(0) + "/method").asString())
        .isEqualTo("elicitation/create");

    JsonNode ignored =
        tasks("tasks/update", id, ",'inputResponses':{'unknown-key':{'ignored':true}}", TASKS_META);
    assertThat(ignored.at("/result/resultType").asString()).isEqualTo("complete");
    assertThat(get(id).get("status").asString()).isEqualTo("input_required");

    JsonNode ack =
        tasks(
            "tasks/update",
            id,
            ",'inputResponses':{'"
                + keys.get(0)
                + "':{'action':'accept','content':{'confirm':true}}}",
            TASKS_META);
    assertThat(ack.get("result").has("status")).isFalse();
    JsonNode done = awaitStatus(id, "completed");
    assertThat(done.at("/result/content/0/text").asString()).isEqualTo("deleted: true");
  }

  @Test
  void aPartialUpdateKeepsOnlyTheUnansweredRequestOutstanding() throws Exception {
    String id = call("multi_input", "{}", TASKS_META).at("/result/taskId").asString();
    eventually(
        () -> {
          try {
            return get(id).path("inputRequests").size() == 2;
          } catch (Exception e) {
            throw new IllegalStateException(e);
          }
        },
        "two outstanding requests");

    tasks(
        "tasks/update",
        id,
        ",'inputResponses':{'first':{'action':'accept','content':{'name':'one'}}}",
        TASKS_META);
    JsonNode partial = get(id);
    assertThat(partial.get("status").asString()).isEqualTo("input_required");
    List<String> left = new ArrayList<>();
    partial.get("inputRequests").propertyNames().forEach(left::add);
    assertThat(left).containsExactly("second");

    tasks(
        "tasks/update",
        id,
        ",'inputResponses':{'second':{'action':'accept','content':{'name':'two'}}}",
        TASKS_META);
    assertThat(awaitStatus(id, "completed").at("/result/content/0/text").asString())
        .isEqualTo("got one and two");
  }

  @Test
  void inputRoundsComeFirstAndTheLastRoundIsAnsweredWithTheTask() throws Exception {
    JsonNode round1 = call("test_tool_with_task", "{}", TASKS_META).get("result");
    assertThat(round1.get("resultType").asString()).isEqualTo("input_required");
    assertThat(round1.has("taskId")).isFalse();
    String key = round1.get("inputRequests").propertyNames().iterator().next();

    JsonNode round2 =
        post(
                "tools/call",
                "test_tool_with_task",
                "{'name':'test_tool_with_task','arguments':{},'inputResponses':{'"
                    + key
                    + "':{'action':'accept','content':{'name':'Alice'}}},'requestState':'"
                    + round1.get("requestState").asString()
                    + "',"
                    + TASKS_META
                    + "}")
            .get("result");
    assertThat(round2.get("resultType").asString()).isEqualTo("task");
    assertThat(round2.has("requestState")).isFalse();
    assertThat(round2.has("inputRequests")).isFalse();
    JsonNode done = awaitStatus(round2.get("taskId").asString(), "completed");
    assertThat(done.at("/result/content/0/text").asString()).contains("Alice");
  }

  // ---------------------------------------------------------------- status on a listen stream

  @Test
  void aStatusNotificationReachesTheListenAfterTheCreatingPostReturnedWithAStateTasksGetAccepts()
      throws Exception {
    JsonNode created = call("slow_compute", "{'seconds':30,'label':'pushed'}", TASKS_META);
    String id = created.at("/result/taskId").asString(); // that POST is over
    String other =
        call("slow_compute", "{'seconds':30,'label':'other'}", TASKS_META)
            .at("/result/taskId")
            .asString();

    HttpResponse<Stream<String>> r =
        client.open(
            Stateless26.headers("subscriptions/listen", null),
            "{'jsonrpc':'2.0','id':'listen-1','method':'subscriptions/listen','params':{"
                + "'notifications':{'taskIds':['"
                + id
                + "','never-created']},"
                + TASKS_META
                + "}}");
    try (SseReader sse = new SseReader(r.body())) {
      JsonNode ack = sse.event().json();
      assertThat(ack.get("method").asString())
          .isEqualTo("notifications/subscriptions/acknowledged");
      assertThat(ack.at("/params/notifications/taskIds").toString())
          .isEqualTo("[\"" + id + "\",\"never-created\"]");

      release.countDown(); // both tasks complete; only the named one is heard of
      JsonNode status = sse.event().json();
      while (!"completed".equals(status.at("/params/status").asString(""))) {
        status = sse.event().json();
      }
      JsonNode params = status.get("params");
      assertThat(status.get("method").asString()).isEqualTo("notifications/tasks");
      assertThat(params.get("taskId").asString()).isEqualTo(id);
      assertThat(params.at("/result/content/0/text").asString()).isEqualTo("computed pushed");
      assertThat(params.at("/_meta/io.modelcontextprotocol~1subscriptionId").asString())
          .isEqualTo("listen-1");
      String state = params.get("requestState").asString();

      JsonNode accepted =
          tasks("tasks/get", id, ",'requestState':'" + state + "'", TASKS_META).get("result");
      assertThat(accepted.get("status").asString()).isEqualTo("completed");
      assertThat(accepted.has("requestState")).isFalse();
      String forged = state.substring(0, state.length() - 4) + "AAAA";
      assertThat(code(tasks("tasks/get", id, ",'requestState':'" + forged + "'", TASKS_META)))
          .isEqualTo(ErrorCodes.INVALID_PARAMS);
      assertThat(code(tasks("tasks/get", other, ",'requestState':'" + state + "'", TASKS_META)))
          .isEqualTo(ErrorCodes.INVALID_PARAMS);

      awaitStatus(other, "completed");
      assertThat(mcp.endListens()).isEqualTo(1);
      List<JsonNode> rest = new ArrayList<>();
      for (SseReader.Event e : sse.rest()) {
        rest.add(e.json());
      }
      // nothing about the task the listen did not name, then the listen's complete result
      assertThat(rest).noneMatch(m -> m.at("/params/taskId").asString("").equals(other));
      assertThat(rest.get(rest.size() - 1).at("/result/resultType").asString())
          .isEqualTo("complete");
    }
  }

  @Test
  void taskIdsOnAListenWithoutTheExtensionAre32021() throws Exception {
    JsonNode r =
        post(
            "subscriptions/listen", null, "{'notifications':{'taskIds':['t']}," + PLAIN_META + "}");
    assertThat(code(r)).isEqualTo(ErrorCodes.MISSING_REQUIRED_CLIENT_CAPABILITY);
    assertThat(r.at("/error/data/requiredCapabilities/extensions").has(EXT)).isTrue();
  }
}
