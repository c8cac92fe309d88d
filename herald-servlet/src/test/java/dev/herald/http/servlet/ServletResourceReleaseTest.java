package dev.herald.http.servlet;

import static org.assertj.core.api.Assertions.assertThat;

import dev.herald.http.servlet.ServletFixture.Client;
import dev.herald.server.McpServer;
import dev.herald.testing.RawHttpClient;
import dev.herald.testing.SseReader;
import dev.herald.testing.SseReader.Event;
import dev.herald.wire.CallToolResult;
import dev.herald.wire.Tool;
import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.net.Socket;
import java.net.URI;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;
import java.util.stream.Stream;
import org.eclipse.jetty.ee10.servlet.ServletContextHandler;
import org.eclipse.jetty.ee10.servlet.ServletHolder;
import org.eclipse.jetty.server.Server;
import org.eclipse.jetty.server.ServerConnector;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The servlet adapter gives back what a cancelled call and an abandoned legacy stream hold, as
 * the Jetty server does: it shares their machinery.
 */
class ServletResourceReleaseTest {
  private static final int CAP = 3;
  private final CountDownLatch never = new CountDownLatch(1);
  private McpServlet servlet;
  private Server jetty;
  private int port;

  @BeforeEach
  void start() throws Exception {
    McpServer mcp =
        McpServer.builder()
            .progressInterval(Duration.ZERO)
            .tool(
                Tool.builder("quiet").description("Answers at once").build(),
                call -> CallToolResult.text("ok"))
            .tool(
                Tool.builder("slow")
                    .description("Reports progress, then waits to be cancelled")
                    .build(),
                call -> {
                  call.context().progress().report(1, null, null);
                  never.await(60, TimeUnit.SECONDS);
                  return CallToolResult.text("late");
                })
            .build();
    servlet =
        McpServlet.builder()
            .server(mcp)
            .maxSessions(CAP)
            .sseKeepAlive(Duration.ofMillis(100))
            .build();
    jetty = new Server();
    ServerConnector connector = new ServerConnector(jetty, 1, 1);
    connector.setHost("127.0.0.1");
    connector.setPort(0);
    jetty.addConnector(connector);
    ServletContextHandler context = new ServletContextHandler("/app");
    ServletHolder holder = new ServletHolder("mcp", servlet);
    holder.setAsyncSupported(true);
    context.addServlet(holder, "/mcp/*");
    jetty.setHandler(context);
    jetty.start();
    port = connector.getLocalPort();
  }

  @AfterEach
  void stop() throws Exception {
    never.countDown();
    jetty.stop();
  }

  @Test
  void aCancelledCallsStreamEndsAndItsIdCanBeReused() throws Exception {
    Client client = new Client(URI.create("http://127.0.0.1:" + port + "/app/mcp"));
    client.initialize();
    HttpResponse<Stream<String>> call = client.call(5, "slow", "p5");
    assertThat(call.statusCode()).isEqualTo(200);
    try (SseReader stream = new SseReader(call.body())) {
      Event e = stream.event();
      if (e.priming()) {
        e = stream.event();
      }
      assertThat(RawHttpClient.describe(e.json())).isEqualTo("progress p5 1");
      HttpResponse<Stream<String>> cancel =
          client.post(
              "{'jsonrpc':'2.0','method':'notifications/cancelled','params':{'requestId':5}}");
      RawHttpClient.body(cancel);
      assertThat(cancel.statusCode()).isEqualTo(202);
      assertThat(stream.next(Duration.ofSeconds(5)))
          .as("the cancelled call's stream ends")
          .isNull();
    }
    assertThat(
            RawHttpClient.describe(
                RawHttpClient.json(RawHttpClient.body(client.call(5, "quiet", null)))))
        .isEqualTo("result 5 ok");
  }

  @Test
  void abandonedLegacyStreamsAreReapedSoInitializeStillSucceeds() throws Exception {
    for (int round = 0; round < 3; round++) {
      List<Socket> streams = new ArrayList<>();
      for (int i = 0; i < CAP; i++) {
        Socket s = new Socket("127.0.0.1", port);
        s.setSoTimeout(10_000);
        s.getOutputStream()
            .write(
                ("GET /app/mcp/sse HTTP/1.1\r\nHost: 127.0.0.1:"
                        + port
                        + "\r\nAccept: text/event-stream\r\nConnection: close\r\n\r\n")
                    .getBytes(StandardCharsets.US_ASCII));
        s.getOutputStream().flush();
        BufferedReader in =
            new BufferedReader(
                new InputStreamReader(s.getInputStream(), StandardCharsets.US_ASCII));
        assertThat(in.readLine()).startsWith("HTTP/1.1 200");
        for (String line; (line = in.readLine()) != null && !line.equals("event: endpoint"); ) {
          // headers, chunk size
        }
        streams.add(s);
      }
      assertThat(servlet.sessionCount()).isEqualTo(CAP);
      for (Socket s : streams) {
        s.setSoLinger(true, 0);
        s.close();
      }
      assertThat(waitUntil(() -> servlet.sessionCount() == 0, Duration.ofSeconds(10)))
          .as("round %d: abandoned legacy sessions ended (%d left)", round, servlet.sessionCount())
          .isTrue();
    }
    Client client = new Client(URI.create("http://127.0.0.1:" + port + "/app/mcp"));
    assertThat(client.initializeResponse().statusCode()).isEqualTo(200);
  }

  private static boolean waitUntil(BooleanSupplier condition, Duration timeout)
      throws InterruptedException {
    long deadline = System.nanoTime() + timeout.toNanos();
    while (!condition.getAsBoolean()) {
      if (System.nanoTime() - deadline > 0) {
        return false;
      }
      Thread.sleep(5); // polling a condition, bounded by the deadline
    }
    return true;
  }
}
