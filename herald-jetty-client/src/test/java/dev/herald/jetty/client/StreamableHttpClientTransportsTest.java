package dev.herald.jetty.client;

import static dev.herald.testing.Eventually.eventually;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.herald.client.EraPreference;
import dev.herald.client.McpClient;
import dev.herald.client.ToolCallHandle;
import dev.herald.http.McpHttpServer;
import dev.herald.server.McpServer;
import dev.herald.session.CallOptions;
import dev.herald.session.ProgressUpdate;
import dev.herald.transport.Transport;
import dev.herald.transport.TransportException;
import dev.herald.transport.http.Http1Client;
import dev.herald.transport.http.HttpEngine;
import dev.herald.transport.http.SessionExpiredException;
import dev.herald.transport.http.StreamableHttpClientTransport;
import dev.herald.wire.CallToolResult;
import dev.herald.wire.McpException;
import dev.herald.wire.McpJson;
import dev.herald.wire.ProtocolVersion;
import dev.herald.wire.Tool;
import java.io.IOException;
import java.net.ServerSocket;
import java.net.URI;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Both Streamable HTTP client transports, herald-core's (on the JDK's {@code HttpClient}, asked
 * for with {@code HttpEngine.JDK}: "jdk", and on an {@code Http1Client} given to it: "http1") and
 * the Jetty one here,
 * against Herald's real Jetty server, held to the same behaviour: JSON and event-stream answers,
 * the session id, the standing stream, a polled stream resumed with {@code Last-Event-ID}, a lost
 * session ({@link SessionExpiredException}), {@code DELETE} on close, bounded answers and an
 * unreachable server.
 */
@Timeout(120) // generous: the first test also starts Jetty and warms up on a busy machine
class StreamableHttpClientTransportsTest {
  private McpHttpServer http;
  private McpServer server;
  private final CountDownLatch blocking = new CountDownLatch(1);
  private final List<AutoCloseable> open = new ArrayList<>();

  /** The {@link Http1Client}s of the "http1" transports, closed after their clients. */
  private final List<Http1Client> engines = new ArrayList<>();

  @AfterEach
  void stop() throws Exception {
    for (AutoCloseable c : open) {
      c.close();
    }
    for (Http1Client c : engines) {
      c.close();
    }
    if (http != null) {
      http.close();
    }
  }

  private void start() {
    server =
        McpServer.builder()
            .info("transports-test", "1")
            .tool(
                Tool.builder("echo").build(),
                call -> CallToolResult.text("echo " + call.string("text", "?")))
            .tool(
                Tool.builder("steps").build(),
                call -> {
                  long n = call.integer("n", 3);
                  for (long i = 1; i <= n; i++) {
                    call.context().progress().report(i, (double) n, "step " + i);
                  }
                  return CallToolResult.text("did " + n);
                })
            .tool(
                Tool.builder("poll").build(),
                call -> {
                  call.context().progress().report(1, 2.0, "before");
                  call.context().pollStream();
                  call.context().progress().report(2, 2.0, "after");
                  return CallToolResult.text("reconnected");
                })
            .tool(
                Tool.builder("big").build(),
                call -> CallToolResult.text("x".repeat((int) call.integer("size", 2000))))
            .tool(
                Tool.builder("block").build(),
                call -> {
                  blocking.countDown();
                  Thread.sleep(60_000);
                  return CallToolResult.text("woke");
                })
            .build();
    http = McpHttpServer.builder().server(server).port(0).build().start();
  }

  private Transport transport(String kind, URI uri, int maxEventBytes) {
    return switch (kind) {
      case "jetty" ->
          JettyStreamableHttpClientTransport.builder()
              .uri(uri)
              .maxEventBytes(maxEventBytes)
              .build();
      case "jdk" ->
          StreamableHttpClientTransport.builder()
              .uri(uri)
              .httpEngine(HttpEngine.JDK)
              .maxEventBytes(maxEventBytes)
              .build();
      case "http1" -> {
        Http1Client engine = Http1Client.newClient();
        engines.add(engine);
        yield StreamableHttpClientTransport.builder()
            .uri(uri)
            .httpClient(engine)
            .maxEventBytes(maxEventBytes)
            .build();
      }
      default -> throw new IllegalArgumentException(kind);
    };
  }

