package dev.herald.spring.boot;

import static dev.herald.testing.Eventually.eventually;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.herald.client.EraPreference;
import dev.herald.client.McpClient;
import dev.herald.client.ToolCallHandle;
import dev.herald.session.CallOptions;
import dev.herald.session.ProgressUpdate;
import dev.herald.spring.boot.app.CountdownTools;
import dev.herald.spring.boot.app.TestApplication;
import dev.herald.transport.http.StreamableHttpClientTransport;
import dev.herald.wire.McpException;
import dev.herald.wire.McpJson;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * The application stopping while calls run: within Spring's shutdown phase, a call finishes when
 * it can within {@code herald.shutdown-timeout}, is cancelled when it cannot, and the client's
 * streams end, so nothing waits on the web server's own graceful shutdown.
 */
@Timeout(180)
class GracefulShutdownTest {

  private static ToolCallHandle countdown(McpClient client, int steps, int delayMs)
      throws Exception {
    List<ProgressUpdate> updates = new CopyOnWriteArrayList<>();
    ToolCallHandle call =
        client.callToolAsync(
            "countdown",
            McpJson.mapper().createObjectNode().put("steps", steps).put("delayMs", delayMs),
            CallOptions.builder().progress(updates::add).renderInterval(Duration.ZERO).build());
    eventually(() -> !updates.isEmpty(), "the call is running");
    return call;
  }

  @Test
  void aCallInProgressFinishesBeforeTheApplicationStops() throws Exception {
    RunningApp app = RunningApp.start(TestApplication.class);
    int completed = CountdownTools.COMPLETED.get();
    try (McpClient client =
        McpClient.builder()
            .eras(EraPreference.HANDSHAKE_ONLY)
            .connect(new StreamableHttpClientTransport(app.mcp()))) {
      ToolCallHandle call = countdown(client, 10, 100);

      app.close(); // returns once Spring's shutdown is done

      assertThat(call.result().get(30, TimeUnit.SECONDS).firstText()).isEqualTo("counted 10");
      assertThat(CountdownTools.COMPLETED.get()).isEqualTo(completed + 1);
    }
  }

  @Test
  void aCallStillRunningWhenTheShutdownTimeoutEndsIsCancelledAndAnsweredSo() throws Exception {
    RunningApp app = RunningApp.start(TestApplication.class, "herald.shutdown-timeout=300ms");
    int cancelled = CountdownTools.CANCELLED.get();
    try (McpClient client =
        McpClient.builder()
            .eras(EraPreference.HANDSHAKE_ONLY)
            .connect(new StreamableHttpClientTransport(app.mcp()))) {
      ToolCallHandle call = countdown(client, 1_000_000, 10);
      long start = System.nanoTime();

      app.close();

      assertThat(CountdownTools.CANCELLED.get()).isEqualTo(cancelled + 1);
      assertThat(Duration.ofNanos(System.nanoTime() - start))
          .as("well inside Spring's 30 s shutdown phase")
          .isLessThan(Duration.ofSeconds(25));
      assertThatThrownBy(() -> call.result().get(30, TimeUnit.SECONDS))
          .as("the call is answered before its stream ends")
          .hasCauseInstanceOf(McpException.class)
          .hasMessageContaining("Server is shutting down");
    }
  }
}
