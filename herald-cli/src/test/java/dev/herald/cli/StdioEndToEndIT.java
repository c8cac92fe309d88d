package dev.herald.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.herald.client.McpClient;
import dev.herald.client.ToolCallHandle;
import dev.herald.internal.session.EngineAccess;
import dev.herald.session.CallOptions;
import dev.herald.session.CancelledException;
import dev.herald.session.CountingEventListener;
import dev.herald.session.ProgressRecord;
import dev.herald.session.ProgressRejection;
import dev.herald.session.ProgressUpdate;
import dev.herald.testing.HeraldJar;
import dev.herald.transport.stdio.SubprocessTransport;
import dev.herald.wire.CallToolResult;
import dev.herald.wire.LoggingLevel;
import dev.herald.wire.LoggingMessageParams;
import dev.herald.wire.McpException;
import dev.herald.wire.McpJson;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** A Herald client and a Herald server started as a real subprocess, over stdio. */
@Timeout(60)
class StdioEndToEndIT {

  private static SubprocessTransport server() {
    return SubprocessTransport.builder(HeraldJar.command(List.of("-Xmx96m"), "serve", "--stdio"))
        .stderr(line -> System.err.println("[server] " + line))
        // the exit code after stdin closes is asserted: a JVM slow to exit on a busy machine must
        // not be sent SIGTERM (exit code 143) after the default 2 s
        .grace(Duration.ofSeconds(20))
        .build();
  }

  @Test
  void toolReportsProgressLogsAndIsCancelledMidway() throws Exception {
    SubprocessTransport transport = server();
    List<LoggingMessageParams> logs = new CopyOnWriteArrayList<>();
    CountDownLatch logged = new CountDownLatch(2);
    try (McpClient client =
        McpClient.builder()
            .eventListenerFactory(role -> new CountingEventListener())
            .info("e2e", "1")
            .eras(dev.herald.client.EraPreference.HANDSHAKE_ONLY) // session logs, 2025-11-25
            .onLog(m -> {
              logs.add(m);
              logged.countDown();
            })
            .connect(transport)) {
      assertThat(client.serverInfo().name()).isEqualTo("herald-demo");
      assertThat(client.protocolVersion().wire()).isEqualTo("2025-11-25");

      // Progress: every render moves forward and the last shows the final value before the result.
      List<ProgressUpdate> updates = new CopyOnWriteArrayList<>();
      CallToolResult done =
          client.callTool(
              "slow",
              args("steps", 8, "delayMs", 30),
              CallOptions.builder().progress(updates::add).renderInterval(Duration.ZERO).build());
      assertThat(done.firstText()).isEqualTo("completed 8 steps");
      assertThat(updates).isNotEmpty();
      assertThat(updates).extracting(ProgressUpdate::progress).isSorted().doesNotHaveDuplicates();
      assertThat(updates.get(updates.size() - 1).progress()).isEqualTo(8.0);
      assertThat(updates.get(updates.size() - 1).total()).isEqualTo(8.0);
      assertThat(updates.get(updates.size() - 1).message()).isEqualTo("step 8 of 8");

      // Logs: the session's level admits info, not debug.
      client.callTool("emit_logs", args("count", 2, "level", "info"));
      client.callTool("emit_logs", args("count", 2, "level", "debug"));
      assertThat(logged.await(5, TimeUnit.SECONDS)).isTrue();
      client.ping(); // logs precede the ping's answer on the one pipe
      assertThat(logs)
          .extracting(LoggingMessageParams::level)
          .containsExactly(LoggingLevel.INFO, LoggingLevel.INFO);

      // Cancellation midway: the call fails as cancelled, the server sends no response and stops.
      CountDownLatch started = new CountDownLatch(3);
      ToolCallHandle slow =
          client.callToolAsync(
              "slow",
              args("steps", 200, "delayMs", 20),
              CallOptions.builder()
                  .progress(u -> started.countDown())
                  .renderInterval(Duration.ZERO)
                  .build());
      assertThat(started.await(60, TimeUnit.SECONDS)).isTrue();
      assertThat(slow.cancel("test cancels")).isTrue();
      assertThatThrownBy(slow::await).isInstanceOf(CancelledException.class);
      ProgressRecord record = slow.progressRecord().orElseThrow();
      assertThat(record.terminal()).isEqualTo(ProgressRecord.Terminal.CANCELLED);
      assertThat(record.lastProgress()).isLessThan(200.0);
      // A marker on the server's own clock instead of a pause: a call of ten steps as long as the
      // cancelled call's, during which it would have sent ten more, had the server not stopped it.
      assertThat(client.callTool("slow", args("steps", 10, "delayMs", 20)).firstText())
          .isEqualTo("completed 10 steps");
      client.ping();
      assertThat(events(client).responsesIgnored())
          .isZero(); // no response ever came for the cancelled call
      assertThat(events(client).progressUpdatesRefused(ProgressRejection.LATE))
          .isLessThan(10); // only what crossed the cancel, never the marker's worth of steps
      assertThat(EngineAccess.of(client).pendingCount()).isZero();

      // The session is still fully usable.
      assertThat(client.callTool("echo", args("text", "still here")).firstText())
          .isEqualTo("still here");
    }
    Process p = transport.process();
    assertThat(p.waitFor(20, TimeUnit.SECONDS)).isTrue();
    assertThat(p.exitValue()).as("server exits cleanly once stdin closes").isZero();
  }

  @Test
  void protocolErrorsComeBackAsJsonRpcErrorsAndTheSessionGoesOn() throws Exception {
    try (McpClient client = McpClient.builder().connect(server())) {
      assertThatThrownBy(() -> client.callTool("no_such_tool", null))
          .isInstanceOf(McpException.class)
          .hasMessageContaining("Unknown tool");
      assertThatThrownBy(() -> client.callTool("slow", args("steps", -1)))
          .isInstanceOf(McpException.class)
          .satisfies(e -> assertThat(((McpException) e).code()).isEqualTo(-32602));
      assertThat(client.callTool("echo", args("text", "ok")).firstText()).isEqualTo("ok");
    }
  }

  @Test
  void idleTimeoutCancelsOnTheWireAndFreesTheCall() throws Exception {
    try (McpClient client = McpClient.builder().connect(server())) {
      // No progress requested, so nothing resets the idle clock: it fires after 300 ms.
      ToolCallHandle call =
          client.callToolAsync(
              "slow",
              args("steps", 100, "delayMs", 50),
              CallOptions.builder().idleTimeout(Duration.ofMillis(300)).build());
      assertThatThrownBy(call::await).isInstanceOf(dev.herald.session.TimeoutException.class);
      assertThat(EngineAccess.of(client).pendingCount()).isZero();
      client.ping();
      assertThat(client.callTool("echo", args("text", "after timeout")).firstText())
          .isEqualTo("after timeout");
    }
  }

  static tools.jackson.databind.node.ObjectNode args(Object... kv) {
    var o = McpJson.object();
    for (int i = 0; i < kv.length; i += 2) {
      o.set((String) kv[i], McpJson.toTree(kv[i + 1]));
    }
    return o;
  }

  /** What the client's session reported to its counting listener. */
  private static CountingEventListener events(McpClient client) {
    return (CountingEventListener) client.eventListener();
  }
}