  private McpClient connect(String kind) throws InterruptedException {
    return connect(kind, JettyStreamableHttpClientTransport.DEFAULT_MAX_EVENT_BYTES);
  }

  private McpClient connect(String kind, int maxEventBytes) throws InterruptedException {
    McpClient c =
        McpClient.builder()
            .info("transports-test", "1")
            .eras(EraPreference.HANDSHAKE_ONLY)
            .connect(transport(kind, http.uri(), maxEventBytes));
    open.add(c);
    return c;
  }

  @ParameterizedTest
  @ValueSource(strings = {"jetty", "jdk", "http1"})
  void aToolCallIsAnsweredAndTheSessionIdGoesOnLaterRequests(String kind) throws Exception {
    start();
    McpClient client = connect(kind);

    for (int i = 0; i < 50; i++) {
      CallToolResult r = client.callTool("echo", McpJson.object().put("text", "hi " + i));
      assertThat(r.firstText()).isEqualTo("echo hi " + i);
    }
    // every call after initialize went to the one session the server issued
    assertThat(http.sessionCount()).isEqualTo(1);
    assertThat(server.sessions()).hasSize(1);
  }

  @ParameterizedTest
  @ValueSource(strings = {"jetty", "jdk", "http1"})
  void progressArrivesInOrderOnTheCallsEventStreamBeforeItsResult(String kind) throws Exception {
    start();
    McpClient client = connect(kind);
    List<ProgressUpdate> updates = new CopyOnWriteArrayList<>();

    CallToolResult r =
        client.callTool(
            "steps",
            McpJson.object().put("n", 300),
            CallOptions.builder().progress(updates::add).renderInterval(Duration.ZERO).build());

    assertThat(r.firstText()).isEqualTo("did 300");
    assertThat(updates).isNotEmpty();
    assertThat(updates.get(updates.size() - 1).progress()).isEqualTo(300.0);
    for (int i = 1; i < updates.size(); i++) {
      assertThat(updates.get(i).progress()).isGreaterThan(updates.get(i - 1).progress());
    }
  }

  @ParameterizedTest
  @ValueSource(strings = {"jetty", "jdk", "http1"})
  void aListChangeReachesTheClientOnTheStandingStream(String kind) throws Exception {
    start();
    CountDownLatch changed = new CountDownLatch(1);
    McpClient client =
        McpClient.builder()
            .info("transports-test", "1")
            .eras(EraPreference.HANDSHAKE_ONLY)
            .onToolsListChanged(changed::countDown)
            .connect(
                transport(
                    kind, http.uri(), JettyStreamableHttpClientTransport.DEFAULT_MAX_EVENT_BYTES));
    open.add(client);
    client.callTool("echo", null); // the standing stream opened after initialized
    // the server may send list changes once the standing stream is open: keep changing until heard
    eventually(
        Duration.ofSeconds(20),
        () -> {
          server.addTool(
              Tool.builder("added-" + System.nanoTime()).build(), call -> CallToolResult.text(""));
          try {
            return changed.await(200, TimeUnit.MILLISECONDS);
          } catch (InterruptedException e) {
            throw new IllegalStateException(e);
          }
        },
        "a tools/list_changed reached the client");
  }

  @ParameterizedTest
  @ValueSource(strings = {"jetty", "jdk", "http1"})
  void aStreamTheServerClosedIsResumedWithLastEventIdAndTheResultArrives(String kind)
      throws Exception {
    start();
    McpClient client = connect(kind);
    List<ProgressUpdate> updates = new CopyOnWriteArrayList<>();

    CallToolResult r =
        client.callTool(
            "poll",
            null,
            CallOptions.builder().progress(updates::add).renderInterval(Duration.ZERO).build());

    assertThat(r.firstText()).isEqualTo("reconnected");
    assertThat(updates).extracting(ProgressUpdate::progress).containsExactly(1.0, 2.0);
  }

