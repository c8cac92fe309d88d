package dev.herald.http;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.herald.client.EraPreference;
import dev.herald.client.McpClient;
import dev.herald.client.ToolCallHandle;
import dev.herald.server.McpServer;
import dev.herald.session.CallOptions;
import dev.herald.session.ProgressUpdate;
import dev.herald.transport.TransportException;
import dev.herald.transport.http.SessionExpiredException;
import dev.herald.wire.CallToolResult;
import dev.herald.wire.LoggingLevel;
import dev.herald.wire.McpJson;
import dev.herald.wire.ReadResourceResult;
import dev.herald.wire.Resource;
import dev.herald.wire.ResourceContents;
import dev.herald.wire.Tool;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.Parameter;
import org.junit.jupiter.params.ParameterizedClass;
import org.junit.jupiter.params.provider.EnumSource;

/** Herald's client against Herald's Jetty server over Streamable HTTP, including a lost session. */
@Timeout(30)
@ParameterizedClass
@EnumSource(ClientEngine.class)
class ClientOverHttpTest {
  @Parameter ClientEngine engine;

  private McpHttpServer http;
  private final CountDownLatch blocking = new CountDownLatch(1);

  @AfterEach
  void stop() {
    ClientEngine.closeAll();
    if (http != null) {
      http.close();
    }
  }

  private McpServer server(AtomicInteger counter) {
    return McpServer.builder()
        .info("http-test", "1")
        .tool(
            Tool.builder("steps").description("Reports progress for n steps").build(),
            call -> {
              long n = call.integer("n", 3);
              for (long i = 1; i <= n; i++) {
                Thread.sleep(5);
                call.context().progress().report(i, (double) n, "step " + i);
              }
              return CallToolResult.text("did " + n);
            })
        .tool(
            Tool.builder("block").description("Blocks until cancelled").build(),
            call -> {
              blocking.countDown();
              Thread.sleep(60_000);
              return CallToolResult.text("woke");
            })
        .resource(
            new Resource(
                "demo://counter", "counter", null, null, "text/plain", null, null, null, null),
            read ->
                ReadResourceResult.of(
                    ResourceContents.text(read.uri(), "text/plain", String.valueOf(counter.get()))))
        .build();
  }

  @Test
  void progressArrivesOnTheCallsStreamAndALostSessionIsReplacedAndTheCallerIsTold()
      throws Exception {
    AtomicInteger counter = new AtomicInteger();
    McpServer server = server(counter);
    http = McpHttpServer.builder().server(server).port(0).build().start();
    LinkedBlockingQueue<McpClient.SessionRestart> restarts = new LinkedBlockingQueue<>();
    try (McpClient client =
        McpClient.builder()
            .eras(EraPreference.HANDSHAKE_ONLY) // a lost session is a handshake-era thing
            .onSessionRestart(restarts::add)
            .connect(() -> engine.transport(http.uri()))) {
      List<ProgressUpdate> updates = new CopyOnWriteArrayList<>();
      CallToolResult r =
          client.callTool(
              "steps",
              McpJson.object().put("n", 4),
              CallOptions.builder().progress(updates::add).renderInterval(Duration.ZERO).build());
      assertThat(r.firstText()).isEqualTo("did 4");
      assertThat(updates.get(updates.size() - 1).progress()).isEqualTo(4.0);

      client.setLoggingLevel(LoggingLevel.DEBUG);
      CountDownLatch updated = new CountDownLatch(1);
      client.subscribe("demo://counter", u -> updated.countDown());
      ToolCallHandle inFlight = client.callToolAsync("block", null, CallOptions.defaults());
      assertThat(blocking.await(10, TimeUnit.SECONDS)).as("the call reached the server").isTrue();

      // The server loses the session (it expired, or the node restarted).
      assertThat(server.sessions()).hasSize(1);
      server.sessions().get(0).close();

      // The caller whose call was in flight is told, with a clear exception...
      assertThatThrownBy(inFlight::await)
          .isInstanceOf(TransportException.class)
          .satisfies(e -> assertThat(e).isInstanceOf(SessionExpiredException.class));
      // ...and the host is told that a new session replaced it.
      McpClient.SessionRestart restart = restarts.poll(10, TimeUnit.SECONDS);
      assertThat(restart).isNotNull();
      assertThat(restart.restored()).as("restart failure: %s", restart.failure()).isTrue();
      assertThat(restart.cause()).isInstanceOf(SessionExpiredException.class);

      // The new session works, and the subscription and log level were restored on it.
      assertThat(server.sessions()).hasSize(1);
      assertThat(server.sessions().get(0).logLevel()).isEqualTo(LoggingLevel.DEBUG);
      assertThat(client.callTool("steps", null).firstText()).isEqualTo("did 3");
      counter.incrementAndGet();
      assertThat(server.notifyResourceUpdated("demo://counter")).isEqualTo(1);
      assertThat(updated.await(5, TimeUnit.SECONDS)).isTrue();
    }
  }
}
