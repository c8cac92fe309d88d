package dev.herald.cli;

import static org.assertj.core.api.Assertions.assertThat;

import dev.herald.wire.McpJson;
import java.io.IOException;
import java.io.OutputStream;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import tools.jackson.databind.JsonNode;

/**
 * The 2026-07-28 stdio binding on a real {@code herald serve --stdio} process: stateless requests
 * need no handshake, both eras share the one pipe, {@code notifications/cancelled} cancels, logs
 * ride only the request that asked for them, and the server never writes a request.
 */
@Timeout(120)
class StdioStatelessIT {
  private static final String META =
      "\"_meta\":{\"io.modelcontextprotocol/protocolVersion\":\"2026-07-28\","
          + "\"io.modelcontextprotocol/clientCapabilities\":{}";

  private RawStdioServer server;
  private Process process;
  private OutputStream stdin;
  private BlockingQueue<String> lines;
  private final List<JsonNode> all = new ArrayList<>();
  private StringBuffer stderr;

  @BeforeEach
  void start() throws IOException {
    server = RawStdioServer.start(List.of("-Xmx96m"));
    process = server.process();
    stdin = server.stdin();
    lines = server.lines();
    stderr = server.stderr();
  }

  @AfterEach
  void stop() throws InterruptedException {
    server.close();
  }

  private void send(String line) throws IOException {
    server.send(line);
  }

  /** The next line the server wrote (recorded in {@link #all}). */
  private JsonNode next() throws InterruptedException {
    String line = lines.poll(20, TimeUnit.SECONDS);
    assertThat(line).as("a line from the server (stderr: %s)", stderr).isNotNull();
    JsonNode node = McpJson.mapper().readTree(line);
    all.add(node);
    return node;
  }

  /** Lines up to and including the response to {@code id}. */
  private List<JsonNode> untilResponse(String id) throws InterruptedException {
    List<JsonNode> got = new ArrayList<>();
    while (true) {
      JsonNode n = next();
      got.add(n);
      if (n.has("id") && !n.has("method") && id.equals(n.get("id").asString())) {
        return got;
      }
    }
  }

  @Test
  void aStatelessRequestIsAnsweredWithoutHandshakeAndTheSamePipeStillServesTheHandshake()
      throws Exception {
    send(
        "{\"jsonrpc\":\"2.0\",\"id\":\"d\",\"method\":\"server/discover\",\"params\":{"
            + META
            + "}}}");
    JsonNode discover = untilResponse("d").getLast().get("result");
    send(
        "{\"jsonrpc\":\"2.0\",\"id\":\"e\",\"method\":\"tools/call\",\"params\":{\"name\":\"echo\","
            + "\"arguments\":{\"text\":\"hi\"},"
            + META
            + "}}}");
    JsonNode echo = untilResponse("e").getLast().get("result");
    send("{\"jsonrpc\":\"2.0\",\"id\":\"p\",\"method\":\"ping\",\"params\":{" + META + "}}}");
    JsonNode ping = untilResponse("p").getLast();
    send(
        "{\"jsonrpc\":\"2.0\",\"id\":\"v\",\"method\":\"tools/list\",\"params\":{\"_meta\":{"
            + "\"io.modelcontextprotocol/protocolVersion\":\"2099-01-01\","
            + "\"io.modelcontextprotocol/clientCapabilities\":{}}}}");
    JsonNode unsupported = untilResponse("v").getLast().get("error");

    assertThat(discover.get("supportedVersions").toString()).contains("2026-07-28", "2025-11-25");
    assertThat(discover.get("resultType").stringValue()).isEqualTo("complete");
    assertThat(discover.get("ttlMs").isIntegralNumber()).isTrue();
    assertThat(discover.get("_meta").get("io.modelcontextprotocol/serverInfo").has("name"))
        .isTrue();
    assertThat(echo.get("content").get(0).get("text").stringValue()).isEqualTo("hi");
    assertThat(echo.get("resultType").stringValue()).isEqualTo("complete");
    assertThat(ping.get("error").get("code").intValue()).isEqualTo(-32601);
    assertThat(unsupported.get("code").intValue()).isEqualTo(-32022);
    assertThat(unsupported.get("data").get("supported").toString()).isEqualTo("[\"2026-07-28\"]");

    // the same pipe then does the handshake, and is served in that era
    send(
        "{\"jsonrpc\":\"2.0\",\"id\":\"i\",\"method\":\"initialize\",\"params\":{\"protocolVersion\":"
            + "\"2025-11-25\",\"capabilities\":{},\"clientInfo\":{\"name\":\"raw\",\"version\":\"1\"}}}");
    assertThat(untilResponse("i").getLast().get("result").get("protocolVersion").stringValue())
        .isEqualTo("2025-11-25");
    send("{\"jsonrpc\":\"2.0\",\"method\":\"notifications/initialized\"}");
    send("{\"jsonrpc\":\"2.0\",\"id\":\"l\",\"method\":\"tools/list\"}");
    JsonNode legacy = untilResponse("l").getLast().get("result");
    assertThat(legacy.has("resultType")).isFalse();
    assertThat(legacy.has("ttlMs")).isFalse();
    assertThat(all).noneMatch(n -> n.has("method") && n.has("id")); // never a server request
  }

  @Test
  void logsRideOnlyTheRequestThatAskedForThemAndCancellationStopsARequest() throws Exception {
    send(
        "{\"jsonrpc\":\"2.0\",\"id\":\"quiet\",\"method\":\"tools/call\",\"params\":{\"name\":"
            + "\"emit_logs\",\"arguments\":{\"count\":2,\"level\":\"warning\"},"
            + META
            + "}}}");
    List<JsonNode> quiet = untilResponse("quiet");
    send(
        "{\"jsonrpc\":\"2.0\",\"id\":\"loud\",\"method\":\"tools/call\",\"params\":{\"name\":"
            + "\"emit_logs\",\"arguments\":{\"count\":2,\"level\":\"warning\"},"
            + META
            + ",\"io.modelcontextprotocol/logLevel\":\"info\"}}}");
    List<JsonNode> loud = untilResponse("loud");

    assertThat(quiet).hasSize(1); // the response only
    assertThat(loud).hasSize(3); // two log lines, then the response
    assertThat(loud.get(0).get("method").stringValue()).isEqualTo("notifications/message");

    send(
        "{\"jsonrpc\":\"2.0\",\"id\":\"slow\",\"method\":\"tools/call\",\"params\":{\"name\":"
            + "\"slow\",\"arguments\":{\"steps\":600,\"delayMs\":100},"
            + META
            + ",\"progressToken\":\"t\"}}}");
    JsonNode firstProgress = next(); // the request is running
    assertThat(firstProgress.get("method").stringValue()).isEqualTo("notifications/progress");
    send(
        "{\"jsonrpc\":\"2.0\",\"method\":\"notifications/cancelled\",\"params\":{\"requestId\":"
            + "\"slow\",\"reason\":\"user\"}}");
    send(
        "{\"jsonrpc\":\"2.0\",\"id\":\"after\",\"method\":\"tools/list\",\"params\":{"
            + META
            + "}}}");
    List<JsonNode> after = untilResponse("after");

    assertThat(after.getLast().get("result").get("tools").isArray()).isTrue();
    assertThat(all)
        .noneMatch(n -> n.has("id") && !n.has("method") && "slow".equals(n.get("id").asString()));
  }
}
