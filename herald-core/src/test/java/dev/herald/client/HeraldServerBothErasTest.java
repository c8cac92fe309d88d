package dev.herald.client;

import static org.assertj.core.api.Assertions.assertThat;

import dev.herald.server.McpServer;
import dev.herald.server.ResourceHandler;
import dev.herald.server.ServedEras;
import dev.herald.testing.Eventually;
import dev.herald.transport.InMemoryTransport;
import dev.herald.wire.CallToolResult;
import dev.herald.wire.ElicitParams;
import dev.herald.wire.ElicitResult;
import dev.herald.wire.McpJson;
import dev.herald.wire.ProtocolVersion;
import dev.herald.wire.Resource;
import dev.herald.wire.SubscriptionFilter;
import dev.herald.wire.Tool;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * Herald's client against Herald's server over an in-memory pair, in both eras: a client set to
 * "latest" speaks 2026-07-28 with a dual-era or modern-only server and falls back to the handshake
 * with a handshake-only one; the same calls work either way.
 */
@Timeout(30)
class HeraldServerBothErasTest {
  private final List<AutoCloseable> open = new CopyOnWriteArrayList<>();

  @AfterEach
  void close() throws Exception {
    for (AutoCloseable c : open) {
      c.close();
    }
  }

  private static McpServer.Builder server() {
    return McpServer.builder()
        .tool(
            Tool.builder("echo").build(),
            call -> CallToolResult.text("echo " + call.string("x", "?")))
        .tool(
            Tool.builder("ask").build(),
            call -> {
              ElicitResult r =
                  call.context()
                      .elicit(
                          ElicitParams.form(
                              "name?",
                              (tools.jackson.databind.node.ObjectNode)
                                  McpJson.mapper()
                                      .readTree(
                                          "{\"type\":\"object\",\"properties\":{\"name\":{\"type\":\"string\"}}}")));
              return CallToolResult.text("hello " + r.content().get("name").stringValue());
            });
  }

  private McpClient connect(McpServer server, McpClient.Builder client)
      throws InterruptedException {
    InMemoryTransport.Pair pair = InMemoryTransport.pair();
    server.connect(pair.server());
    McpClient c = client.connect(pair.client());
    open.add(c);
    return c;
  }

  private static McpClient.Builder client() {
    return McpClient.builder()
        .info("both-eras", "1")
        .elicitation((p, ctx) -> ElicitResult.accept(McpJson.object().put("name", "Ada")));
  }

  @Test
  void aLatestClientSpeaks2026WithADualEraServer() throws Exception {
    McpClient c = connect(server().build(), client());
    assertThat(c.era()).isEqualTo(ProtocolVersion.Era.MODERN);
    assertThat(c.discoverResult()).isPresent();
    assertThat(c.discoverResult().get().supportedVersions()).contains("2026-07-28");
    assertThat(c.tools()).extracting(Tool::name).contains("echo", "ask");
    assertThat(c.callTool("echo", McpJson.object().put("x", "hi")).firstText())
        .isEqualTo("echo hi");
  }

  @Test
  void aClientPinnedToTheHandshakeStillSpeaksItWithADualEraServer() throws Exception {
    McpClient c = connect(server().build(), client().eras(EraPreference.HANDSHAKE_ONLY));
    assertThat(c.era()).isEqualTo(ProtocolVersion.Era.LEGACY);
    assertThat(c.callTool("echo", McpJson.object().put("x", "hi")).firstText())
        .isEqualTo("echo hi");
    assertThat(c.callTool("ask", null).firstText()).as("a reverse call").isEqualTo("hello Ada");
  }

  @Test
  void aLatestClientSpeaks2026WithAModernOnlyServer() throws Exception {
    McpClient c = connect(server().eras(ServedEras.MODERN_ONLY).build(), client());
    assertThat(c.era()).isEqualTo(ProtocolVersion.Era.MODERN);
    assertThat(c.callTool("echo", McpJson.object().put("x", "yo")).firstText())
        .isEqualTo("echo yo");
  }

  @Test
  void aLatestClientFallsBackToTheHandshakeWithAHandshakeOnlyServer() throws Exception {
    McpClient c = connect(server().eras(ServedEras.HANDSHAKE_ONLY).build(), client());
    assertThat(c.era()).isEqualTo(ProtocolVersion.Era.LEGACY);
    assertThat(c.callTool("echo", McpJson.object().put("x", "hi")).firstText())
        .isEqualTo("echo hi");
  }

  @Test
  void aToolThatAsksForInputIsAnsweredByTheSameHandlerInThe2026Era() throws Exception {
    McpClient c = connect(server().build(), client());
    assertThat(c.era()).isEqualTo(ProtocolVersion.Era.MODERN);
    assertThat(c.callTool("ask", null).firstText()).isEqualTo("hello Ada");
  }

  @Test
  void aListenOnA2026ServerDeliversToolListChanges() throws Exception {
    McpServer server = server().build();
    McpClient c = connect(server, client());
    List<McpClient.Area> changed = new CopyOnWriteArrayList<>();
    Subscription s =
        c.listen(
            new SubscriptionFilter(true, null, null, null, null),
            new SubscriptionListener() {
              @Override
              public void listChanged(McpClient.Area area) {
                changed.add(area);
              }
            });
    open.add(s);
    assertThat(s.honoured().get(5, TimeUnit.SECONDS).wantsToolsListChanged()).isTrue();
    c.tools();
    server.addTool(Tool.builder("late").build(), call -> CallToolResult.text("late"));
    Eventually.eventually(() -> changed.contains(McpClient.Area.TOOLS), "the change arrived");
    assertThat(c.tools()).extracting(Tool::name).contains("late");
  }

  @Test
  void aResourceSubscriptionOnA2026ServerIsInEffectWhenSubscribeReturns() throws Exception {
    McpServer server =
        server()
            .resource(
                Resource.of("demo://counter", "counter", "text/plain"),
                ResourceHandler.text("text/plain", () -> "1"))
            .build();
    McpClient c = connect(server, client());
    assertThat(c.era()).isEqualTo(ProtocolVersion.Era.MODERN);
    List<String> updated = new CopyOnWriteArrayList<>();
    try (ResourceSubscription s = c.subscribe("demo://counter", u -> updated.add(u.uri()))) {
      // No wait: the listen behind the subscription was acknowledged before subscribe returned.
      server.notifyResourceUpdated("demo://counter");
      Eventually.eventually(() -> !updated.isEmpty(), "the update arrived");
      assertThat(updated).containsExactly("demo://counter");
    }
  }
}
