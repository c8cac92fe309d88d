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
import dev.herald.wire.SamplingContent;
import dev.herald.wire.Tool;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import tools.jackson.databind.node.ObjectNode;

/**
 * Herald's client against a real server built with the official MCP Java SDK 2.1.0
 * ({@link JavaSdkServerMain}, a subprocess over the SDK's {@code StdioServerTransportProvider}).
 */
@Timeout(120) // a fresh SDK server JVM per test: slow to start when the cores are busy
class JavaSdkServerIT {

  static ObjectNode args(Object... kv) {
    return TypeScriptServerIT.args(kv);
  }

  @Test
  void progressFromTheJavaSdkServerMovesForwardOnlyEndsAtTheTotalAndReachesOnlyItsOwnCall()
      throws Exception {
    try (McpClient client =
        McpClient.builder()
            .eventListenerFactory(role -> new CountingEventListener())
            .connect(JavaSdkPeer.stdioServer())) {
      assertThat(client.serverInfo().name()).isEqualTo("java-sdk-peer");
      List<ProgressUpdate> five = new CopyOnWriteArrayList<>();
      List<ProgressUpdate> seven = new CopyOnWriteArrayList<>();
      // Two calls at once: the SDK echoes the token Herald put in _meta, and each update must find
      // its own call.
      ToolCallHandle a =
          client.callToolAsync(
              "slow",
              args("steps", 5, "delayMs", 30),
              CallOptions.builder().progress(five::add).renderInterval(Duration.ZERO).build());
      ToolCallHandle b =
          client.callToolAsync(
              "slow",
              args("steps", 7, "delayMs", 20),
              CallOptions.builder().progress(seven::add).renderInterval(Duration.ZERO).build());
      assertThat(a.await().firstText()).isEqualTo("completed 5 steps");
      assertThat(b.await().firstText()).isEqualTo("completed 7 steps");
      assertThat(five)
          .extracting(ProgressUpdate::progress)
          .containsExactly(1.0, 2.0, 3.0, 4.0, 5.0);
      assertThat(five).allSatisfy(u -> assertThat(u.total()).isEqualTo(5.0));
      assertThat(seven)
          .extracting(ProgressUpdate::progress)
          .containsExactly(1.0, 2.0, 3.0, 4.0, 5.0, 6.0, 7.0);
      assertThat(seven).allSatisfy(u -> assertThat(u.total()).isEqualTo(7.0));
      assertThat(five.get(4).message()).isEqualTo("step 5 of 5");
      for (ToolCallHandle h : List.of(a, b)) {
        ProgressRecord r = h.progressRecord().orElseThrow();
        assertThat(r.rejected()).as("nothing refused").isEmpty();
        assertThat(r.terminal()).isEqualTo(ProgressRecord.Terminal.RESPONSE);
      }
      // The SDK's progressNotification blocks until written, so every update precedes its response.
      assertThat(events(client).progressUpdatesRefused(ProgressRejection.UNKNOWN)).isZero();
      assertThat(events(client).progressUpdatesRefused(ProgressRejection.LATE)).isZero();
    }
  }

  @Test
  @Timeout(90)
  void cancellingASlowCallFailsItAtOnceAndTheSessionStaysUsable() throws Exception {
    try (McpClient client =
        McpClient.builder()
            .eventListenerFactory(role -> new CountingEventListener())
            .connect(JavaSdkPeer.stdioServer())) {
      CountDownLatch started = new CountDownLatch(2);
      ToolCallHandle call =
          client.callToolAsync(
              "slow",
              // 12 s of work: long enough that "failed at once" cannot be the server's answer even
              // when the machine's cores are busy, short enough for the late answer to be seen
              args("steps", 240, "delayMs", 50),
              CallOptions.builder()
                  .progress(u -> started.countDown())
                  .renderInterval(Duration.ZERO)
                  .build());
      assertThat(started.await(10, TimeUnit.SECONDS)).isTrue();
      assertThat(call.cancel("user pressed cancel")).isTrue();
      assertThatThrownBy(call::await).isInstanceOf(CancelledException.class);
      assertThat(events(client).responsesIgnored())
          .as("failed at once, not when the server answered")
          .isZero();
      client.ping();
      assertThat(client.callTool("echo", args("text", "after")).firstText()).isEqualTo("after");

      // SDK limitation (java-sdk #130, 2.1.0): the server has no handler for
      // notifications/cancelled
      // and a tool handler cannot observe it, so the loop runs on and answers. Herald drops that
      // answer (and any progress after the cancel) as late instead of handing it to anyone.
      eventually(
          Duration.ofSeconds(40),
          () -> events(client).responsesIgnored() == 1,
          "the SDK's late answer to the cancelled call");
      assertThat(call.result()).isCompletedExceptionally();
      assertThat(client.callTool("echo", args("text", "still here")).firstText())
          .isEqualTo("still here");
    }
  }

