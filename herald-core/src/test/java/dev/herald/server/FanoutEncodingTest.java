package dev.herald.server;

import static org.assertj.core.api.Assertions.assertThat;

import dev.herald.wire.CallToolResult;
import dev.herald.wire.JsonRpcMessage;
import dev.herald.wire.LoggingLevel;
import dev.herald.wire.McpMethods;
import dev.herald.wire.Tool;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * A notification fanned out to many sessions is encoded once: every session's transport is handed
 * the same bytes (docs/architecture.md, "Performance we design for"), while each session's gate
 * still decides.
 */
class FanoutEncodingTest {
  private final List<Peers.Peer> peers = new ArrayList<>();

  @AfterEach
  void tearDown() {
    peers.forEach(Peers.Peer::close);
  }

  private McpServer serverWith(int sessions) throws InterruptedException {
    McpServer server =
        McpServer.builder()
            .eventListenerFactory(Counts.PER_SESSION)
            .listChangedDebounce(Duration.ofMillis(1))
            .build();
    for (int i = 0; i < sessions; i++) {
      peers.add(Peers.connect(server));
    }
    return server;
  }

  /** The server-side end of peer i's wire: what the server session sent. */
  private static MemoryTransport serverEnd(Peers.Peer p) {
    return p.wire().peer();
  }

  private void awaitEncoded(int count) throws InterruptedException {
    Peers.awaitTrue(() -> peers.stream().allMatch(p -> serverEnd(p).sentEncoded.size() >= count));
  }

  @Test
  void aListChangeIsEncodedOnceForAllSessions() throws Exception {
    McpServer server = serverWith(3);
    server.addTool(Tool.builder("t").build(), call -> CallToolResult.text("t"));
    awaitEncoded(1);
    byte[] first = serverEnd(peers.get(0)).sentEncoded.get(0);
    assertThat(peers)
        .allSatisfy(p -> assertThat(serverEnd(p).sentEncoded).singleElement().isSameAs(first));
    Peers.awaitTrue(() ->
        peers.stream()
            .allMatch(p ->
                p.wire().received.stream()
                    .anyMatch(m ->
                        m instanceof JsonRpcMessage.Notification n
                            && n.method().equals(McpMethods.TOOLS_LIST_CHANGED))));
  }

  @Test
  void aServerWideLogIsEncodedOnceAndStillGatedPerSession() throws Exception {
    McpServer server = serverWith(3);
    peers.get(2).session().logLevel(LoggingLevel.ERROR); // this one's gate refuses INFO
    server.log(LoggingLevel.INFO, "app", "hello");
    Peers.awaitTrue(() ->
        serverEnd(peers.get(0)).sentEncoded.size() == 1
            && serverEnd(peers.get(1)).sentEncoded.size() == 1);
    assertThat(serverEnd(peers.get(1)).sentEncoded.get(0))
        .isSameAs(serverEnd(peers.get(0)).sentEncoded.get(0));
    assertThat(serverEnd(peers.get(2)).sentEncoded).isEmpty();
    assertThat(Counts.of(peers.get(2).session()).gated()).isPositive();
  }
}
