package dev.herald.http;

import static org.assertj.core.api.Assertions.assertThat;

import dev.herald.server.McpServer;
import dev.herald.server.RequestContext;
import dev.herald.server.TaskStart;
import dev.herald.testing.Eventually;
import dev.herald.testing.RawHttpClient;
import dev.herald.testing.SseReader;
import dev.herald.wire.CallToolResult;
import dev.herald.wire.McpException;
import dev.herald.wire.TaskSupport;
import dev.herald.wire.Tool;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.stream.Stream;
import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;

/**
 * The handshake-era (2025-11-25) tasks over Streamable HTTP on a real Jetty server: what a task
 * sends after the POST that created it was answered (progress on its original token, {@code
 * notifications/tasks/status}) rides the session's standing GET stream; a held-open {@code
 * tasks/get} gets the status changes on its own POST stream; a task is invisible to other sessions;
 * deleting the session cancels its tasks. Raw JSON-RPC; handlers block on latches.
 */
class LegacyTasksOverHttpTest {

  private final CountDownLatch running = new CountDownLatch(1);
  private final CountDownLatch gate = new CountDownLatch(1);
  private final Semaphore ticks = new Semaphore(0);
  private final AtomicBoolean sawCancel = new AtomicBoolean();
  private McpHttpServer http;
  private McpServer mcp;

  @BeforeEach
  void start() {
    mcp =
        McpServer.builder()
            .progressInterval(Duration.ZERO)
            .tool(
                Tool.builder("work").taskSupport(TaskSupport.OPTIONAL).build(),
                TaskStart.AT_ONCE,
                call -> {
                  RequestContext ctx = call.context();
                  ctx.progress().report(1, 2.0, "one");
                  running.countDown();
                  try {
                    gate.await();
                  } catch (InterruptedException e) {
                    sawCancel.set(ctx.cancellation().isCancelled());
                    throw e;
                  }
                  ctx.progress().report(2, 2.0, "two");
                  return CallToolResult.text("done");
                })
            .tool(
                Tool.builder("ticker").taskSupport(TaskSupport.OPTIONAL).build(),
                TaskStart.AT_ONCE,
                call -> {
                  int i = 0;
                  while (gate.getCount() > 0) {
                    if (ticks.tryAcquire(10, TimeUnit.SECONDS)) {
                      call.context().statusMessage("tick " + ++i);
                    }
                  }
                  return CallToolResult.text("ticked " + i);
                })
            .tool(
                Tool.builder("boom").taskSupport(TaskSupport.OPTIONAL).build(),
                TaskStart.AT_ONCE,
                call -> {
                  throw new McpException(-32050, "kaboom");
                })
            .build();
    http = McpHttpServer.builder().port(0).server(mcp).build().start();
  }

  @AfterEach
  void stop() {
    gate.countDown();
    http.close();
    mcp.close();
  }

  /** Every JSON-RPC message of a POST's answer (SSE or JSON), in order, without priming events. */
  private static List<JsonNode> messages(HttpResponse<Stream<String>> r) throws Exception {
    String type = r.headers().firstValue("Content-Type").orElse("");
    if (!type.startsWith("text/event-stream")) {
      return List.of(RawHttpClient.json(RawHttpClient.body(r)));
    }
    List<JsonNode> out = new ArrayList<>();
    try (SseReader sse = new SseReader(r.body())) {
      for (SseReader.Event e : sse.rest()) {
        if (!e.priming()) {
          out.add(e.json());
        }
      }
    }
    return out;
  }

  /** The response among a POST's messages. */
  private static JsonNode response(HttpResponse<Stream<String>> r) throws Exception {
    return messages(r).stream()
        .filter(m -> m.has("id") && !m.has("method"))
        .findFirst()
        .orElseThrow();
  }

  private static String taskCall(int id, String tool, @Nullable String progressToken) {
    String meta = progressToken == null ? "" : ",'_meta':{'progressToken':'" + progressToken + "'}";
    return "{'jsonrpc':'2.0','id':"
        + id
        + ",'method':'tools/call','params':{'name':'"
        + tool
        + "','arguments':{},'task':{'ttl':60000}"
        + meta
        + "}}";
  }

  private static String taskRequest(int id, String method, String taskId) {
    return "{'jsonrpc':'2.0','id':"
        + id
        + ",'method':'"
        + method
        + "','params':{'taskId':'"
        + taskId
        + "'}}";
  }

