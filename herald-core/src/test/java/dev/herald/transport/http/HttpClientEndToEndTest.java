package dev.herald.transport.http;

import static dev.herald.transport.http.ScriptedServer.json;
import static dev.herald.transport.http.ScriptedServer.sse;
import static dev.herald.transport.http.ScriptedServer.status;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.herald.client.EraPreference;
import dev.herald.client.McpClient;
import dev.herald.session.CallOptions;
import dev.herald.session.ProgressUpdate;
import dev.herald.transport.TransportException;
import dev.herald.transport.http.ScriptedServer.Request;
import dev.herald.transport.http.ScriptedServer.Responder;
import dev.herald.wire.CallToolResult;
import dev.herald.wire.ContentBlock;
import dev.herald.wire.McpJson;
import java.net.ServerSocket;
import java.net.URI;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.Parameter;
import org.junit.jupiter.params.ParameterizedClass;
import org.junit.jupiter.params.provider.EnumSource;
import tools.jackson.databind.JsonNode;

/** {@link McpClient} over {@link StreamableHttpClientTransport} against a scripted server. */
@ParameterizedClass
@EnumSource(ClientEngine.class)
class HttpClientEndToEndTest {
  @Parameter ClientEngine engine;

  @AfterEach
  void closeEngines() {
    ClientEngine.closeAll();
  }

  private static final String SID = "e2e-session";

  /**
   * A scripted 2025-11-25 server: JSON for initialize (with a session id), 202 for notifications,
   * no standing stream, and a tools/call whose event stream closes mid-call, to be resumed.
   */
  private static Responder script(Request r) {
    switch (r.method()) {
      case "DELETE" -> {
        return status(200);
      }
      case "GET" -> {
        if (r.header("Last-Event-ID") == null) {
          return status(405);
        }
        // The resumed stream: the rest of the call.
        return sse(
            ScriptedServer.event(
                "call-2",
                "{\"jsonrpc\":\"2.0\",\"id\":"
                    + callId
                    + ",\"result\":"
                    + "{\"content\":[{\"type\":\"text\",\"text\":\"done after resume\"}]}}"));
      }
      default -> {}
    }
    JsonNode body = McpJson.mapper().readTree(r.body());
    String method = body.path("method").asString("");
    JsonNode id = body.get("id");
    return switch (method) {
      case "initialize" ->
          json(
              "{\"jsonrpc\":\"2.0\",\"id\":"
                  + id
                  + ",\"result\":{\"protocolVersion\":\"2025-11-25\",\"capabilities\":{\"tools\":{}},"
                  + "\"serverInfo\":{\"name\":\"scripted\",\"version\":\"1.0\"}}}",
              "Mcp-Session-Id",
              SID);
      case "tools/call" -> {
        callId = id.toString();
        String token = body.path("params").path("_meta").path("progressToken").toString();
        yield sse(
            "id: call-0\nretry: 50\ndata:\n\n",
            ScriptedServer.event(
                "call-1",
                "{\"jsonrpc\":\"2.0\",\"method\":\"notifications/progress\",\"params\":"
                    + "{\"progressToken\":"
                    + token
                    + ",\"progress\":1,\"total\":2}}"));
        // ...and the stream closes before the response.
      }
      default -> status(202);
    };
  }

  private static volatile String callId = "null";

  @Test
  void initializeCallResumedMidStreamAndCloseWithDelete() throws Exception {
    List<ProgressUpdate> progress = new CopyOnWriteArrayList<>();
    try (ScriptedServer server = new ScriptedServer(HttpClientEndToEndTest::script)) {
      StreamableHttpClientTransport transport = engine.transport(server.uri());
      CallToolResult result;
      try (McpClient client =
          McpClient.builder()
              .info("e2e", "1")
              .eras(EraPreference.HANDSHAKE_ONLY) // a handshake-era session: resumption, DELETE
              .connect(transport)) {
        assertThat(client.serverInfo().name()).isEqualTo("scripted");
        assertThat(transport.sessionId()).contains(SID);
        result =
            client.callTool(
                "slow",
                null,
                CallOptions.builder()
                    .progress(progress::add)
                    .timeout(Duration.ofSeconds(10))
                    .build());
      }
      assertThat(result.content()).containsExactly(ContentBlock.text("done after resume"));
      assertThat(progress).isNotEmpty();
      assertThat(progress.getLast().progress()).isEqualTo(1.0);

      // The standing GET is opened once notifications/initialized is accepted, concurrently with
      // what the client does next, so it is checked apart from the ordered exchange.
      List<Request> all = List.copyOf(server.requests);
      assertThat(all).filteredOn(r -> describe(r).equals("standing")).hasSize(1);
      List<Request> got = all.stream().filter(r -> !describe(r).equals("standing")).toList();
      assertThat(got)
          .extracting(r -> r.method() + " " + describe(r))
          .containsExactly(
              "POST initialize",
              "POST notifications/initialized",
              "POST tools/call",
              "GET Last-Event-ID: call-1",
              "DELETE " + SID);
      for (Request r : all.subList(1, all.size())) {
        assertThat(r.header("Mcp-Session-Id")).as(r.toString()).isEqualTo(SID);
        assertThat(r.header("MCP-Protocol-Version")).as(r.toString()).isEqualTo("2025-11-25");
      }
      assertThat(Duration.ofNanos(got.get(3).nanos() - got.get(2).nanos()))
          .isGreaterThanOrEqualTo(Duration.ofMillis(50));
    }
  }

  @Test
  void connectingToNothingFailsWithOneClearLine() throws Exception {
    int port;
    try (ServerSocket s = new ServerSocket(0, 1, java.net.InetAddress.getLoopbackAddress())) {
      port = s.getLocalPort();
    }
    URI uri = URI.create("http://127.0.0.1:" + port + "/mcp");
    assertThatThrownBy(() -> McpClient.builder().connect(engine.transport(uri)))
        .isInstanceOf(TransportException.class)
        .hasMessage("cannot reach " + uri + ": connection refused");
  }

  private static String describe(Request r) {
    return switch (r.method()) {
      case "GET" ->
          r.header("Last-Event-ID") == null
              ? "standing"
              : "Last-Event-ID: " + r.header("Last-Event-ID");
      case "DELETE" -> r.header("Mcp-Session-Id");
      default -> McpJson.mapper().readTree(r.body()).path("method").asString("");
    };
  }
}
