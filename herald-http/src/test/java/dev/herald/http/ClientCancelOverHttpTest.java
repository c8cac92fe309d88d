package dev.herald.http;

import static dev.herald.http.CancelledCallStreamTest.waitUntil;
import static org.assertj.core.api.Assertions.assertThat;

import dev.herald.client.McpClient;
import dev.herald.client.ToolCallHandle;
import dev.herald.http.internal.StreamProbe;
import dev.herald.server.McpServer;
import dev.herald.session.CallOptions;
import dev.herald.session.CountingEventListener;
import dev.herald.session.EventListener.Outcome;
import dev.herald.session.EventListener.StreamKind;
import dev.herald.wire.CallToolResult;
import dev.herald.wire.Tool;
import java.time.Duration;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.Parameter;
import org.junit.jupiter.params.ParameterizedClass;
import org.junit.jupiter.params.provider.EnumSource;

/** Herald's own client cancels a call over Streamable HTTP: the call's stream ends and stays ended. */
@Timeout(30)
@ParameterizedClass
@EnumSource(ClientEngine.class)
class ClientCancelOverHttpTest {
  @Parameter ClientEngine engine;

  @AfterEach
  void closeEngines() {
    ClientEngine.closeAll();
  }

  @Test
  void aCallTheClientCancelsEndsItsStreamAndIsNotResumedOverAndOver() throws Exception {
    CountingEventListener events = new CountingEventListener();
    CountDownLatch never = new CountDownLatch(1);
    CountDownLatch started = new CountDownLatch(1);
    McpServer server =
        McpServer.builder()
            .eventListener(events)
            .progressInterval(Duration.ZERO)
            .tool(
                Tool.builder("slow")
                    .description("Reports progress, then waits to be cancelled")
                    .build(),
                call -> {
                  call.context().progress().report(1, null, null);
                  started.countDown();
                  never.await(60, TimeUnit.SECONDS);
                  return CallToolResult.text("late");
                })
            .tool(
                Tool.builder("quiet").description("Answers at once").build(),
                call -> CallToolResult.text("ok"))
            .build();
    // A short retry makes a client that keeps resuming the ended stream do so many times below.
    try (McpHttpServer http =
            McpHttpServer.builder().server(server).sseRetry(Duration.ofMillis(5)).build().start();
        McpClient client = McpClient.builder().connect(engine.transport(http.uri()))) {
      ToolCallHandle call =
          client.callToolAsync("slow", null, CallOptions.builder().progress(p -> {}).build());
      assertThat(started.await(10, TimeUnit.SECONDS)).isTrue();
      call.cancel("the test cancels it");
      assertThat(
              waitUntil(
                  () ->
                      events.requestsEnded(Outcome.CANCELLED) == 1
                          && StreamProbe.openRequestStreams(http.endpoint) == 0,
                  Duration.ofSeconds(10)))
          .isTrue();
      for (int i = 0; i < 50; i++) {
        assertThat(client.callTool("quiet", null).firstText()).isEqualTo("ok");
      }
      assertThat(events.streamsResumed(StreamKind.REQUEST))
          .as("resumptions of the cancelled call's stream")
          .isZero();
      never.countDown();
    }
  }
}