  private static String start(RawHttpClient client, String tool, @Nullable String token)
      throws Exception {
    JsonNode created = response(client.post(taskCall(client.nextId(), tool, token)));
    return created.get("result").get("task").get("taskId").stringValue();
  }

  /** GET-stream messages until {@code until} holds for one (which is included). */
  private static List<JsonNode> readUntil(
      SseReader get, java.util.function.Predicate<JsonNode> until) throws Exception {
    List<JsonNode> seen = new ArrayList<>();
    while (true) {
      SseReader.Event e = get.event();
      if (e.priming()) {
        continue;
      }
      JsonNode m = e.json();
      seen.add(m);
      if (until.test(m)) {
        return seen;
      }
    }
  }

  private static boolean isStatus(JsonNode m, String taskId, String status) {
    return m.path("method").asString("").equals("notifications/tasks/status")
        && m.get("params").get("taskId").stringValue().equals(taskId)
        && m.get("params").get("status").stringValue().equals(status);
  }

  @Test
  void progressAndTheTerminalStatusAfterThePostReturnedArriveOnTheGetStream() throws Exception {
    RawHttpClient client = new RawHttpClient(http.uri());
    client.initialize();
    try (SseReader get = client.get(null)) {
      String id = start(client, "work", "pt"); // the POST has returned, its stream ended
      running.await();
      gate.countDown();
      List<JsonNode> onGet = readUntil(get, m -> isStatus(m, id, "completed"));
      assertThat(onGet)
          .anySatisfy(m -> {
            assertThat(m.get("method").stringValue()).isEqualTo("notifications/progress");
            assertThat(m.get("params").get("progressToken").stringValue()).isEqualTo("pt");
            assertThat(m.get("params").get("progress").intValue()).isEqualTo(2);
          });
      JsonNode status = onGet.getLast().get("params");
      assertThat(status.has("_meta")).isFalse();
      assertThat(status.has("createdAt") && status.has("ttl") && status.has("pollInterval"))
          .isTrue();

      // the token is free again once the task is terminal
      JsonNode plain = response(client.call(client.nextId(), "work", "pt"));
      assertThat(plain.has("error")).isFalse();
    }
  }

  @Test
  void theProgressTokenOfARunningTaskIsTakenForOtherRequests() throws Exception {
    RawHttpClient client = new RawHttpClient(http.uri());
    client.initialize();
    start(client, "work", "tok");
    running.await();
    JsonNode refused = response(client.call(client.nextId(), "work", "tok"));
    assertThat(refused.get("error").get("code").intValue()).isEqualTo(-32602);
  }

  @Test
  void aTaskOfOneSessionIsInvisibleToAnother() throws Exception {
    RawHttpClient mine = new RawHttpClient(http.uri());
    mine.initialize();
    RawHttpClient other = new RawHttpClient(http.uri());
    other.initialize();
    String id = start(mine, "work", null);
    for (String method : List.of("tasks/get", "tasks/result", "tasks/cancel")) {
      JsonNode e = response(other.post(taskRequest(other.nextId(), method, id)));
      assertThat(e.get("error").get("code").intValue()).as(method).isEqualTo(-32602);
    }
    JsonNode list =
        response(other.post("{'jsonrpc':'2.0','id':99,'method':'tasks/list','params':{}}"));
    assertThat(list.get("result").get("tasks")).isEmpty();
    JsonNode got = response(mine.post(taskRequest(mine.nextId(), "tasks/get", id)));
    assertThat(got.get("result").get("status").stringValue()).isEqualTo("working");
  }

  @Test
  void tasksResultReturnsTheOriginalJsonRpcError() throws Exception {
    RawHttpClient client = new RawHttpClient(http.uri());
    client.initialize();
    String id = start(client, "boom", null);
    JsonNode r = response(client.post(taskRequest(client.nextId(), "tasks/result", id)));
    assertThat(r.get("error").get("code").intValue()).isEqualTo(-32050);
    assertThat(r.get("error").get("message").stringValue()).isEqualTo("kaboom");
  }

