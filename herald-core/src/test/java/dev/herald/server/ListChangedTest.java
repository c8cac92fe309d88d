package dev.herald.server;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.herald.client.McpClient;
import dev.herald.wire.CallToolResult;
import dev.herald.wire.ErrorCodes;
import dev.herald.wire.McpException;
import dev.herald.wire.McpMethods;
import dev.herald.wire.Tool;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

class ListChangedTest {
  private static final String CHANGED = McpMethods.TOOLS_LIST_CHANGED;

  private final ManualScheduler clock = new ManualScheduler();
  private final List<AutoCloseable> open = new ArrayList<>();
  private final List<Semaphore> received = new ArrayList<>();

  @AfterEach
  void tearDown() throws Exception {
    for (AutoCloseable c : open) {
      c.close();
    }
  }

  private McpServer.Builder server() {
    return McpServer.builder()
        .eventListenerFactory(Counts.PER_SESSION)
        .scheduler(clock)
        .ticker(clock)
        .tool(Tool.builder("base").build(), call -> CallToolResult.text("base"));
  }

  /** Connects {@code n} clients; client i's list-change deliveries are counted in received.get(i). */
  private List<PipeLink> clients(McpServer server, int n) throws InterruptedException {
    List<PipeLink> links = new ArrayList<>();
    for (int i = 0; i < n; i++) {
      Semaphore s = new Semaphore(0);
      received.add(s);
      PipeLink link = PipeLink.connect(server, McpClient.builder().onToolsListChanged(s::release));
      open.add(link);
      links.add(link);
    }
    return links;
  }

  private static void tool(McpServer server, String name) {
    server.addTool(Tool.builder(name).build(), call -> CallToolResult.text(name));
  }

  private void awaitDelivered(int client, int count) throws InterruptedException {
    assertThat(received.get(client).tryAcquire(count, 5, TimeUnit.SECONDS))
        .as("client %d received %d list change(s)", client, count)
        .isTrue();
  }

  @Test
  void aSingleChangeIsSentAtOnceWithoutWaitingForTheWindow() throws Exception {
    McpServer server = server().build();
    List<PipeLink> links = clients(server, 3);

    tool(server, "a"); // no time passes on the clock

    assertThat(links).allSatisfy(l -> assertThat(l.sentCount(CHANGED)).isEqualTo(1));
    for (int i = 0; i < 3; i++) {
      awaitDelivered(i, 1);
      assertThat(links.get(i).client.listTools())
          .extracting(Tool::name)
          .containsExactly("a", "base");
    }
    clock.advance(Duration.ofMillis(10)); // the window closes with nothing more to say
    assertThat(links).allSatisfy(l -> assertThat(l.sentCount(CHANGED)).isEqualTo(1));
    assertThat(clock.pending()).isZero();
  }

  @Test
  void aBurstOfChangesGivesEachOperatingSessionTheLeadingAndOneTrailingNotification()
      throws Exception {
    McpServer server = server().build();
    List<PipeLink> links = clients(server, 3);
    PipeLink.RawPeer initializing = PipeLink.initializingOnly(server);
    open.add(initializing);

    tool(server, "a");
    assertThat(links).allSatisfy(l -> assertThat(l.sentCount(CHANGED)).isEqualTo(1));
    tool(server, "b");
    server.removeTool("a");
    tool(server, "b"); // replace
    clock.advance(Duration.ofMillis(9));
    assertThat(links).allSatisfy(l -> assertThat(l.sentCount(CHANGED)).isEqualTo(1));

    clock.advance(Duration.ofMillis(1));
    assertThat(links).allSatisfy(l -> assertThat(l.sentCount(CHANGED)).isEqualTo(2));
    assertThat(initializing.sent().count(CHANGED)).isZero();
    assertThat(Counts.of(initializing.session()).gated()).isEqualTo(2);
    for (int i = 0; i < 3; i++) {
      awaitDelivered(i, 2);
      assertThat(links.get(i).client.listTools())
          .extracting(Tool::name)
          .containsExactly("b", "base");
    }

    tool(server, "c"); // inside the window the trailing notification opened
    clock.advance(Duration.ofMillis(10));
    assertThat(links).allSatisfy(l -> assertThat(l.sentCount(CHANGED)).isEqualTo(3));
    for (int i = 0; i < 3; i++) {
      awaitDelivered(i, 1);
    }
    clock.advance(Duration.ofMillis(10));
    assertThat(links).allSatisfy(l -> assertThat(l.sentCount(CHANGED)).isEqualTo(3));
    assertThat(clock.pending()).isZero();
    initializing.engine().request(McpMethods.PING, null).result().get(5, TimeUnit.SECONDS);
    assertThat(initializing.listChanged()).hasValue(0);
  }

  @Test
  void aBurstOfAThousandChangesGivesEachSessionAtMostTwoNotificationsAndTheLastStateAfterThem()
      throws Exception {
    McpServer server = server().build();
    List<PipeLink> links = clients(server, 3);

    for (int i = 0; i < 1000; i++) {
      tool(server, "t" + i);
    }
    assertThat(links).allSatisfy(l -> assertThat(l.sentCount(CHANGED)).isEqualTo(1));
    clock.advance(Duration.ofMillis(10));
    clock.advance(Duration.ofMillis(10));

    assertThat(links).allSatisfy(l -> assertThat(l.sentCount(CHANGED)).isEqualTo(2));
    assertThat(clock.pending()).isZero();
    for (int i = 0; i < 3; i++) {
      awaitDelivered(i, 2);
      List<String> names = new ArrayList<>();
      for (Tool t : links.get(i).client.listTools()) {
        names.add(t.name());
      }
      assertThat(names).hasSize(1001).contains("t0", "t999", "base");
    }
  }

