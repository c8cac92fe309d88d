package dev.herald.http;

import static org.assertj.core.api.Assertions.assertThat;

import dev.herald.client.EraPreference;
import dev.herald.client.McpClient;
import dev.herald.server.McpServer;
import dev.herald.transport.http.SessionExpiredException;
import dev.herald.wire.Implementation;
import java.time.Duration;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.Parameter;
import org.junit.jupiter.params.ParameterizedClass;
import org.junit.jupiter.params.provider.EnumSource;

/** A client replaces a lost session from the settings it connected with, not from its builder's later state. */
@Timeout(30)
@ParameterizedClass
@EnumSource(ClientEngine.class)
class ClientSessionRestartTest {
  @Parameter ClientEngine engine;

  private McpHttpServer http;

  @AfterEach
  void stop() {
    ClientEngine.closeAll();
    if (http != null) {
      http.close();
    }
  }

  @Test
  void aBuilderChangedAfterConnectDoesNotChangeHowTheLiveClientRestartsItsSession()
      throws Exception {
    McpServer server = McpServer.builder().info("restart-test", "1").build();
    http = McpHttpServer.builder().server(server).port(0).build().start();
    LinkedBlockingQueue<McpClient.SessionRestart> restarts = new LinkedBlockingQueue<>();
    LinkedBlockingQueue<McpClient.SessionRestart> addedLater = new LinkedBlockingQueue<>();
    McpClient.Builder builder =
        McpClient.builder()
            .info("first-host", "1.0")
            .eras(EraPreference.HANDSHAKE_ONLY) // sessions are a handshake-era thing
            .onSessionRestart(restarts::add);
    try (McpClient client = builder.connect(() -> engine.transport(http.uri()))) {
      assertThat(server.sessions()).hasSize(1);
      assertThat(server.sessions().get(0).clientInfo().map(Implementation::name))
          .hasValue("first-host");

      // The host goes on using the builder: none of this may reach the client already connected.
      builder
          .info("second-host", "2.0")
          .initializeTimeout(Duration.ofNanos(1))
          .onSessionRestart(addedLater::add);

      server.sessions().get(0).close(); // the server loses the session

      McpClient.SessionRestart restart = restarts.poll(10, TimeUnit.SECONDS);
      assertThat(restart).as("the restart listener given before connect is told").isNotNull();
      assertThat(restart.cause()).isInstanceOf(SessionExpiredException.class);
      assertThat(restart.restored()).as("restart failure: %s", restart.failure()).isTrue();
      assertThat(server.sessions()).hasSize(1);
      assertThat(server.sessions().get(0).clientInfo().map(Implementation::name))
          .as("the new session introduces the client as it connected")
          .hasValue("first-host");
      client.ping();
      assertThat(addedLater).as("a listener added to the builder after connect").isEmpty();
    }
  }
}
