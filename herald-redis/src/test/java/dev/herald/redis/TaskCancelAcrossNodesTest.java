package dev.herald.redis;

import static org.assertj.core.api.Assertions.assertThat;

import dev.herald.http.McpHttpServer;
import dev.herald.server.McpServer;
import dev.herald.server.TaskSettings;
import dev.herald.testing.RedisProcess;
import dev.herald.wire.CallToolResult;
import dev.herald.wire.TaskSupport;
import dev.herald.wire.Tool;
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
  private final CountDownLatch started = new CountDownLatch(1);
  private final CountDownLatch interrupted = new CountDownLatch(1);
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
    requests.close();
  }

  @Test
  void tasksCancelOnOneNodeInterruptsTheHandlerRunningOnTheOther() throws Exception {
    String id = requests.create(nodeA.uri(), "far");
    assertThat(started.await(30, TimeUnit.SECONDS)).as("the handler runs on node a").isTrue();
    JsonNode ack = requests.tasks(nodeB.uri(), "tasks/cancel", id);
    assertThat(ack.at("/result/resultType").asString()).isEqualTo("complete");
    assertThat(interrupted.await(30, TimeUnit.SECONDS))
        .as("node a's handler is interrupted")
        .isTrue();
    assertThat(requests.status(nodeA.uri(), id)).isEqualTo("cancelled");
  }
}
