package dev.herald.server;

import static dev.herald.server.Peers.awaitTrue;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.herald.client.McpClient;
import dev.herald.client.ToolCallHandle;
import dev.herald.internal.session.RecordingEventListener;
import dev.herald.internal.session.SessionEngine;
import dev.herald.session.CallOptions;
import dev.herald.session.CancelledException;
import dev.herald.session.EventListener;
import dev.herald.transport.Transport;
import dev.herald.transport.TransportException;
import dev.herald.wire.CallToolResult;
import dev.herald.wire.EncodedMessage;
import dev.herald.wire.GetPromptResult;
import dev.herald.wire.JsonRpcMessage;
import dev.herald.wire.LoggingLevel;
import dev.herald.wire.McpJson;
import dev.herald.wire.McpMethods;
import dev.herald.wire.Prompt;
import dev.herald.wire.RequestId;
import dev.herald.wire.Resource;
import dev.herald.wire.Root;
import dev.herald.wire.Tool;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * What an {@link McpServer}'s sessions and an {@link McpClient} report to their {@link
 * EventListener}s: a real server and a real client over the in-memory transport, time driven by
 * hand. Every notification family Herald sends is seen sent, and every gate and drop is seen with
 * its reason.
 */
@Timeout(30)
class ServerEventsTest {
  private final ManualScheduler clock = new ManualScheduler();
  private final List<AutoCloseable> open = new ArrayList<>();

  @AfterEach
  void closeAll() throws Exception {
    for (AutoCloseable c : open) {
      c.close();
    }
  }

  private McpServer.Builder server() {
    return McpServer.builder()
        .scheduler(clock)
        .ticker(clock)
        .progressInterval(Duration.ZERO)
        .eventListenerFactory(role -> new RecordingEventListener())
        .resource(
            Resource.of("test://r", "r", "text/plain"),
            ResourceHandler.text("text/plain", () -> "r"))
        .prompt(Prompt.of("p", "A prompt", List.of()), get -> GetPromptResult.of(null, List.of()));
  }

  private static RecordingEventListener events(ServerSession session) {
    return (RecordingEventListener) session.eventListener();
  }

  /** A client connected to {@code server} over {@code serverEnd}, and its session once operating. */
  private ServerSession connect(
      McpServer server, McpClient.Builder client, Transport serverEnd, MemoryTransport clientEnd)
      throws InterruptedException {
    ServerSession session = server.connect(serverEnd);
    McpClient c =
        client
            .eras(dev.herald.client.EraPreference.HANDSHAKE_ONLY)
            .connect(clientEnd); // a handshake-era session
    open.add(c);
    awaitTrue(() -> session.state() == ServerSession.State.OPERATING);
    return session;
  }

  @Test
  void everyNotificationFamilyTheServerAndTheClientSendIsReportedSent() throws Exception {
    CountDownLatch running = new CountDownLatch(1);
    List<EventListener.Role> roles = new CopyOnWriteArrayList<>();
    McpServer server =
        server()
            .tool(
                Tool.builder("work").build(),
                call -> {
                  call.context().log(LoggingLevel.INFO, "working");
                  call.context().progress().report(1);
                  return CallToolResult.text("done");
                })
            .tool(
                Tool.builder("block").build(),
                call -> {
                  running.countDown();
                  new CountDownLatch(1).await(10, TimeUnit.SECONDS); // until cancelled
                  return CallToolResult.text("never");
                })
            .eventListenerFactory(role -> {
              roles.add(role);
              return new RecordingEventListener();
            })
            .build();
    RecordingEventListener clientEvents = new RecordingEventListener();
    MemoryTransport[] wire = MemoryTransport.pair();
    ServerSession session = server.connect(wire[1]);
    McpClient client =
        McpClient.builder()
            .eras(dev.herald.client.EraPreference.HANDSHAKE_ONLY)
            .roots(List.of(Root.of("file:///a", "a")))
            .eventListenerFactory(role -> {
              roles.add(role);
              return clientEvents;
            })
            .connect(wire[0]);
    awaitTrue(() -> session.state() == ServerSession.State.OPERATING);
    RecordingEventListener serverEvents = events(session);

    client.subscribe("test://r", update -> {});
    client.callTool("work", null, CallOptions.builder().progress(update -> {}).build());
    server.addTool(Tool.builder("added").build(), call -> CallToolResult.text("added"));
    server
        .resources()
        .add(
            Resource.of("test://added", "added", null),
            ResourceHandler.text("text/plain", () -> "a"));
    server
        .prompts()
        .add(Prompt.of("added", "Added", List.of()), get -> GetPromptResult.of(null, List.of()));
    clock.advance(Duration.ofMillis(10));
    assertThat(server.notifyResourceUpdated("test://r")).isEqualTo(1);
    client.setRoots(List.of(Root.of("file:///b", "b")));
    ToolCallHandle blocked = client.callToolAsync("block", null, CallOptions.defaults());
    assertThat(running.await(10, TimeUnit.SECONDS)).isTrue();
    blocked.cancel("test cancels");
    assertThatThrownBy(blocked::await).isInstanceOf(CancelledException.class);
    serverEvents.awaitEvent("requestEnded tools/call CANCELLED");
    client.close();
    serverEvents.awaitEvent("sessionClosed");

    assertThat(roles).containsExactly(EventListener.Role.SERVER, EventListener.Role.CLIENT);
    assertThat(serverEvents.events("sent"))
        .containsExactly(
            "sent MESSAGE",
            "sent PROGRESS",
            "sent TOOLS_LIST_CHANGED",
            "sent RESOURCES_LIST_CHANGED",
            "sent PROMPTS_LIST_CHANGED",
            "sent RESOURCES_UPDATED");
    assertThat(clientEvents.events("sent"))
        .containsExactly("sent INITIALIZED", "sent ROOTS_LIST_CHANGED", "sent CANCELLED");
    assertThat(clientEvents.events("progress")).containsExactly("progressAccepted");
    assertThat(serverEvents.events())
        .startsWith("sessionOpened", "requestStarted initialize", "requestEnded initialize OK")
        .endsWith("sessionClosed");
    assertThat(serverEvents.events("requestEnded"))
        .containsExactly(
            "requestEnded initialize OK",
            "requestEnded resources/subscribe OK",
            "requestEnded tools/call OK",
            "requestEnded tools/call CANCELLED");
  }

