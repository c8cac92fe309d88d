package dev.herald.http;

import static dev.herald.http.CancelledCallStreamTest.waitUntil;
import static org.assertj.core.api.Assertions.assertThat;

import dev.herald.http.Fixture.Client;
import dev.herald.http.internal.EndpointProbe;
import dev.herald.http.internal.HttpSession;
import dev.herald.http.internal.SinkProbe;
import dev.herald.http.internal.SseSink;
import dev.herald.internal.session.EngineAccess;
import dev.herald.server.McpServer;
import dev.herald.server.ServerSession;
import dev.herald.server.TaskStart;
import dev.herald.testing.Background;
import dev.herald.testing.RawHttpClient;
import dev.herald.wire.CallToolResult;
import dev.herald.wire.McpJson;
import dev.herald.wire.TaskSupport;
import dev.herald.wire.Tool;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.node.ObjectNode;

/**
 * A Streamable HTTP session whose client vanished without closing its connection (it stopped
 * reading) fails its keep-alives and is evicted: its slot comes back, its running request and its
 * session-bound task are cancelled (MCP 2025-11-25 basic/transports, "Session Management").
 */
class KeepAliveEvictionTest {
  private final CountDownLatch holding = new CountDownLatch(1);
  private final CountDownLatch working = new CountDownLatch(1);
  private final CountDownLatch never = new CountDownLatch(1);
  private final AtomicBoolean holdCancelled = new AtomicBoolean();
  private final AtomicBoolean taskCancelled = new AtomicBoolean();
  private final CountDownLatch holdEnded = new CountDownLatch(1);
  private final CountDownLatch taskEnded = new CountDownLatch(1);
  private McpServer mcp;
  private McpHttpServer http;

  @AfterEach
  void stop() {
    never.countDown();
    if (http != null) {
      http.close();
    }
    if (mcp != null) {
      mcp.close();
    }
  }

  @Test
  void aSessionWhoseClientStoppedReadingIsEvictedWithItsWorkAndInitializeSucceedsInItsSlot()
      throws Exception {
    mcp =
        McpServer.builder()
            .tool(
                Tool.builder("hold").description("Runs until cancelled").build(),
                call -> {
                  holding.countDown();
                  try {
                    never.await(30, TimeUnit.SECONDS);
                  } finally {
                    holdCancelled.set(call.context().cancellation().isCancelled());
                    holdEnded.countDown();
                  }
                  return CallToolResult.text("held");
                })
            .tool(
                Tool.builder("job").taskSupport(TaskSupport.OPTIONAL).build(),
                TaskStart.AT_ONCE,
                call -> {
                  working.countDown();
                  try {
                    never.await(30, TimeUnit.SECONDS);
                  } finally {
                    taskCancelled.set(call.context().cancellation().isCancelled());
                    taskEnded.countDown();
                  }
                  return CallToolResult.text("worked");
                })
            .build();
    http =
        McpHttpServer.builder()
            .server(mcp)
            .maxSessions(1)
            .sseKeepAlive(Duration.ofMillis(100))
            .sseKeepAliveFailures(3)
            .streamQueueLimit(100_000, 256L * 1024 * 1024) // stalls, never overflows
            .build()
            .start();
    int port = http.port();
    Client client = new Client(http.uri());
    client.initialize();
    HttpSession session = EndpointProbe.session(http.endpoint, client.session);
    ServerSession mcpSession = EndpointProbe.serverSession(session);

    HttpResponse<Stream<String>> task =
        client.post(
            "{'jsonrpc':'2.0','id':2,'method':'tools/call','params':{'name':'job','arguments':{},"
                + "'task':{'ttl':60000}}}");
    assertThat(RawHttpClient.json(RawHttpClient.body(task)).get("result").has("task")).isTrue();
    assertThat(working.await(10, TimeUnit.SECONDS)).isTrue();
    CompletableFuture<Integer> held =
        Background.supply(() -> {
          try {
            return client.call(3, "hold", null).statusCode();
          } catch (Exception e) {
            throw new IllegalStateException(e);
          }
        });
    assertThat(holding.await(10, TimeUnit.SECONDS)).isTrue();

    try (Socket stalled = new Socket()) {
      stalled.setReceiveBufferSize(4096);
      stalled.connect(new InetSocketAddress("127.0.0.1", port));
      stalled
          .getOutputStream()
          .write(
              ("GET /mcp HTTP/1.1\r\nHost: 127.0.0.1:"
                      + port
                      + "\r\nAccept: text/event-stream\r\nMcp-Session-Id: "
                      + client.session
                      + "\r\nMCP-Protocol-Version: 2025-11-25\r\n\r\n")
                  .getBytes(StandardCharsets.US_ASCII));
      assertThat(
              waitUntil(() -> EndpointProbe.standingSink(session) != null, Duration.ofSeconds(10)))
          .as("the GET is attached")
          .isTrue();
      // The client reads nothing from now on: fill its socket until a write stays outstanding.
      ObjectNode big = McpJson.toObject(Map.of("level", "info", "data", "x".repeat(64 * 1024)));
      long deadline = System.nanoTime() + Duration.ofSeconds(10).toNanos();
      int sent = 0;
      while (sent < 1_000 && System.nanoTime() < deadline && !queuedBehindAWrite(session)) {
        EngineAccess.of(mcpSession).notify("notifications/message", big, null);
        sent++;
      }
      assertThat(queuedBehindAWrite(session))
          .as("the stream stalled after %d events", sent)
          .isTrue();
      // (the eviction may follow within a few hundred milliseconds: no count is read here)

      assertThat(waitUntil(() -> http.sessionCount() == 0, Duration.ofSeconds(10)))
          .as("the session whose client stopped reading was evicted")
          .isTrue();
      assertThat(holdEnded.await(10, TimeUnit.SECONDS)).isTrue();
      assertThat(holdCancelled).as("its running request was cancelled").isTrue();
      assertThat(taskEnded.await(10, TimeUnit.SECONDS)).isTrue();
      assertThat(taskCancelled).as("its session-bound task was cancelled").isTrue();
      assertThat(held.get(10, TimeUnit.SECONDS)).as("the held POST is answered").isEqualTo(404);

      Client next = new Client(http.uri());
      next.initialize(); // 200 in the freed slot (the cap is one session)
      assertThat(http.sessionCount()).isEqualTo(1);
    }
  }

  private static boolean queuedBehindAWrite(HttpSession session) {
    SseSink sink = EndpointProbe.standingSink(session);
    return sink != null && SinkProbe.writePending(sink) && sink.queuedBytes() > 0;
  }
}
