package dev.herald.spring.boot;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.herald.client.EraPreference;
import dev.herald.client.McpClient;
import dev.herald.spring.boot.app.TestApplication;
import dev.herald.spring.boot.badtool.BadToolApplication;
import dev.herald.spring.boot.ownserver.OwnServerApplication;
import dev.herald.transport.http.StreamableHttpClientTransport;
import dev.herald.wire.Tool;
import java.net.URI;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** What the application decides: its own server, the herald.* properties, its mistakes. */
@Timeout(180)
class StarterConfigurationTest {

  private static McpClient connect(URI uri) throws Exception {
    return McpClient.builder()
        .eras(EraPreference.HANDSHAKE_ONLY)
        .connect(new StreamableHttpClientTransport(uri));
  }

  @Test
  void anApplicationsOwnMcpServerIsServedInsteadOfOneBuiltFromBeans() throws Exception {
    try (RunningApp app = RunningApp.start(OwnServerApplication.class, "herald.path=/api/mcp");
        McpClient client = connect(app.uri("/api/mcp"))) {
      assertThat(client.serverInfo().name()).isEqualTo("own");
      assertThat(client.tools()).extracting(Tool::name).containsExactly("own_tool");
      assertThat(client.callTool("own_tool", null).firstText()).isEqualTo("mine");
    }
  }

  @Test
  void heraldPropertiesNameTheServerAndBoundItsSessions() throws Exception {
    try (RunningApp app =
            RunningApp.start(
                TestApplication.class,
                "herald.name=orders",
                "herald.version=1.4.0",
                "herald.instructions=Ask about orders.",
                "herald.max-sessions=1");
        McpClient first = connect(app.mcp())) {
      assertThat(first.serverInfo().name()).isEqualTo("orders");
      assertThat(first.serverInfo().version()).isEqualTo("1.4.0");
      assertThat(first.instructions()).isEqualTo("Ask about orders.");

      assertThatThrownBy(() -> connect(app.mcp()).close())
          .as("a second session is over herald.max-sessions=1")
          .isInstanceOf(Exception.class);
    }
  }

  @Test
  void heraldEnabledFalseServesNothing() throws Exception {
    try (RunningApp app = RunningApp.start(TestApplication.class, "herald.enabled=false")) {
      assertThat(app.context().getBeanNamesForType(dev.herald.server.McpServer.class)).isEmpty();
    }
  }

  @Test
  void aMistakeInAnAnnotatedBeanFailsStartUpNamingTheClassAndMethod() {
    assertThatThrownBy(() -> RunningApp.start(BadToolApplication.class).close())
        .rootCause()
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("BadTools.broken");
  }
}