  @Test
  void aHeldOpenTasksGetStreamsTheStatusChangesThenAnswersWithTheTerminalTask() throws Exception {
    RawHttpClient client = new RawHttpClient(http.uri());
    client.initialize();
    String id = start(client, "ticker", null);
    String follow =
        "{'jsonrpc':'2.0','id':50,'method':'tasks/get','params':{'taskId':'"
            + id
            + "','_meta':{'dev.herald/follow':true}}}";
    CompletableFuture<HttpResponse<Stream<String>>> held =
        client.http.sendAsync(
            client
                .request()
                .POST(java.net.http.HttpRequest.BodyPublishers.ofString(RawHttpClient.q(follow)))
                .build(),
            HttpResponse.BodyHandlers.ofLines());
    // each tick changes the status message; once the held request follows the task, one of them
    // opens its stream
    SseReader stream = null;
    while (stream == null) {
      ticks.release();
      try {
        stream = new SseReader(held.get(200, TimeUnit.MILLISECONDS).body());
      } catch (java.util.concurrent.TimeoutException e) {
        // not following yet: tick again
      }
    }
    try (SseReader sse = stream) {
      SseReader.Event first = sse.event();
      while (first.priming()) {
        first = sse.event();
      }
      assertThat(first.json().get("method").stringValue()).isEqualTo("notifications/tasks/status");
      gate.countDown();
      ticks.release(); // let the handler see the gate
      List<JsonNode> rest = new ArrayList<>();
      for (SseReader.Event e : sse.rest()) {
        rest.add(e.json());
      }
      JsonNode last = rest.getLast();
      assertThat(last.get("id").intValue()).isEqualTo(50);
      assertThat(last.get("result").get("status").stringValue()).isEqualTo("completed");
      assertThat(rest.subList(0, rest.size() - 1))
          .allSatisfy(m ->
              assertThat(m.get("method").stringValue()).isEqualTo("notifications/tasks/status"))
          .anySatisfy(m -> assertThat(isStatus(m, id, "completed")).isTrue());
    }
  }

  @Test
  void cancellationRacingCompletionOverHttpLeavesExactlyOneTerminalStatus() throws Exception {
    RawHttpClient client = new RawHttpClient(http.uri());
    client.initialize();
    for (int round = 0; round < 10; round++) {
      CountDownLatch release = new CountDownLatch(1);
      CountDownLatch inHandler = new CountDownLatch(1);
      String tool = "race" + round;
      mcp.addTool(
          Tool.builder(tool).taskSupport(TaskSupport.OPTIONAL).build(),
          call -> {
            inHandler.countDown();
            try {
              release.await();
            } catch (InterruptedException e) {
              // cancelled: the answer below must be dropped
            }
            return CallToolResult.text("finished");
          });
      String id = start(client, tool, null);
      inHandler.await();
      CompletableFuture<HttpResponse<Stream<String>>> cancel =
          client.http.sendAsync(
              client
                  .request()
                  .POST(
                      java.net.http.HttpRequest.BodyPublishers.ofString(
                          RawHttpClient.q(taskRequest(client.nextId(), "tasks/cancel", id))))
                  .build(),
              HttpResponse.BodyHandlers.ofLines());
      release.countDown();
      JsonNode answer = response(cancel.get(10, TimeUnit.SECONDS));
      boolean cancelWon = answer.has("result");
      String expected = cancelWon ? "cancelled" : "completed";
      if (!cancelWon) {
        assertThat(answer.get("error").get("code").intValue()).isEqualTo(-32602);
      }
      Eventually.eventually(
          () -> {
            try {
              JsonNode got = response(client.post(taskRequest(client.nextId(), "tasks/get", id)));
              return got.get("result").get("status").stringValue().equals(expected);
            } catch (Exception e) {
              throw new IllegalStateException(e);
            }
          },
          "the task is " + expected);
      JsonNode result = response(client.post(taskRequest(client.nextId(), "tasks/result", id)));
      if (cancelWon) {
        assertThat(result.has("error")).isTrue(); // the handler's answer was dropped
      } else {
        assertThat(result.get("result").get("content").get(0).get("text").stringValue())
            .isEqualTo("finished");
      }
    }
  }

  @Test
  void deletingTheSessionCancelsItsRunningTasks() throws Exception {
    RawHttpClient client = new RawHttpClient(http.uri());
    client.initialize();
    start(client, "work", "tok");
    running.await();
    assertThat(client.sendForString(client.request().DELETE()).statusCode()).isEqualTo(200);
    Eventually.eventually(sawCancel::get, "the task's handler saw the cancellation");
  }
}
