package dev.herald.server;

import static org.assertj.core.api.Assertions.assertThat;

import dev.herald.client.ToolCallHandle;
import dev.herald.internal.session.EngineAccess;
import dev.herald.session.CallOptions;
import dev.herald.session.CancelledException;
import dev.herald.session.ProgressUpdate;
import dev.herald.wire.CallToolResult;
import dev.herald.wire.ErrorCodes;
import dev.herald.wire.McpException;
import dev.herald.wire.McpMethods;
import dev.herald.wire.Tool;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.node.ObjectNode;

/** Every request type goes through the one engine path: progress-token scope, cancellation, routing. */
class EngineParityTest {
  private final ConcurrentHashMap<String, CountDownLatch> gates = new ConcurrentHashMap<>();
  private final ConcurrentHashMap<String, CountDownLatch> interrupted = new ConcurrentHashMap<>();
  private final List<PipeLink> open = new ArrayList<>();

  @AfterEach
  void tearDown() {
    gates.values().forEach(CountDownLatch::countDown);
    open.forEach(PipeLink::close);
  }

  private McpServer server() {
    return McpServer.builder()
        .progressInterval(Duration.ZERO)
        .tool(
            Tool.builder("hold").build(),
            call -> {
              String key = call.string("key", "");
              try {
                gates.computeIfAbsent(key, k -> new CountDownLatch(1)).await();
              } catch (InterruptedException e) {
                interrupted.computeIfAbsent(key, k -> new CountDownLatch(1)).countDown();
                throw e;
              }
              return CallToolResult.text("released " + key);
            })
        .tool(
            Tool.builder("count").build(),
            call -> {
              for (int i = 1; i <= 3; i++) {
                call.context().progress().report(i, 3.0, "step " + i);
              }
              return CallToolResult.text("counted");
            })
        .build();
  }

  private static ObjectNode withToken(String json, String token) {
    ObjectNode params = Json.parse(json);
    params.putObject("_meta").put("progressToken", token);
    return params;
  }

  private static int errorCode(CompletableFuture<?> f) throws InterruptedException {
    try {
      f.get(5, TimeUnit.SECONDS);
      return 0;
    } catch (ExecutionException e) {
      return e.getCause() instanceof McpException m ? m.code() : Integer.MIN_VALUE;
    } catch (java.util.concurrent.TimeoutException e) {
      throw new AssertionError("no answer", e);
    }
  }

  @Test
  void aProgressTokenHeldByAToolCallIsRefusedForEveryOtherRequestTypeOfThatSession()
      throws Exception {
    McpServer server = server();
    PipeLink a = PipeLink.connect(server);
    PipeLink b = PipeLink.connect(server);
    open.add(a);
    open.add(b);
    var engine = EngineAccess.of(a.client);
    CompletableFuture<?> held =
        engine
            .request(
                McpMethods.TOOLS_CALL,
                withToken("{'name':'hold','arguments':{'key':'t'}}", "tok"),
                CallOptions.defaults(),
                null)
            .result();
    while (a.session.engine().inFlightCount() == 0) {
      Thread.onSpinWait();
    }

    assertThat(
            errorCode(
                engine
                    .request(
                        McpMethods.TOOLS_LIST, withToken("{}", "tok"), CallOptions.defaults(), null)
                    .result()))
        .isEqualTo(ErrorCodes.INVALID_PARAMS);
    assertThat(
            errorCode(
                engine
                    .request(McpMethods.PING, withToken("{}", "tok"), CallOptions.defaults(), null)
                    .result()))
        .isEqualTo(ErrorCodes.INVALID_PARAMS);
    assertThat(
            errorCode(
                engine
                    .request(
                        McpMethods.LOGGING_SET_LEVEL,
                        withToken("{'level':'debug'}", "tok"),
                        CallOptions.defaults(),
                        null)
                    .result()))
        .isEqualTo(ErrorCodes.INVALID_PARAMS);
    assertThat(
            errorCode(
                EngineAccess.of(b.client)
                    .request(
                        McpMethods.TOOLS_LIST, withToken("{}", "tok"), CallOptions.defaults(), null)
                    .result()))
        .as("another session's tokens are its own")
        .isZero();

    gates.computeIfAbsent("t", k -> new CountDownLatch(1)).countDown();
    assertThat(errorCode(held)).isZero();
    assertThat(
            errorCode(
                engine
                    .request(
                        McpMethods.TOOLS_LIST, withToken("{}", "tok"), CallOptions.defaults(), null)
                    .result()))
        .isZero();
    assertThat(
            errorCode(
                engine
                    .request(
                        McpMethods.LOGGING_SET_LEVEL,
                        withToken("{'level':'debug'}", "tok"),
                        CallOptions.defaults(),
                        null)
                    .result()))
        .isZero();
  }

  @Test
  void cancellingACallInOneSessionLeavesTheSameIdInAnotherSessionRunning() throws Exception {
    McpServer server = server();
    PipeLink a = PipeLink.connect(server);
    PipeLink b = PipeLink.connect(server);
    open.add(a);
    open.add(b);
    ToolCallHandle ha =
        a.client.callToolAsync("hold", Json.parse("{'key':'a'}"), CallOptions.defaults());
    ToolCallHandle hb =
        b.client.callToolAsync("hold", Json.parse("{'key':'b'}"), CallOptions.defaults());
    assertThat(ha.id()).isEqualTo(hb.id());
    while (a.session.engine().inFlightCount() == 0 || b.session.engine().inFlightCount() == 0) {
      Thread.onSpinWait();
    }

    assertThat(ha.cancel("user pressed stop")).isTrue();

    assertThat(
            interrupted.computeIfAbsent("a", k -> new CountDownLatch(1)).await(5, TimeUnit.SECONDS))
        .isTrue();
    assertThat(ha.result())
        .failsWithin(Duration.ofSeconds(5))
        .withThrowableOfType(ExecutionException.class)
        .withCauseInstanceOf(CancelledException.class);
    assertThat(b.session.engine().inFlightCount()).isEqualTo(1);
    gates.computeIfAbsent("b", k -> new CountDownLatch(1)).countDown();
    assertThat(hb.await().firstText()).isEqualTo("released b");
    assertThat(interrupted).doesNotContainKey("b");
  }

  @Test
  void progressFromAHandlerReachesOnlyTheSessionThatAskedForIt() throws Exception {
    McpServer server = server();
    List<PipeLink> links = new ArrayList<>();
    for (int i = 0; i < 3; i++) {
      links.add(PipeLink.connect(server));
    }
    open.addAll(links);
    CopyOnWriteArrayList<ProgressUpdate> updates = new CopyOnWriteArrayList<>();

    CallToolResult withProgress =
        links
            .get(0)
            .client
            .callTool("count", null, CallOptions.builder().progress(updates::add).build());
    CallToolResult without = links.get(1).client.callTool("count", null);

    assertThat(withProgress.firstText()).isEqualTo("counted");
    assertThat(without.firstText()).isEqualTo("counted");
    assertThat(links.get(0).sentCount(McpMethods.PROGRESS)).isEqualTo(3);
    assertThat(links.get(1).sentCount(McpMethods.PROGRESS)).isZero();
    assertThat(links.get(2).sentCount(McpMethods.PROGRESS)).isZero();
    assertThat(updates).last().satisfies(u -> assertThat(u.progress()).isEqualTo(3.0));
  }
}
