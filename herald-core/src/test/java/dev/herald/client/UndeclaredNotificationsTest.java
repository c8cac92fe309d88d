package dev.herald.client;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.herald.session.CountingEventListener;
import dev.herald.session.EventListener;
import dev.herald.session.TimeoutException;
import dev.herald.wire.McpMethods;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;
import java.util.function.BooleanSupplier;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * A client acts on a server's notification only when the server declared its capability at
 * {@code initialize} (MCP specification, basic/lifecycle "Capability Negotiation"); and it never
 * cancels {@code initialize} (basic/utilities/cancellation).
 */
@Timeout(20)
class UndeclaredNotificationsTest {
  private static final String ALL =
      "{\"logging\":{},\"tools\":{\"listChanged\":true},\"prompts\":{\"listChanged\":true},"
          + "\"resources\":{\"listChanged\":true,\"subscribe\":true}}";

  private final List<String> seen = new CopyOnWriteArrayList<>();
  private final CountingEventListener events = new CountingEventListener();

  private McpClient connect(ScriptedServer server) throws InterruptedException {
    return McpClient.builder()
        .eventListener(events)
        .onLog(m -> seen.add("log " + m.data()))
        .onListChanged(McpClient.Area.TOOLS, () -> seen.add("tools"))
        .onListChanged(McpClient.Area.PROMPTS, () -> seen.add("prompts"))
        .onListChanged(McpClient.Area.RESOURCES, () -> seen.add("resources"))
        .connect(server.clientEnd());
  }

  private static void sendAll(ScriptedServer server) {
    server.notify(McpMethods.MESSAGE, "{\"level\":\"error\",\"data\":\"hello\"}");
    server.notify(McpMethods.TOOLS_LIST_CHANGED, null);
    server.notify(McpMethods.PROMPTS_LIST_CHANGED, null);
    server.notify(McpMethods.RESOURCES_LIST_CHANGED, null);
    server.notify(McpMethods.RESOURCES_UPDATED, "{\"uri\":\"test://a\"}");
  }

  @Test
  void notificationsOfCapabilitiesTheServerNeverDeclaredAreDroppedAndReported() throws Exception {
    ScriptedServer server = new ScriptedServer("{}");
    try (McpClient client = connect(server)) {
      client.tools();
      client.prompts();
      client.resources();

      sendAll(server);
      await(
          () -> events.dropped(EventListener.DropReason.NOT_DECLARED) == 5,
          "five notifications were dropped");
      client.ping(); // a round trip after the notifications: anything they queued has been queued

      for (EventListener.Family family :
          List.of(
              EventListener.Family.MESSAGE,
              EventListener.Family.TOOLS_LIST_CHANGED,
              EventListener.Family.PROMPTS_LIST_CHANGED,
              EventListener.Family.RESOURCES_LIST_CHANGED,
              EventListener.Family.RESOURCES_UPDATED)) {
        assertThat(events.dropped(family, EventListener.DropReason.NOT_DECLARED))
            .as("%s dropped", family)
            .isEqualTo(1);
      }
      assertThat(seen).as("no listener was told").isEmpty();
      for (McpClient.Area area : McpClient.Area.values()) {
        assertThat(client.stale(area)).as("%s cache kept", area).isFalse();
        assertThat(client.fetchCount(area)).isEqualTo(1);
      }
    }
  }

  @Test
  void theSameNotificationsAreActedOnWhenTheServerDeclaredThem() throws Exception {
    ScriptedServer server = new ScriptedServer(ALL);
    try (McpClient client = connect(server)) {
      client.tools();

      sendAll(server);
      await(() -> seen.size() == 4, "the log and the three list changes reached the listeners");

      assertThat(seen).containsExactly("log \"hello\"", "tools", "prompts", "resources");
      assertThat(client.stale(McpClient.Area.TOOLS)).isTrue();
      assertThat(events.dropped(EventListener.DropReason.NOT_DECLARED)).isZero();
    }
  }

  @Test
  void anInitializeThatIsNeverAnsweredIsNotCancelledTheConnectionIsClosed() throws Exception {
    ScriptedServer server = new ScriptedServer(null);

    assertThatThrownBy(() ->
            McpClient.builder()
                .eras(EraPreference.HANDSHAKE_ONLY) // about initialize: no discover probe first
                .initializeTimeout(Duration.ofMillis(300))
                .connect(server.clientEnd()))
        .isInstanceOf(TimeoutException.class);

    assertThat(server.closed.await(5, TimeUnit.SECONDS)).as("the connection was closed").isTrue();
    assertThat(server.clientEnd().sent())
        .as("the client wrote initialize and nothing else: it is never cancelled")
        .singleElement()
        .asString()
        .contains("\"method\":\"initialize\"");
    assertThat(server.notifications(McpMethods.CANCELLED)).isEmpty();
  }

  private static void await(BooleanSupplier condition, String what) {
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(5);
    while (!condition.getAsBoolean()) {
      if (System.nanoTime() - deadline > 0) {
        throw new AssertionError("timed out waiting until " + what);
      }
      LockSupport.parkNanos(1_000_000);
    }
  }
}
