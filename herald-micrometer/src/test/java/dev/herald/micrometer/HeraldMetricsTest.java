package dev.herald.micrometer;

import static dev.herald.testing.Eventually.eventually;
import static org.assertj.core.api.Assertions.assertThat;

import dev.herald.client.EraPreference;
import dev.herald.client.McpClient;
import dev.herald.client.TaskHandle;
import dev.herald.client.ToolCallHandle;
import dev.herald.http.McpHttpServer;
import dev.herald.server.McpServer;
import dev.herald.server.RequestContext;
import dev.herald.server.TaskStart;
import dev.herald.session.CallOptions;
import dev.herald.session.EventListener;
import dev.herald.transport.http.StreamableHttpClientTransport;
import dev.herald.wire.CallToolResult;
import dev.herald.wire.LoggingLevel;
import dev.herald.wire.McpException;
import dev.herald.wire.TaskSupport;
import dev.herald.wire.Tool;
import io.micrometer.core.instrument.Meter;
import io.micrometer.core.instrument.Tag;
import io.micrometer.core.instrument.Tags;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.time.Duration;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * Herald's meters move for a real session: Herald's client against Herald's server on a real
 * Jetty endpoint (Streamable HTTP, the handshake era), both recording in one {@link
 * SimpleMeterRegistry} through {@link HeraldMetrics}.
 */
@Timeout(60)
class HeraldMetricsTest {
  private final SimpleMeterRegistry registry = new SimpleMeterRegistry();
  private final EventListener.Factory metrics =
      HeraldMetrics.listenerFactory(registry, Tags.of("app", "test"));
  private final CountDownLatch slowStarted = new CountDownLatch(1);
  private final List<String> requestIds = new CopyOnWriteArrayList<>();
  private final McpServer server =
      McpServer.builder()
          .eventListenerFactory(metrics)
          .progressInterval(Duration.ZERO)
          .listChangedDebounce(Duration.ZERO)
          .tool(
              Tool.builder("steps").description("Reports progress, logs, answers").build(),
              call -> {
                RequestContext ctx = call.context();
                requestIds.add(ctx.requestId().toString());
                ctx.progress().report(1, 2.0, "one");
                ctx.progress().report(1, 2.0, "one again"); // not increasing: refused
                ctx.progress().report(2, 2.0, "two");
                ctx.log(LoggingLevel.INFO, "below the client's level"); // gated
                return CallToolResult.text("stepped");
              })
          .tool(
              Tool.builder("slow").description("Waits to be cancelled").build(),
              call -> {
                slowStarted.countDown();
                new CountDownLatch(1).await(30, TimeUnit.SECONDS);
                return CallToolResult.text("late");
              })
          .tool(
              Tool.builder("reconnect").description("Closes its own stream, then answers").build(),
              call -> {
                call.context().progress().report(1, null, null);
                call.context().pollStream();
                return CallToolResult.text("reconnected");
              })
          .tool(
              Tool.builder("job").taskSupport(TaskSupport.REQUIRED).build(),
              TaskStart.AT_ONCE,
              call -> CallToolResult.text("job done"))
          .build();
  private final McpHttpServer http =
      McpHttpServer.builder().server(server).sseRetry(Duration.ofMillis(20)).build().start();

  @AfterEach
  void stop() {
    http.close();
    server.close();
  }

  private double count(String name, String... tags) {
    return registry.find(name).tags(tags).counters().stream().mapToDouble(c -> c.count()).sum();
  }

  private long timerCount(String... tags) {
    return registry.find("herald.requests").tags(tags).timers().stream()
        .mapToLong(t -> t.count())
        .sum();
  }

  private double gauge(String name, String role) {
    return registry.get(name).tag("role", role).gauge().value();
  }

