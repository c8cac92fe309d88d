package dev.herald.http;

import static org.assertj.core.api.Assertions.assertThat;

import dev.herald.client.EraPreference;
import dev.herald.client.McpClient;
import dev.herald.server.McpServer;
import dev.herald.session.CallOptions;
import dev.herald.session.CountingEventListener;
import dev.herald.session.ProgressUpdate;
import dev.herald.wire.CallToolResult;
import dev.herald.wire.McpJson;
import dev.herald.wire.Tool;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.Parameter;
import org.junit.jupiter.params.ParameterizedClass;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * A handler that reports progress far faster than the network drains its stream is slowed down
 * (bounded back-pressure), not cut off as a slow reader, while its client keeps reading.
 */
@Timeout(120)
@ParameterizedClass
@EnumSource(ClientEngine.class)
class FastProducerTest {
  @Parameter ClientEngine engine;

  @AfterEach
  void closeEngines() {
    ClientEngine.closeAll();
  }

  @Test
  void aHandlerOutrunningAReaderThatKeepsUpGetsEveryProgressNotificationThroughInOrder()
      throws Exception {
    int count = 5_000;
    CountingEventListener events = new CountingEventListener();
    McpServer server =
        McpServer.builder()
            .eventListener(events)
            .progressInterval(Duration.ZERO) // every report is a notification on the wire
            .tool(
                Tool.builder("flood").description("Reports progress as fast as it can").build(),
                call -> {
                  for (int i = 1; i <= count; i++) {
                    call.context().progress().report(i, (double) count, null);
                  }
                  return CallToolResult.text("flooded");
                })
            .build();
    // A queue far smaller than the burst: without back-pressure the stream would overflow it.
    try (McpHttpServer http =
            McpHttpServer.builder()
                .server(server)
                .port(0)
                .streamQueueLimit(32, 1024 * 1024)
                .build()
                .start();
        McpClient client =
            McpClient.builder()
                .eras(EraPreference.HANDSHAKE_ONLY)
                .connect(() -> engine.transport(http.uri()))) {
      List<ProgressUpdate> updates = new CopyOnWriteArrayList<>();
      CallToolResult result =
          client.callTool(
              "flood",
              McpJson.object(),
              CallOptions.builder()
                  .progress(updates::add)
                  .renderInterval(Duration.ZERO)
                  .timeout(Duration.ofSeconds(100))
                  .build());

      assertThat(result.firstText()).isEqualTo("flooded");
      assertThat(events.slowReaderCloses()).isZero();
      assertThat(updates).hasSize(count);
      for (int i = 0; i < count; i++) {
        assertThat(updates.get(i).progress()).isEqualTo(i + 1.0);
      }
    }
  }
}
