package dev.herald.http;

import static dev.herald.http.CancelledCallStreamTest.openDescriptors;
import static dev.herald.http.CancelledCallStreamTest.waitUntil;
import static org.assertj.core.api.Assertions.assertThat;

import dev.herald.http.Fixture.Client;
import dev.herald.http.internal.StreamProbe;
import dev.herald.server.McpServer;
import dev.herald.wire.CallToolResult;
import dev.herald.wire.Tool;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.net.Socket;
import java.net.URI;
import java.net.http.HttpRequest;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.function.UnaryOperator;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * Sessions of the 2024-11-05 HTTP+SSE transport end when their stream's client goes away or when
 * they stay idle, so abandoned streams never fill the session cap (spec 2024-11-05
 * basic/transports; 2025-11-25 basic/transports, "Backwards Compatibility").
 */
class LegacySessionReapingTest {
  private static final int CAP = 4;
  private McpHttpServer http;

  private void start(UnaryOperator<McpHttpServer.Builder> settings) {
    McpServer mcp =
        McpServer.builder()
            .tool(
                Tool.builder("quiet").description("Answers at once").build(),
                call -> CallToolResult.text("ok"))
            .build();
    http = settings.apply(McpHttpServer.builder().server(mcp).maxSessions(CAP)).build().start();
  }

  @AfterEach
  void stop() {
    if (http != null) {
      http.close();
    }
  }

  @Test
  void abandonedLegacyStreamsAreReapedSoInitializeStillSucceedsAfterMoreThanTheCap()
      throws Exception {
    start(b -> b.sseKeepAlive(Duration.ofMillis(100)));
    boolean procFs = Files.isDirectory(Path.of("/proc/self/fd"));
    long fdsBefore = procFs ? openDescriptors() : 0;
    long heapBefore = CancelledCallStreamTest.heapAfterGc();
    int rounds =
        Integer.getInteger("herald.test.abandonedLegacyRounds", 3); // -D... for a longer run
    for (int round = 0; round < rounds; round++) {
      List<Socket> streams = new ArrayList<>();
      for (int i = 0; i < CAP; i++) {
        Socket s = openLegacyStream();
        endpointOf(s);
        streams.add(s);
      }
      assertThat(http.sessionCount()).isEqualTo(CAP);
      for (Socket s : streams) {
        s.setSoLinger(true, 0); // abrupt: a reset, no orderly close
        s.close();
      }
      assertThat(waitUntil(() -> http.sessionCount() == 0, Duration.ofSeconds(10)))
          .as("round %d: abandoned legacy sessions ended (%d left)", round, http.sessionCount())
          .isTrue();
    }
    if (procFs) {
      assertThat(waitUntil(() -> openDescriptors() <= fdsBefore + 4, Duration.ofSeconds(10)))
          .as("descriptors %d -> %d", fdsBefore, openDescriptors())
          .isTrue();
    }
    System.out.printf(
        "abandoned legacy streams: %d; descriptors %d -> %d; heap after GC %d KiB -> %d KiB%n",
        rounds * CAP,
        fdsBefore,
        procFs ? openDescriptors() : 0,
        heapBefore / 1024,
        CancelledCallStreamTest.heapAfterGc() / 1024);
    Client client = new Client(http.uri());
    client.initialize(); // 200, not 503
    assertThat(http.sessionCount()).isEqualTo(1);
  }

  @Test
  void postingToALegacySessionWhoseStreamIsGoneIs404() throws Exception {
    start(b -> b.sseKeepAlive(Duration.ofMillis(100)));
    Client client = new Client(http.uri());
    URI post;
    try (Socket s = openLegacyStream()) {
      post = http.uri().resolve(endpointOf(s));
      assertThat(legacyPost(client, post)).as("live session").isEqualTo(202);
    } // an orderly close this time
    assertThat(
            waitUntil(() -> StreamProbe.legacySessions(http.endpoint) == 0, Duration.ofSeconds(10)))
        .as("the session whose stream closed ended")
        .isTrue();
    assertThat(legacyPost(client, post)).isEqualTo(404);
  }

  @Test
  void anIdleLegacySessionExpiresAndItsStreamEnds() throws Exception {
    start(b -> b.sessionIdleTimeout(Duration.ofMillis(300)));
    try (Socket s = openLegacyStream()) {
      BufferedReader in = reader(s);
      String endpoint = endpointOf(in); // the session exists (and may be reaped at any moment)
      // The client keeps reading but sends nothing: the stream must end (EOF), not hang.
      s.setSoTimeout(10_000);
      while (in.readLine() != null) {
        // keep-alive comments or the chunked terminator
      }
      assertThat(waitUntil(() -> http.sessionCount() == 0, Duration.ofSeconds(10))).isTrue();
      assertThat(legacyPost(new Client(http.uri()), http.uri().resolve(endpoint))).isEqualTo(404);
    }
  }

  private Socket openLegacyStream() throws IOException {
    Socket s = new Socket("127.0.0.1", http.port());
    s.setSoTimeout(10_000);
    String get =
        "GET /sse HTTP/1.1\r\nHost: 127.0.0.1:"
            + http.port()
            + "\r\nAccept: text/event-stream\r\nConnection: close\r\n\r\n";
    s.getOutputStream().write(get.getBytes(StandardCharsets.US_ASCII));
    s.getOutputStream().flush();
    return s;
  }

  private static BufferedReader reader(Socket s) throws IOException {
    return new BufferedReader(new InputStreamReader(s.getInputStream(), StandardCharsets.US_ASCII));
  }

  private static String endpointOf(Socket s) throws IOException {
    return endpointOf(reader(s));
  }

  /** Reads up to the {@code endpoint} event and returns its data (the POST path). */
  private static String endpointOf(BufferedReader in) throws IOException {
    assertThat(in.readLine()).startsWith("HTTP/1.1 200");
    boolean endpoint = false;
    for (String line; (line = in.readLine()) != null; ) {
      if (line.equals("event: endpoint")) {
        endpoint = true;
      } else if (endpoint && line.startsWith("data: ")) {
        return line.substring(6);
      }
    }
    throw new AssertionError("stream ended before the endpoint event");
  }

  private static int legacyPost(Client client, URI uri) throws Exception {
    return client
        .sendForString(
            HttpRequest.newBuilder(uri)
                .header("Content-Type", "application/json")
                .POST(
                    HttpRequest.BodyPublishers.ofString(
                        Client.q("{'jsonrpc':'2.0','method':'notifications/initialized'}"))))
        .statusCode();
  }
}
