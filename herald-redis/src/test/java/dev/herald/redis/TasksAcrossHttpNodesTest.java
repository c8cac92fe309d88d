package dev.herald.redis;

import static dev.herald.testing.Eventually.eventually;
import static org.assertj.core.api.Assertions.assertThat;

import dev.herald.http.McpHttpServer;
import dev.herald.server.McpServer;
import dev.herald.server.TaskSettings;
import dev.herald.testing.RedisProcess;
import dev.herald.wire.CallToolResult;
import dev.herald.wire.TaskSupport;
import dev.herald.wire.Tool;
import java.net.URI;
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

  private final CountDownLatch release = new CountDownLatch(1);
  private final ModernTaskRequests requests = new ModernTaskRequests();
  private RedisProcess redis;
  private RedisStores storesA;
  private RedisStores storesB;
  private McpServer mcpA;
  private McpServer mcpB;
  private McpHttpServer nodeA;
  private McpHttpServer nodeB;

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
    requests.close();
  }

  private void awaitStatus(URI node, String taskId, String status) {
    eventually(
        WAIT,
        () -> {
          try {
            return status.equals(requests.status(node, taskId));
          } catch (Exception e) {
            throw new IllegalStateException(e);
          }
        },
        "task " + taskId + " is " + status + " on " + node);
  }

  @Test
  void aTaskCreatedOnOneNodeIsReadOnTheOtherAndEndsThereWithItsResult() throws Exception {
    String id = requests.create(nodeA.uri(), "far");
    assertThat(requests.status(nodeB.uri(), id))
        .isEqualTo("working"); // durable creation, on any node
    release.countDown();
    awaitStatus(nodeB.uri(), id, "completed");
    JsonNode done = requests.tasks(nodeB.uri(), "tasks/get", id).get("result");
    assertThat(done.at("/result/content/0/text").asString()).isEqualTo("computed far");
  }

  @Test
  void aTaskCancelledOnTheOtherNodeIsCancelledForBothAndItsLateResultIsDropped() throws Exception {
    String id = requests.create(nodeA.uri(), "never");
    JsonNode ack = requests.tasks(nodeB.uri(), "tasks/cancel", id);
    assertThat(ack.at("/result/resultType").asString()).isEqualTo("complete");
    assertThat(requests.status(nodeA.uri(), id)).isEqualTo("cancelled");
    release.countDown(); // the handler on node a ends now; its result loses to the cancel
    assertThat(requests.status(nodeB.uri(), id)).isEqualTo("cancelled");
    assertThat(requests.status(nodeA.uri(), id)).isEqualTo("cancelled");
  }
}
