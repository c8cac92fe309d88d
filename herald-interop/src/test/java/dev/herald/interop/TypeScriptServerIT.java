package dev.herald.interop;

import static dev.herald.testing.Eventually.eventually;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.herald.client.McpClient;
import dev.herald.client.ResourceSubscription;
import dev.herald.client.ToolCallHandle;
import dev.herald.session.CallOptions;
import dev.herald.session.CancelledException;
import dev.herald.session.CountingEventListener;
import dev.herald.session.ProgressRecord;
import dev.herald.session.ProgressRejection;
import dev.herald.session.ProgressUpdate;
import dev.herald.transport.http.StreamableHttpClientTransport;
import dev.herald.wire.CallToolResult;
import dev.herald.wire.ContentBlock;
import dev.herald.wire.CreateMessageResult;
import dev.herald.wire.ElicitResult;
import dev.herald.wire.LoggingLevel;
import dev.herald.wire.LoggingMessageParams;
import dev.herald.wire.McpJson;
import dev.herald.wire.ResourceUpdatedParams;
import dev.herald.wire.Role;
import dev.herald.wire.Root;
import dev.herald.wire.Tool;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import tools.jackson.databind.node.ObjectNode;

/** Herald's client against a real TypeScript SDK server over stdio. */
@Timeout(60)
class TypeScriptServerIT {

  static ObjectNode args(Object... kv) {
    ObjectNode o = McpJson.object();
    for (int i = 0; i < kv.length; i += 2) {
      o.set((String) kv[i], McpJson.toTree(kv[i + 1]));
    }
    return o;
  }

  @Test
  void progressMovesForwardOnlyAndTheCallEndsWithItsResponse() throws Exception {
    try (McpClient client = McpClient.builder().connect(TsPeer.stdioServer())) {
      assertThat(client.serverInfo().name()).isEqualTo("ts-peer");
      List<ProgressUpdate> updates = new CopyOnWriteArrayList<>();
      CallToolResult r =
          client.callTool(
              "slow",
              args("steps", 6, "delayMs", 20),
              CallOptions.builder().progress(updates::add).renderInterval(Duration.ZERO).build());
      assertThat(r.firstText()).isEqualTo("completed 6 steps");
      assertThat(updates)
          .extracting(ProgressUpdate::progress)
          .containsExactly(1.0, 2.0, 3.0, 4.0, 5.0, 6.0);
      assertThat(updates).allSatisfy(u -> assertThat(u.total()).isEqualTo(6.0));
    }
  }

  @Test
  void forgedDuplicateRegressingAndLateProgressIsRefusedAndNeverCompletesTheCall()
      throws Exception {
    try (McpClient client =
        McpClient.builder()
            .eventListenerFactory(role -> new CountingEventListener())
            .connect(TsPeer.stdioServer())) {
      List<ProgressUpdate> updates = new CopyOnWriteArrayList<>();
      ToolCallHandle call =
          client.callToolAsync(
              "hostile_progress",
              args(),
              CallOptions.builder().progress(updates::add).renderInterval(Duration.ZERO).build());
      // The server says 10/10 long before it answers; the call must still wait for the response.
      CallToolResult result = call.await();
      assertThat(result.firstText()).isEqualTo("finished for real");
      assertThat(updates).extracting(ProgressUpdate::progress).containsExactly(1.0, 2.0, 10.0);
      ProgressRecord record = call.progressRecord().orElseThrow();
      assertThat(record.accepted()).isEqualTo(3);
      assertThat(record.rejected()).containsEntry(ProgressRejection.NOT_INCREASING, 2L);
      assertThat(record.terminal()).isEqualTo(ProgressRecord.Terminal.RESPONSE);
      assertThat(events(client).progressUpdatesRefused(ProgressRejection.UNKNOWN))
          .as("the forged token")
          .isEqualTo(1);
      eventually(
          () -> events(client).progressUpdatesRefused(ProgressRejection.LATE) > 0,
          "the update after the response arrives");
      assertThat(events(client).progressUpdatesRefused(ProgressRejection.LATE))
          .as("the update after the response")
          .isEqualTo(1);
      assertThat(updates).hasSize(3); // the late update never reached the bar
    }
  }