  @Test
  void logsAtOrAboveTheSessionLevelReachTheLogListenerInOrder() throws Exception {
    List<LoggingMessageParams> logs = new CopyOnWriteArrayList<>();
    try (McpClient client =
        McpClient.builder().onLog(logs::add).connect(JavaSdkPeer.stdioServer())) {
      assertThat(client.serverCapabilities().logging()).isNotNull();
      client.setLoggingLevel(LoggingLevel.INFO);
      client.callTool("emit_logs", args("count", 2, "level", "debug"));
      client.callTool("emit_logs", args("count", 3, "level", "info"));
      eventually(() -> logs.size() >= 3, "three info logs");
      client.setLoggingLevel(LoggingLevel.WARNING);
      client.callTool("emit_logs", args("count", 2, "level", "info"));
      client.callTool("emit_logs", args("count", 1, "level", "error"));
      eventually(() -> logs.size() >= 4, "the error log");
      Markers.criticalLog(client); // whatever came before it on the pipe has reached the listener
      assertThat(logs)
          .extracting(m -> m.data().stringValue())
          .containsExactly(
              "log message 1 of 3",
              "log message 2 of 3",
              "log message 3 of 3",
              "log message 1 of 1",
              "log message 1 of 1");
      assertThat(logs)
          .extracting(LoggingMessageParams::level)
          .containsExactly(
              LoggingLevel.INFO,
              LoggingLevel.INFO,
              LoggingLevel.INFO,
              LoggingLevel.ERROR,
              LoggingLevel.CRITICAL);
      assertThat(logs).allSatisfy(m -> assertThat(m.logger()).isEqualTo("java-sdk"));
    }
  }

  @Test
  void aToolsListChangeFromTheSdkMakesTheCacheStaleAndConcurrentCallersRefetchOnce()
      throws Exception {
    AtomicInteger changes = new AtomicInteger();
    try (McpClient client =
        McpClient.builder()
            .onToolsListChanged(changes::incrementAndGet)
            .connect(JavaSdkPeer.stdioServer())) {
      List<Tool> before = client.tools();
      client.tools();
      assertThat(client.fetchCount(McpClient.Area.TOOLS)).as("served from the cache").isEqualTo(1);
      client.callTool("touch", args());
      eventually(() -> changes.get() == 1, "tools/list_changed");
      assertThat(client.stale(McpClient.Area.TOOLS)).isTrue();
      for (List<Tool> listed : ConcurrentListing.tools(client, 8)) {
        assertThat(listed).hasSize(before.size() + 1).extracting(Tool::name).contains("dummy_1");
      }
      assertThat(client.fetchCount(McpClient.Area.TOOLS))
          .as("one refetch for eight callers")
          .isEqualTo(2);
      assertThat(client.callTool("dummy_1", args()).firstText()).isEqualTo("dummy");
      client.ping();
      assertThat(changes.get()).as("one touch, one notification").isEqualTo(1);
    }
  }

  @Test
  void aResourceSubscriptionDeliversTheSdksUpdatesForThatUriUntilClosed() throws Exception {
    try (McpClient client = McpClient.builder().connect(JavaSdkPeer.stdioServer())) {
      assertThat(client.serverCapabilities().resourcesSubscribe()).isTrue();
      List<ResourceUpdatedParams> updates = new CopyOnWriteArrayList<>();
      ResourceSubscription sub = client.subscribe(JavaSdkServerMain.COUNTER_URI, updates::add);
      client.callTool("update_resource", args());
      client.callTool("update_resource", args());
      eventually(() -> updates.size() == 2, "two resources/updated");
      assertThat(updates)
          .extracting(ResourceUpdatedParams::uri)
          .containsExactly("demo://counter", "demo://counter");
      assertThat(client.readResource("demo://counter").contents())
          .singleElement()
          .satisfies(c -> assertThat(McpJson.toTree(c).get("text").stringValue()).isEqualTo("2"));
      sub.close(); // the last listener: resources/unsubscribe goes to the SDK server
      client.callTool("update_resource", args());
      Markers.criticalLog(client); // an update sent before it on the pipe would have been delivered
      assertThat(updates).as("none after unsubscribe").hasSize(2);
    }
  }

  @Test
  void theSdkServersSamplingElicitationAndRootsRequestsAreAnsweredByHeraldsHandlers()
      throws Exception {
    List<String> prompts = new CopyOnWriteArrayList<>();
    try (McpClient client =
        McpClient.builder()
            .sampling((params, ctx) -> {
              prompts.add(
                  McpJson.toTree(params.messages().get(0).content()).get("text").stringValue());
              return CreateMessageResult.of(
                  Role.ASSISTANT,
                  (SamplingContent) ContentBlock.text("hi from herald"),
                  "test-model",
                  CreateMessageResult.StopReason.END_TURN);
            })
            .elicitation((params, ctx) -> {
              assertThat(params.message()).isEqualTo("Your name?");
              return ElicitResult.accept(McpJson.object().put("name", "Ada"));
            })
            .roots(List.of(Root.of("file:///work", "work"), Root.of("file:///tmp", "tmp")))
            .connect(JavaSdkPeer.stdioServer())) {
      assertThat(client.callTool("ask_sampling", args()).firstText())
          .isEqualTo("model said: hi from herald");
      assertThat(prompts).containsExactly("hello?");
      CallToolResult elicited = client.callTool("ask_elicitation", args());
      // Herald fills the schema's default for "color" (SEP-1034) before answering.
      assertThat(elicited.firstText()).isEqualTo("accept: {color=blue, name=Ada}");
      assertThat(client.callTool("ask_roots", args()).firstText())
          .isEqualTo("file:///work,file:///tmp");
    }
  }

  /** What the client's session reported to its counting listener. */
  private static CountingEventListener events(McpClient client) {
    return (CountingEventListener) client.eventListener();
  }
}