  @Test
  void eachMeterMovesForARealSession() throws Exception {
    StreamableHttpClientTransport transport = new StreamableHttpClientTransport(http.uri());
    McpClient client =
        McpClient.builder()
            .eras(EraPreference.HANDSHAKE_ONLY)
            .eventListenerFactory(metrics)
            .connect(transport);
    String sessionId;
    try {
      eventually(() -> gauge("herald.sessions.open", "server") == 1, "the server's session opened");
      assertThat(gauge("herald.sessions.open", "client")).isEqualTo(1);
      assertThat(count("herald.sessions.opened", "role", "server")).isEqualTo(1);
      sessionId = transport.sessionId().orElseThrow();
      client.setLoggingLevel(LoggingLevel.WARNING);

      // a call with progress: progress sent and accepted, a refused report, a gated log
      CallToolResult stepped =
          client.callTool("steps", null, CallOptions.builder().progress(p -> {}).build());
      assertThat(stepped.firstText()).isEqualTo("stepped");
      assertThat(timerCount("role", "server", "method", "tools/call", "outcome", "ok"))
          .isEqualTo(1);
      assertThat(count("herald.notifications.sent", "role", "server", "family", "progress"))
          .isEqualTo(2);
      eventually(
          () -> count("herald.progress.accepted", "role", "client") == 2,
          "the client accepted both progress values");
      assertThat(
              count(
                  "herald.progress.reports.refused", "role", "server", "reason", "not_increasing"))
          .isEqualTo(1);
      assertThat(
              count(
                  "herald.notifications.gated",
                  "role",
                  "server",
                  "family",
                  "message",
                  "reason",
                  "below_level"))
          .isEqualTo(1);
      assertThat(count("herald.streams.opened", "role", "server", "kind", "request"))
          .isGreaterThanOrEqualTo(1);

      // a cancelled call
      ToolCallHandle slow = client.callToolAsync("slow", null, CallOptions.defaults());
      assertThat(slowStarted.await(10, TimeUnit.SECONDS)).isTrue();
      assertThat(gauge("herald.requests.active", "server")).isEqualTo(1);
      slow.cancel("the test cancels it");
      eventually(
          () -> timerCount("role", "server", "method", "tools/call", "outcome", "cancelled") == 1,
          "the server timed the cancelled call");
      assertThat(count("herald.notifications.sent", "role", "client", "family", "cancelled"))
          .isEqualTo(1);
      eventually(() -> gauge("herald.requests.active", "server") == 0, "no request runs any more");

      // an error
      try {
        client.callTool("no-such-tool", null);
      } catch (McpException expected) {
        // answered -32602
      }
      assertThat(
              timerCount(
                  "role", "server", "method", "tools/call", "outcome", "error", "error", "-32602"))
          .isEqualTo(1);

      // a list change reaches the session
      server.addTool(
          Tool.builder("late").description("Added later").build(),
          call -> CallToolResult.text("late"));
      eventually(
          () ->
              count("herald.notifications.sent", "role", "server", "family", "tools_list_changed")
                  == 1,
          "the list change was sent");

      // a stream the server closes is resumed by the client
      assertThat(client.callTool("reconnect", null).firstText()).isEqualTo("reconnected");
      // counted once the resumed stream is attached, which is after its replay went out
      eventually(
          () -> count("herald.streams.resumed", "role", "server", "kind", "request") == 1,
          "the resumption was counted");
      eventually(
          () -> count("herald.streams.closed", "role", "server", "kind", "request") >= 2,
          "the closed and the resumed connections ended");

      // a task, from working to completed
      TaskHandle job = client.callToolAsTask("job", null, CallOptions.defaults(), null);
      assertThat(job.await().firstText()).isEqualTo("job done");
      eventually(
          () -> count("herald.tasks.status", "role", "server", "status", "completed") == 1,
          "the task completed");
      assertThat(count("herald.tasks.status", "role", "server", "status", "working")).isEqualTo(1);
      assertThat(gauge("herald.tasks.running", "server")).isZero();
    } finally {
      client.close();
    }
    eventually(() -> gauge("herald.sessions.open", "server") == 0, "the server's session closed");
    assertThat(gauge("herald.sessions.open", "client")).isZero();
    assertThat(count("herald.sessions.closed", "role", "server")).isEqualTo(1);
    assertThat(count("herald.sessions.closed", "role", "client")).isEqualTo(1);

    assertNoHighCardinalityTags(sessionId);
  }

  /** Every tag comes from a small closed set; no id, tool name or argument is a tag. */
  private void assertNoHighCardinalityTags(String sessionId) {
    Set<String> keys =
        Set.of(
            "app", "role", "method", "outcome", "error", "family", "reason", "kind", "status",
            "cause");
    Map<String, Set<String>> values = new HashMap<>();
    for (Meter m : registry.getMeters()) {
      for (Tag t : m.getId().getTags()) {
        assertThat(keys).as("tag key of " + m.getId()).contains(t.getKey());
        values.computeIfAbsent(t.getKey(), k -> new HashSet<>()).add(t.getValue());
      }
    }
    Set<String> all = new HashSet<>();
    values.values().forEach(all::addAll);
    assertThat(all)
        .doesNotContain(sessionId, "steps", "slow", "reconnect", "job", "no-such-tool", "late")
        .doesNotContainAnyElementsOf(requestIds);
    assertThat(values.get("method")).allSatisfy(v -> assertThat(Meters.METHODS).contains(v));
  }

  @Test
  void methodsOutsideTheSpecificationAndApplicationErrorCodesCollapseToOneValue() {
    assertThat(Meters.method("tools/call")).isEqualTo("tools/call");
    assertThat(Meters.method("x-made-up/" + System.nanoTime())).isEqualTo("other");
    assertThat(Meters.errorClass(-32602)).isEqualTo("-32602");
    assertThat(Meters.errorClass(-32099)).isEqualTo("reserved");
    assertThat(Meters.errorClass(42)).isEqualTo("application");
    assertThat(Meters.errorClass(0)).isEqualTo("none");
  }
}