  @Test
  void overStreamableHttpProgressLogsListChangesAndSubscriptionsArriveOnTheirStreams()
      throws Exception {
    try (TsPeer.HttpServer ts = TsPeer.httpServer();
        McpClient client =
            McpClient.builder().connect(new StreamableHttpClientTransport(ts.uri()))) {
      assertThat(client.serverInfo().name()).isEqualTo("ts-peer");
      List<ProgressUpdate> updates = new CopyOnWriteArrayList<>();
      CallToolResult r =
          client.callTool(
              "slow",
              args("steps", 5, "delayMs", 20),
              CallOptions.builder().progress(updates::add).renderInterval(Duration.ZERO).build());
      assertThat(r.firstText()).isEqualTo("completed 5 steps");
      assertThat(updates)
          .extracting(ProgressUpdate::progress)
          .containsExactly(1.0, 2.0, 3.0, 4.0, 5.0);

      List<ProgressUpdate> hostile = new CopyOnWriteArrayList<>();
      ToolCallHandle h =
          client.callToolAsync(
              "hostile_progress",
              args(),
              CallOptions.builder().progress(hostile::add).renderInterval(Duration.ZERO).build());
      assertThat(h.await().firstText()).isEqualTo("finished for real");
      assertThat(hostile).extracting(ProgressUpdate::progress).containsExactly(1.0, 2.0, 10.0);

      CountDownLatch changed = new CountDownLatch(1);
      client.onListChanged(McpClient.Area.TOOLS, changed::countDown);
      int before = client.tools().size();
      client.callTool("touch", args());
      assertThat(changed.await(5, TimeUnit.SECONDS)).isTrue();
      assertThat(client.tools()).hasSize(before + 1);

      CountDownLatch updated = new CountDownLatch(1);
      client.subscribe("demo://counter", u -> updated.countDown());
      client.callTool("update_resource", args());
      assertThat(updated.await(5, TimeUnit.SECONDS)).isTrue();
    }
  }

  @Test
  void indeterminateProgressHasNoInventedTotal() throws Exception {
    try (McpClient client = McpClient.builder().connect(TsPeer.stdioServer())) {
      List<ProgressUpdate> updates = new CopyOnWriteArrayList<>();
      client.callTool(
          "indeterminate",
          args("count", 3),
          CallOptions.builder().progress(updates::add).renderInterval(Duration.ZERO).build());
      assertThat(updates)
          .hasSize(3)
          .allSatisfy(u -> {
            assertThat(u.total()).isNull();
            assertThat(u.determinate()).isFalse();
          });
      assertThat(updates.get(2).message()).isEqualTo("item 3");
    }
  }

  @Test
  void concurrentCallsFromManyThreadsKeepEveryListenerSeparate() throws Exception {
    try (McpClient client =
        McpClient.builder()
            .eventListenerFactory(role -> new CountingEventListener())
            .connect(TsPeer.stdioServer())) {
      int calls = 12;
      List<List<ProgressUpdate>> seen = new ArrayList<>();
      List<CompletableFuture<CallToolResult>> results = new ArrayList<>();
      for (int i = 0; i < calls; i++) {
        List<ProgressUpdate> mine = new CopyOnWriteArrayList<>();
        seen.add(mine);
        int steps = 3 + i;
        CompletableFuture<CallToolResult> f = new CompletableFuture<>();
        results.add(f);
        Thread.ofVirtual()
            .start(() -> {
              try {
                f.complete(
                    client.callTool(
                        "slow",
                        args("steps", steps, "delayMs", 5),
                        CallOptions.builder()
                            .progress(mine::add)
                            .renderInterval(Duration.ZERO)
                            .build()));
              } catch (Throwable t) {
                f.completeExceptionally(t);
              }
            });
      }
      for (int i = 0; i < calls; i++) {
        int steps = 3 + i;
        assertThat(results.get(i).get(30, TimeUnit.SECONDS).firstText())
            .isEqualTo("completed " + steps + " steps");
        assertThat(seen.get(i))
            .as("call %d sees only its own total", i)
            .allSatisfy(u -> assertThat(u.total()).isEqualTo((double) steps));
        assertThat(seen.get(i))
            .extracting(ProgressUpdate::progress)
            .isSorted()
            .doesNotHaveDuplicates();
        assertThat(seen.get(i).get(seen.get(i).size() - 1).progress()).isEqualTo((double) steps);
      }
      assertThat(events(client).progressUpdatesRefused(ProgressRejection.UNKNOWN)).isZero();
    }
  }

  @Test
  void cancellingACallStopsItOnTheServer() throws Exception {
    try (McpClient client = McpClient.builder().connect(TsPeer.stdioServer())) {
      CountDownLatch started = new CountDownLatch(2);
      ToolCallHandle call =
          client.callToolAsync(
              "slow",
              args("steps", 500, "delayMs", 10),
              CallOptions.builder()
                  .progress(u -> started.countDown())
                  .renderInterval(Duration.ZERO)
                  .build());
      assertThat(started.await(10, TimeUnit.SECONDS)).isTrue();
      assertThat(call.cancel("user pressed cancel")).isTrue();
      assertThatThrownBy(call::await).isInstanceOf(CancelledException.class);
      client.ping();
      assertThat(client.callTool("echo", args("text", "after")).firstText()).isEqualTo("after");
    }
  }