  @Test
  void aNotificationThePeerMayNotReceiveNowIsGatedWithTheGateThatWasClosed() throws Exception {
    McpServer server = server().toolsListChanged(false).build();
    MemoryTransport[] wire = MemoryTransport.pair();
    ServerSession operating = connect(server, McpClient.builder(), wire[1], wire[0]);
    MemoryTransport[] raw =
        MemoryTransport.pair(); // a peer that never sends notifications/initialized
    ServerSession initializing = server.connect(raw[1]);
    SessionEngine rawClient =
        SessionEngine.builder()
            .name("raw")
            .transport(raw[0])
            .requests(call -> McpJson.object())
            .build();
    rawClient.start();
    open.add(rawClient::close);
    rawClient
        .request(
            McpMethods.INITIALIZE,
            Json.parse(
                "{'protocolVersion':'2025-11-25','capabilities':{},'clientInfo':{'name':'raw','version':'1'}}"))
        .result()
        .get(10, TimeUnit.SECONDS);

    server.addTool(Tool.builder("added").build(), call -> CallToolResult.text("added"));
    clock.advance(Duration.ofMillis(10));
    operating.log(LoggingLevel.DEBUG, null, "below the default level");
    assertThat(operating.resourceUpdated("test://r")).as("not subscribed").isFalse();

    assertThat(events(operating).events("gated"))
        .containsExactly(
            "gated TOOLS_LIST_CHANGED NOT_DECLARED",
            "gated MESSAGE BELOW_LEVEL",
            "gated RESOURCES_UPDATED NOT_SUBSCRIBED");
    assertThat(events(initializing).events("gated"))
        .containsExactly("gated TOOLS_LIST_CHANGED NOT_OPERATING");
    assertThat(events(operating).events("sent")).isEmpty();
  }

  @Test
  void aNotificationOverTheRateLimitOrOnAClosingSessionIsDroppedWithItsReason() throws Exception {
    McpServer server = server().logRateLimit(1, 1).build();
    MemoryTransport[] wire = MemoryTransport.pair();
    FailingSends serverEnd = new FailingSends(wire[1]);
    ServerSession session = connect(server, McpClient.builder(), serverEnd, wire[0]);

    session.log(LoggingLevel.INFO, null, "first");
    session.log(
        LoggingLevel.INFO, null, "over the limit"); // the manual clock never refills the bucket
    serverEnd.failing = true;
    server.addTool(Tool.builder("added").build(), call -> CallToolResult.text("added"));
    clock.advance(Duration.ofMillis(10));

    assertThat(events(session).events("dropped"))
        .containsExactly(
            "dropped MESSAGE RATE_LIMITED", "dropped TOOLS_LIST_CHANGED SESSION_CLOSED");
    assertThat(events(session).events("sent")).containsExactly("sent MESSAGE");
  }

  @Test
  void withoutAListenerAGatedNotificationAllocatesNothing() throws Exception {
    McpServer server =
        McpServer.builder()
            .scheduler(clock)
            .ticker(clock)
            .build(); // no factory: EventListener.NONE
    MemoryTransport[] wire = MemoryTransport.pair();
    ServerSession session = connect(server, McpClient.builder(), wire[1], wire[0]);
    assertThat(session.eventListener()).isSameAs(EventListener.NONE);
    // java.management is reached reflectively: this module does not read it
    Object threads =
        Class.forName("java.lang.management.ManagementFactory")
            .getMethod("getThreadMXBean")
            .invoke(null);
    java.lang.reflect.Method allocatedBytes =
        Class.forName("com.sun.management.ThreadMXBean")
            .getMethod("getCurrentThreadAllocatedBytes");
    String data = "below the level";
    for (int i = 0; i < 10_000; i++) {
      session.log(LoggingLevel.DEBUG, null, data); // warm up
    }

    long before = (long) allocatedBytes.invoke(threads);
    for (int i = 0; i < 100_000; i++) {
      session.log(LoggingLevel.DEBUG, null, data);
    }
    long allocated = (long) allocatedBytes.invoke(threads) - before;

    assertThat(allocated).as("bytes allocated by 100,000 gated logs").isLessThan(100_000);
  }

  /** Passes everything through until {@link #failing} is set; then every send fails. */
  private static final class FailingSends implements Transport {
    private final Transport delegate;
    volatile boolean failing;

    FailingSends(Transport delegate) {
      this.delegate = delegate;
    }

    @Override
    public void start(Receiver receiver) {
      delegate.start(receiver);
    }

    @Override
    public void send(JsonRpcMessage message, @Nullable RequestId relatedTo) {
      if (failing) {
        throw new TransportException("connection lost");
      }
      delegate.send(message, relatedTo);
    }

    @Override
    public void send(EncodedMessage encoded, @Nullable RequestId relatedTo) {
      if (failing) {
        throw new TransportException("connection lost");
      }
      delegate.send(encoded, relatedTo);
    }

    @Override
    public void close() {
      delegate.close();
    }
  }
}