  @Test
  void aChangeAfterAQuietWindowIsSentAtOnceAgain() throws Exception {
    McpServer server = server().build();
    List<PipeLink> links = clients(server, 2);

    tool(server, "a");
    clock.advance(Duration.ofMillis(10)); // the window closes quiet
    assertThat(links).allSatisfy(l -> assertThat(l.sentCount(CHANGED)).isEqualTo(1));

    tool(server, "b"); // no time passes on the clock
    assertThat(links).allSatisfy(l -> assertThat(l.sentCount(CHANGED)).isEqualTo(2));
    for (int i = 0; i < 2; i++) {
      awaitDelivered(i, 2);
      assertThat(links.get(i).client.listTools())
          .extracting(Tool::name)
          .containsExactly("a", "b", "base");
    }
  }

  @Test
  void noSessionIsToldWhenTheServerDidNotDeclareToolsListChanged() throws Exception {
    McpServer server = server().toolsListChanged(false).build();
    List<PipeLink> links = clients(server, 3);

    tool(server, "a");
    links.get(0).session.addTool(Tool.builder("mine").build(), call -> CallToolResult.text("mine"));
    clock.advance(Duration.ofMillis(50));

    assertThat(links.get(0).client.serverCapabilities().toolsListChanged()).isFalse();
    assertThat(links).allSatisfy(l -> assertThat(l.sentCount(CHANGED)).isZero());
    // the server-wide change is held back once per session; the session's own change once more
    assertThat(Counts.of(links.get(0).session).gated()).isEqualTo(2);
    assertThat(Counts.of(links.get(1).session).gated()).isEqualTo(1);
    assertThat(Counts.of(links.get(2).session).gated()).isEqualTo(1);
    assertThat(links.get(1).client.listTools()).extracting(Tool::name).containsExactly("a", "base");
  }

  @Test
  void aSessionLocalToolIsSeenAndAnnouncedOnlyInItsOwnSession() throws Exception {
    McpServer server = server().build();
    List<PipeLink> links = clients(server, 3);
    PipeLink mine = links.get(0);

    mine.session.addTool(Tool.builder("mine").build(), call -> CallToolResult.text("only mine"));
    assertThat(mine.sentCount(CHANGED)).isEqualTo(1); // at once
    mine.session.addTool(Tool.builder("base").build(), call -> CallToolResult.text("shadowed"));
    clock.advance(Duration.ofMillis(10));

    assertThat(mine.sentCount(CHANGED)).isEqualTo(2);
    assertThat(links.get(1).sentCount(CHANGED)).isZero();
    assertThat(links.get(2).sentCount(CHANGED)).isZero();
    assertThat(mine.client.listTools()).extracting(Tool::name).containsExactly("base", "mine");
    assertThat(mine.client.callTool("mine", null).firstText()).isEqualTo("only mine");
    assertThat(mine.client.callTool("base", null).firstText()).isEqualTo("shadowed");
    assertThat(links.get(1).client.listTools()).extracting(Tool::name).containsExactly("base");
    assertThat(links.get(1).client.callTool("base", null).firstText()).isEqualTo("base");
    assertThatThrownBy(() -> links.get(1).client.callTool("mine", null))
        .isInstanceOfSatisfying(
            McpException.class, e -> assertThat(e.code()).isEqualTo(ErrorCodes.INVALID_PARAMS));

    assertThat(mine.session.removeTool("base")).isTrue();
    clock.advance(Duration.ofMillis(10));
    assertThat(mine.sentCount(CHANGED)).isEqualTo(3);
    assertThat(links.get(1).sentCount(CHANGED)).isZero();
    assertThat(links.get(2).sentCount(CHANGED)).isZero();
    assertThat(mine.client.callTool("base", null).firstText()).isEqualTo("base");
    awaitDelivered(0, 3);
  }

  @Test
  void serverAndSessionChangesInOneBurstGiveEachSessionAtMostTwoNotifications() throws Exception {
    McpServer server = server().build();
    List<PipeLink> links = clients(server, 3);

    links
        .get(1)
        .session
        .addTool(Tool.builder("local").build(), call -> CallToolResult.text("local"));
    tool(server, "shared");
    links
        .get(2)
        .session
        .addTool(Tool.builder("local").build(), call -> CallToolResult.text("local"));
    tool(server, "shared2");
    // the first change (session 1's own) went out at once, to session 1 only
    assertThat(links.get(0).sentCount(CHANGED)).isZero();
    assertThat(links.get(1).sentCount(CHANGED)).isEqualTo(1);
    assertThat(links.get(2).sentCount(CHANGED)).isZero();
    clock.advance(Duration.ofMillis(10));
    clock.advance(Duration.ofMillis(10));

    // the rest of the burst: one more each, whichever layer changed
    assertThat(links.get(0).sentCount(CHANGED)).isEqualTo(1);
    assertThat(links.get(1).sentCount(CHANGED)).isEqualTo(2);
    assertThat(links.get(2).sentCount(CHANGED)).isEqualTo(1);
    assertThat(clock.pending()).isZero();
  }

  @Test
  void aClosedSessionIsNoLongerWrittenTo() throws Exception {
    McpServer server = server().build();
    List<PipeLink> links = clients(server, 3);
    links.get(2).close();
    links.get(2).session.engine().closed().get(5, TimeUnit.SECONDS);

    tool(server, "a");
    clock.advance(Duration.ofMillis(10));

    assertThat(links.get(0).sentCount(CHANGED)).isEqualTo(1);
    assertThat(links.get(1).sentCount(CHANGED)).isEqualTo(1);
    assertThat(links.get(2).sentCount(CHANGED)).isZero();
    assertThat(server.sessions()).hasSize(2);
  }
}