  @Test
  void logsReachTheListenerAndSetLevelIsSent() throws Exception {
    List<LoggingMessageParams> logs = new CopyOnWriteArrayList<>();
    CountDownLatch two = new CountDownLatch(2);
    try (McpClient client =
        McpClient.builder()
            .onLog(m -> {
              logs.add(m);
              two.countDown();
            })
            .connect(TsPeer.stdioServer())) {
      client.setLoggingLevel(LoggingLevel.INFO);
      client.callTool("emit_logs", args("count", 2, "level", "info"));
      assertThat(two.await(5, TimeUnit.SECONDS)).isTrue();
      assertThat(logs)
          .extracting(m -> m.data().stringValue())
          .containsExactly("log message 1 of 2", "log message 2 of 2");
    }
  }

  @Test
  void aListChangeMakesTheCacheStaleAndTheNextUseRefetchesOnceUnderConcurrentCallers()
      throws Exception {
    CountDownLatch changed = new CountDownLatch(1);
    try (McpClient client =
        McpClient.builder().onToolsListChanged(changed::countDown).connect(TsPeer.stdioServer())) {
      List<Tool> before = client.tools();
      assertThat(client.fetchCount(McpClient.Area.TOOLS)).isEqualTo(1);
      client.tools();
      assertThat(client.fetchCount(McpClient.Area.TOOLS)).as("served from the cache").isEqualTo(1);
      client.callTool("touch", args());
      assertThat(changed.await(5, TimeUnit.SECONDS)).isTrue();
      assertThat(client.stale(McpClient.Area.TOOLS)).isTrue();
      for (List<Tool> listed : ConcurrentListing.tools(client, 8)) {
        assertThat(listed).hasSize(before.size() + 1);
      }
      assertThat(client.fetchCount(McpClient.Area.TOOLS))
          .as("one refetch for eight callers")
          .isEqualTo(2);
    }
  }

  @Test
  void resourceSubscriptionDeliversUpdatesForThatUri() throws Exception {
    try (McpClient client = McpClient.builder().connect(TsPeer.stdioServer())) {
      List<ResourceUpdatedParams> updates = new CopyOnWriteArrayList<>();
      CountDownLatch got = new CountDownLatch(2);
      ResourceSubscription sub =
          client.subscribe(
              "demo://counter",
              u -> {
                updates.add(u);
                got.countDown();
              });
      client.callTool("update_resource", args());
      client.callTool("update_resource", args());
      assertThat(got.await(5, TimeUnit.SECONDS)).isTrue();
      assertThat(updates)
          .extracting(ResourceUpdatedParams::uri)
          .containsExactly("demo://counter", "demo://counter");
      assertThat(client.readResource("demo://counter").contents()).isNotEmpty();
      sub.close();
      client.callTool("update_resource", args());
      Markers.criticalLog(client); // an update sent before it on the pipe would have been delivered
      assertThat(updates).hasSize(2);
    }
  }

  @Test
  void samplingElicitationWithDefaultsAndRootsAreAnsweredByTheHostsHandlers() throws Exception {
    try (McpClient client =
        McpClient.builder()
            .sampling((params, ctx) ->
                CreateMessageResult.of(
                    Role.ASSISTANT,
                    (dev.herald.wire.SamplingContent) ContentBlock.text("hi"),
                    "test-model",
                    CreateMessageResult.StopReason.END_TURN))
            .elicitation((params, ctx) -> ElicitResult.accept(McpJson.object().put("name", "Ada")))
            .roots(List.of(Root.of("file:///work", "work")))
            .connect(TsPeer.stdioServer())) {
      assertThat(client.callTool("ask_sampling", args()).firstText()).isEqualTo("model said: hi");
      String elicited = client.callTool("ask_elicitation", args()).firstText();
      assertThat(elicited)
          .startsWith("accept:")
          .contains("\"name\":\"Ada\"")
          .contains("\"color\":\"blue\"");
      assertThat(client.callTool("ask_roots", args()).firstText()).isEqualTo("file:///work");
    }
  }

  /** What the client's session reported to its counting listener. */
  private static CountingEventListener events(McpClient client) {
    return (CountingEventListener) client.eventListener();
  }
}
