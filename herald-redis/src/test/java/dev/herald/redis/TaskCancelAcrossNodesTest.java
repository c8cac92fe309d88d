package dev.herald.redis;

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
 * {@code tasks/cancel} arriving at one node stops the task's handler running on another
 * (docs/scale-out.md, "Cross-node cancellation"): the node running it hears the cancellation
 * through the shared task store's changes and interrupts its handler, as a local cancel does.
 */
class TaskCancelAcrossNodesTest {
  private static final String EXT = "io.modelcontextprotocol/tasks";

  private static final String TASKS_META =
      "'_meta':{'io.modelcontextprotocol/protocolVersion':'2026-07-28',"
          + "'io.modelcontextprotocol/clientCapabilities':{'extensions':{'"
          + EXT
          + "':{}}}}";

  private final CountDownLatch started = new CountDownLatch(1);
  private final CountDownLatch interrupted = new CountDownLatch(1);
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
              started.countDown();
              try {
                Thread.sleep(Duration.ofSeconds(60));
              } catch (InterruptedException e) {
                interrupted.countDown();
                throw e;
              }
              return CallToolResult.text("computed");
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

  @Test
  void tasksCancelOnOneNodeInterruptsTheHandlerRunningOnTheOther() throws Exception {
    String id = create(nodeA.uri(), "far");
    assertThat(started.await(30, TimeUnit.SECONDS)).as("the handler runs on node a").isTrue();
    JsonNode ack = tasks(nodeB.uri(), "tasks/cancel", id);
    assertThat(ack.at("/result/resultType").asString()).isEqualTo("complete");
    assertThat(interrupted.await(30, TimeUnit.SECONDS))
        .as("node a's handler is interrupted")
        .isTrue();
    assertThat(status(nodeA.uri(), id)).isEqualTo("cancelled");
  }
}
