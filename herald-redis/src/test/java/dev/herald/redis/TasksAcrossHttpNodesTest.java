package dev.herald.redis;

import static dev.herald.testing.Eventually.eventually;
import static dev.herald.testing.RawHttpClient.json;
import static org.assertj.core.api.Assertions.assertThat;

import dev.herald.http.McpHttpServer;
import dev.herald.server.McpServer;
import dev.herald.server.TaskSettings;
import dev.herald.testing.RawHttpClient;
import dev.herald.testing.RedisProcess;
import dev.herald.wire.CallToolResult;
import dev.herald.wire.TaskSupport;
import dev.herald.wire.Tool;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;

/**
 * Two Herald HTTP nodes (Jetty) whose task stores share one real redis-server: a 2026-07-28 task
 * created on one node is read, completed and cancelled through the other (MCP 2026-07-28 {@code
 * io.modelcontextprotocol/tasks} extension: any node answers {@code tasks/get} and {@code
 * tasks/cancel}).
 */
class TasksAcrossHttpNodesTest {
  /** Generous: the machine's cores may be busy. */
  private static final Duration WAIT = Duration.ofMinutes(1);

  private static final String EXT = "io.modelcontextprotocol/tasks";
  private static final String TASKS_META =
      "'_meta':{'io.modelcontextprotocol/protocolVersion':'2026-07-28',"
          + "'io.modelcontextprotocol/clientCapabilities':{'extensions':{'"
          + EXT
          + "':{}}}}";

  private final CountDownLatch release = new CountDownLatch(1);
  private final HttpClient http =
      HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build();
  private RedisProcess redis;
  private RedisStores storesA;
  private RedisStores storesB;
  private McpServer mcpA;
  private McpServer mcpB;
  private McpHttpServer nodeA;
  private McpHttpServer nodeB;
  private int ids;

  private McpServer server(RedisStores stores) {
    return McpServer.builder()
        .tool(
            Tool.builder("slow_compute").taskSupport(TaskSupport.OPTIONAL).build(),
            call -> {
              release.await(60, TimeUnit.SECONDS);
              return CallToolResult.text("computed " + call.string("label", ""));
            })
        .tasks(TaskSettings.builder().store(stores::taskStore).build())
        .build();
  }

  @BeforeEach
  void start() {
    redis = RedisProcess.start();
    storesA = RedisStores.connect(redis.uri());
    storesB = RedisStores.connect(redis.uri());
    mcpA = server(storesA);
    mcpB = server(storesB);
    nodeA = McpHttpServer.builder().server(mcpA).port(RedisProcess.freePort()).build().start();
    nodeB = McpHttpServer.builder().server(mcpB).port(RedisProcess.freePort()).build().start();
  }

  @AfterEach
  void stop() {
    release.countDown();
    for (AutoCloseable c :
        List.<AutoCloseable>of(nodeA, nodeB, mcpA::close, mcpB::close, storesA, storesB)) {
      try {
        c.close();
      } catch (Exception e) {
        // closing
      }
    }
    redis.close();
    http.close();
  }

  private JsonNode post(URI node, String method, String name, String params) throws Exception {
    String body =
        "{'jsonrpc':'2.0','id':" + (++ids) + ",'method':'" + method + "','params':" + params + "}";
    HttpRequest.Builder b =
        HttpRequest.newBuilder(node)
            .timeout(Duration.ofSeconds(30))
            .header("Accept", "application/json, text/event-stream")
            .header("Content-Type", "application/json")
            .header("MCP-Protocol-Version", "2026-07-28")
            .header("Mcp-Method", method)
            .POST(HttpRequest.BodyPublishers.ofString(RawHttpClient.q(body)));
    if (name != null) {
      b.header("Mcp-Name", name);
    }
    String text = http.send(b.build(), HttpResponse.BodyHandlers.ofString()).body().strip();
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

  private String create(URI node, String label) throws Exception {
    JsonNode r =
        post(
            node,
            "tools/call",
            "slow_compute",
            "{'name':'slow_compute','arguments':{'label':'" + label + "'}," + TASKS_META + "}");
    assertThat(r.at("/result/resultType").asString()).isEqualTo("task");
    return r.at("/result/taskId").asString();
  }

  private JsonNode tasks(URI node, String method, String taskId) throws Exception {
    return post(node, method, taskId, "{'taskId':'" + taskId + "'," + TASKS_META + "}");
  }

  private String status(URI node, String taskId) throws Exception {
    return tasks(node, "tasks/get", taskId).at("/result/status").asString("");
  }

  private void awaitStatus(URI node, String taskId, String status) {
    eventually(
        WAIT,
        () -> {
          try {
            return status.equals(status(node, taskId));
          } catch (Exception e) {
            throw new IllegalStateException(e);
          }
        },
        "task " + taskId + " is " + status + " on " + node);
  }

  @Test
  void aTaskCreatedOnOneNodeIsReadOnTheOtherAndEndsThereWithItsResult() throws Exception {
    String id = create(nodeA.uri(), "far");
    assertThat(status(nodeB.uri(), id)).isEqualTo("working"); // durable creation, on any node
    release.countDown();
    awaitStatus(nodeB.uri(), id, "completed");
    JsonNode done = tasks(nodeB.uri(), "tasks/get", id).get("result");
    assertThat(done.at("/result/content/0/text").asString()).isEqualTo("computed far");
  }

  @Test
  void aTaskCancelledOnTheOtherNodeIsCancelledForBothAndItsLateResultIsDropped() throws Exception {
    String id = create(nodeA.uri(), "never");
    JsonNode ack = tasks(nodeB.uri(), "tasks/cancel", id);
    assertThat(ack.at("/result/resultType").asString()).isEqualTo("complete");
    assertThat(status(nodeA.uri(), id)).isEqualTo("cancelled");
    release.countDown(); // the handler on node a ends now; its result loses to the cancel
    assertThat(status(nodeB.uri(), id)).isEqualTo("cancelled");
    assertThat(status(nodeA.uri(), id)).isEqualTo("cancelled");
  }
}