  @ParameterizedTest
  @ValueSource(strings = {"jetty", "jdk", "http1"})
  void closingTheClientDeletesItsSession(String kind) throws Exception {
    start();
    McpClient client = connect(kind);
    client.callTool("echo", null);
    assertThat(http.sessionCount()).isEqualTo(1);

    client.close();

    eventually(() -> http.sessionCount() == 0, "the server ended the session on DELETE");
  }

  @ParameterizedTest
  @ValueSource(strings = {"jetty", "jdk", "http1"})
  void aSessionTheServerLostFailsTheCallInFlightAndIsReplaced(String kind) throws Exception {
    start();
    LinkedBlockingQueue<McpClient.SessionRestart> restarts = new LinkedBlockingQueue<>();
    McpClient client =
        McpClient.builder()
            .info("transports-test", "1")
            .eras(EraPreference.HANDSHAKE_ONLY)
            .onSessionRestart(restarts::add)
            .connect(() ->
                transport(
                    kind, http.uri(), JettyStreamableHttpClientTransport.DEFAULT_MAX_EVENT_BYTES));
    open.add(client);
    ToolCallHandle inFlight = client.callToolAsync("block", null, CallOptions.defaults());
    assertThat(blocking.await(20, TimeUnit.SECONDS)).as("the call reached the server").isTrue();

    server.sessions().get(0).close();

    assertThatThrownBy(inFlight::await).isInstanceOf(SessionExpiredException.class);
    McpClient.SessionRestart restart = restarts.poll(20, TimeUnit.SECONDS);
    assertThat(restart).isNotNull();
    assertThat(restart.restored()).as("restart failure: %s", restart.failure()).isTrue();
    assertThat(restart.cause()).isInstanceOf(SessionExpiredException.class);
    assertThat(client.callTool("echo", McpJson.object().put("text", "again")).firstText())
        .isEqualTo("echo again");
  }

  @ParameterizedTest
  @ValueSource(strings = {"jetty", "jdk", "http1"})
  void anAnswerLargerThanTheLimitFailsOnlyItsCall(String kind) throws Exception {
    start();
    McpClient client = connect(kind, 1024);

    assertThatThrownBy(() -> client.callTool("big", McpJson.object().put("size", 4000)))
        .isInstanceOf(McpException.class)
        .hasMessageContaining("larger than 1024 bytes");

    assertThat(client.callTool("echo", McpJson.object().put("text", "small")).firstText())
        .isEqualTo("echo small");
  }

  @ParameterizedTest
  @ValueSource(strings = {"jetty", "jdk", "http1"})
  void aServerThatCannotBeReachedFailsTheConnectionAtOnce(String kind) throws Exception {
    int port;
    try (ServerSocket s = new ServerSocket(0)) {
      port = s.getLocalPort();
    } catch (IOException e) {
      throw new IllegalStateException(e);
    }
    URI nowhere = URI.create("http://127.0.0.1:" + port + "/mcp");

    assertThatThrownBy(() ->
            McpClient.builder()
                .info("transports-test", "1")
                .eras(EraPreference.HANDSHAKE_ONLY)
                .connect(
                    transport(
                        kind, nowhere, JettyStreamableHttpClientTransport.DEFAULT_MAX_EVENT_BYTES)))
        .isInstanceOf(TransportException.class)
        .hasMessageContaining("cannot reach " + nowhere);
  }

  @Test
  void aClientSetToLatestSpeaksTheHandshakeEraOverTheJettyTransport() throws Exception {
    start();
    McpClient client =
        McpClient.builder()
            .info("transports-test", "1")
            .connect(JettyStreamableHttpClientTransport.builder().uri(http.uri()).build());
    open.add(client);

    assertThat(client.protocolVersion().handshake()).isTrue();
    assertThat(client.era()).isNotEqualTo(ProtocolVersion.Era.MODERN);
    assertThat(client.callTool("echo", McpJson.object().put("text", "v")).firstText())
        .isEqualTo("echo v");
  }
}
