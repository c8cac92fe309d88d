package dev.herald.spring.boot;

import static dev.herald.testing.Eventually.eventually;
import static org.assertj.core.api.Assertions.assertThat;

import dev.herald.client.EraPreference;
import dev.herald.client.McpClient;
import dev.herald.client.ResourceSubscription;
import dev.herald.client.ToolCallHandle;
import dev.herald.server.McpServer;
import dev.herald.session.CallOptions;
import dev.herald.session.ProgressUpdate;
import dev.herald.spring.boot.app.CountdownTools;
import dev.herald.spring.boot.app.TestApplication;
import dev.herald.transport.http.StreamableHttpClientTransport;
import dev.herald.wire.CallToolResult;
import dev.herald.wire.LoggingLevel;
import dev.herald.wire.LoggingMessageParams;
import dev.herald.wire.McpJson;
import dev.herald.wire.ResourceContents;
import dev.herald.wire.ResourceUpdatedParams;
import dev.herald.wire.Tool;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * The notification checks of Herald's hold-out suite, through the Tomcat that Spring Boot starts
 * for an application holding only the starter and its tool bean: progress before the response,
 * cancellation stopping the tool, a list change reaching every session, a resource update reaching
 * its subscribers only, logs filtered by each session's level.
 */
@Timeout(120)
class NotificationChecksTest {
  static RunningApp app;
  private final List<McpClient> clients = new ArrayList<>();

  @BeforeAll
  static void start() {
    app = RunningApp.start(TestApplication.class);
  }

  @AfterAll
  static void stop() {
    app.close();
  }

  @AfterEach
  void closeClients() {
    clients.forEach(McpClient::close);
  }

  private McpClient client() throws Exception {
    McpClient c =
        McpClient.builder()
            .eras(EraPreference.HANDSHAKE_ONLY)
            .connect(new StreamableHttpClientTransport(app.mcp()));
    clients.add(c);
    return c;
  }

  @Test
  void progressArrivesInOrderBeforeTheResponse() throws Exception {
    McpClient client = client();
    List<ProgressUpdate> updates = new CopyOnWriteArrayList<>();
    List<Integer> seenWhenAnswered = new ArrayList<>();

    CallToolResult r =
        client
            .callToolAsync(
                "countdown",
                McpJson.mapper().createObjectNode().put("steps", 5).put("delayMs", 20),
                CallOptions.builder().progress(updates::add).renderInterval(Duration.ZERO).build())
            .result()
            .whenComplete((x, e) -> seenWhenAnswered.add(updates.size()))
            .get();

    assertThat(r.firstText()).isEqualTo("counted 5");
    assertThat(updates).extracting(ProgressUpdate::progress).isSorted().endsWith(5.0);
    assertThat(seenWhenAnswered).containsExactly(updates.size()); // none came after the result
  }

  @Test
  void cancellingACallStopsTheTool() throws Exception {
    McpClient client = client();
    int cancelledBefore = CountdownTools.CANCELLED.get();
    int completedBefore = CountdownTools.COMPLETED.get();
    List<ProgressUpdate> updates = new CopyOnWriteArrayList<>();
    ToolCallHandle call =
        client.callToolAsync(
            "countdown",
            McpJson.mapper().createObjectNode().put("steps", 100_000).put("delayMs", 10),
            CallOptions.builder().progress(updates::add).renderInterval(Duration.ZERO).build());
    eventually(() -> !updates.isEmpty(), "the tool reported progress");

    assertThat(call.cancel("no longer needed")).isTrue();

    eventually(
        () -> CountdownTools.CANCELLED.get() == cancelledBefore + 1,
        "the tool saw its cancellation and stopped");
    assertThat(CountdownTools.COMPLETED.get()).isEqualTo(completedBefore);
    assertThat(app.context().getBean(InFlightRequests.class).running()).isZero();
  }

  @Test
  void aListChangeReachesEverySession() throws Exception {
    List<AtomicInteger> heard = new ArrayList<>();
    List<McpClient> sessions = new ArrayList<>();
    for (int i = 0; i < 3; i++) {
      McpClient c = client();
      AtomicInteger n = new AtomicInteger();
      c.onListChanged(McpClient.Area.TOOLS, n::incrementAndGet);
      c.tools(); // each session has listed the tools once
      heard.add(n);
      sessions.add(c);
    }
    McpServer server = app.context().getBean(McpServer.class);

    server.addTool(
        Tool.builder("late")
            .description("Added while the sessions were open.")
            .inputSchema(McpJson.mapper().createObjectNode().put("type", "object"))
            .build(),
        call -> CallToolResult.text("late"));
    try {
      eventually(
          () -> heard.stream().allMatch(n -> n.get() >= 1), "every session heard the change");
      for (McpClient c : sessions) {
        assertThat(c.tools()).extracting(Tool::name).contains("late");
      }
    } finally {
      server.removeTool("late");
    }
  }

  @Test
  void aResourceUpdateReachesItsSubscribersOnly() throws Exception {
    McpClient subscriber = client();
    McpClient other = client();
    List<ResourceUpdatedParams> updates = new CopyOnWriteArrayList<>();
    try (ResourceSubscription s = subscriber.subscribe(TestApplication.COUNTER, updates::add)) {
      String before = counter(subscriber);

      other.callTool("bump", null);

      eventually(() -> !updates.isEmpty(), "the subscriber heard of the update");
      assertThat(updates).extracting(ResourceUpdatedParams::uri).contains(TestApplication.COUNTER);
      String after = counter(subscriber);
      assertThat(Long.parseLong(after)).isGreaterThan(Long.parseLong(before));
    }
  }

  @Test
  void logsFollowEachSessionsLevel() throws Exception {
    McpClient warnings = client();
    McpClient everything = client();
    List<String> warned = new CopyOnWriteArrayList<>();
    List<String> all = new CopyOnWriteArrayList<>();
    warnings.onLog(m -> warned.add(level(m)));
    everything.onLog(m -> all.add(level(m)));
    warnings.setLoggingLevel(LoggingLevel.WARNING);
    everything.setLoggingLevel(LoggingLevel.DEBUG);

    warnings.callTool("emit_logs", null);
    everything.callTool("emit_logs", null);

    eventually(() -> warned.size() == 5 && all.size() == 8, "each session got its logs");
    assertThat(warned).containsExactly("warning", "error", "critical", "alert", "emergency");
    assertThat(all)
        .containsExactly(
            "debug", "info", "notice", "warning", "error", "critical", "alert", "emergency");
  }

  private static String level(LoggingMessageParams m) {
    return m.level().wire();
  }

  private static String counter(McpClient client) throws InterruptedException {
    var contents = client.readResource(TestApplication.COUNTER).contents().getFirst();
    return ((ResourceContents.Text) contents).text();
  }
}
