package dev.herald.cli;

import static org.assertj.core.api.Assertions.assertThat;

import dev.herald.wire.McpJson;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import tools.jackson.databind.JsonNode;

/**
 * Hostile input to a real {@code herald serve --stdio} process with a 64 MB heap: every bad frame
 * gets a JSON-RPC error, the process neither crashes, hangs nor grows (a buffered 100 MB line would
 * not fit its heap), and the session stays usable afterwards.
 */
@Timeout(120)
class StdioBadInputIT {
  private RawStdioServer server;
  private Process process;
  private OutputStream stdin;
  private BlockingQueue<String> lines;
  private StringBuffer stderr;

  @BeforeEach
  void start() throws IOException {
    server = RawStdioServer.start(List.of("-Xmx64m", "-XX:+ExitOnOutOfMemoryError"));
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

  private JsonNode next() throws InterruptedException {
    String line = lines.poll(20, TimeUnit.SECONDS);
    assertThat(line).as("a reply from the server (stderr: %s)", stderr).isNotNull();
    return McpJson.mapper().readTree(line);
  }

  private void initialize() throws Exception {
    send(
        "{\"jsonrpc\":\"2.0\",\"id\":\"init\",\"method\":\"initialize\",\"params\":{\"protocolVersion\":\"2025-11-25\",\"capabilities\":{},\"clientInfo\":{\"name\":\"raw\",\"version\":\"1\"}}}");
    assertThat(next().get("result").get("protocolVersion").stringValue()).isEqualTo("2025-11-25");
    send("{\"jsonrpc\":\"2.0\",\"method\":\"notifications/initialized\"}");
  }

  private void assertAlive() throws Exception {
    send("{\"jsonrpc\":\"2.0\",\"id\":\"alive\",\"method\":\"ping\"}");
    JsonNode pong = next();
    assertThat(pong.get("id").stringValue()).isEqualTo("alive");
    assertThat(pong.get("result").isObject()).isTrue();
    assertThat(process.isAlive()).isTrue();
  }

  @Test
  void malformedJsonGetsParseErrorWithNullId() throws Exception {
    send("{not json");
    JsonNode err = next();
    assertThat(err.get("error").get("code").intValue()).isEqualTo(-32700);
    assertThat(err.get("id").isNull()).isTrue();
    assertAlive();
  }

  @Test
  void wrongTypesGetInvalidRequestOrInvalidParamsKeepingTheIdWhenReadable() throws Exception {
    send("{\"jsonrpc\":\"2.0\",\"id\":{\"a\":1},\"method\":\"ping\"}");
    assertThat(next().get("error").get("code").intValue()).isEqualTo(-32600);
    send("{\"jsonrpc\":\"1.0\",\"id\":7,\"method\":\"ping\"}");
    JsonNode badVersion = next();
    assertThat(badVersion.get("error").get("code").intValue()).isEqualTo(-32600);
    assertThat(badVersion.get("id").intValue()).isEqualTo(7);
    send("{\"jsonrpc\":\"2.0\",\"id\":8,\"method\":42}");
    assertThat(next().get("error").get("code").intValue()).isEqualTo(-32600);
    send("{\"jsonrpc\":\"2.0\",\"id\":\"9\",\"method\":\"initialize\",\"params\":[1,2]}");
    JsonNode badParams = next();
    assertThat(badParams.get("error").get("code").intValue()).isEqualTo(-32602);
    assertThat(badParams.get("id").stringValue()).isEqualTo("9");
    send(
        "{\"jsonrpc\":\"2.0\",\"id\":10,\"method\":\"initialize\",\"params\":{\"protocolVersion\":5}}");
    JsonNode badInit = next();
    assertThat(badInit.get("error").get("code").intValue()).isEqualTo(-32602);
    assertThat(badInit.get("id").intValue()).isEqualTo(10);
    initialize();
    send(
        "{\"jsonrpc\":\"2.0\",\"id\":11,\"method\":\"tools/call\",\"params\":{\"name\":\"echo\",\"arguments\":\"nope\"}}");
    assertThat(next().get("error").get("code").intValue()).isEqualTo(-32602);
    send("{\"jsonrpc\":\"2.0\",\"id\":12,\"method\":\"no/such/method\"}");
    JsonNode unknown = next();
    assertThat(unknown.get("error").get("code").intValue()).isEqualTo(-32601);
    assertThat(unknown.get("id").intValue()).isEqualTo(12);
    assertAlive();
  }

  @Test
  void overlongAndOtherMalformedUtf8IsAParseErrorNotText() throws Exception {
    initialize();
    for (String hex : new String[] {"c0aec0ae2f", "e080ae", "eda080", "f4908080", "ff", "e282"}) {
      java.io.ByteArrayOutputStream line = new java.io.ByteArrayOutputStream();
      line.writeBytes(
          "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"tools/call\",\"params\":{\"name\":\"echo\",\"arguments\":{\"text\":\"a/"
              .getBytes(StandardCharsets.UTF_8));
      line.writeBytes(java.util.HexFormat.of().parseHex(hex));
      line.writeBytes("etc\"}}}\n".getBytes(StandardCharsets.UTF_8));
      stdin.write(line.toByteArray());
      stdin.flush();
      JsonNode err = next();
      assertThat(err.get("error")).as("%s: %s", hex, err).isNotNull();
      assertThat(err.get("error").get("code").intValue()).as(hex).isEqualTo(-32700);
    }
    byte[] utf16 =
        "{\"jsonrpc\":\"2.0\",\"id\":2,\"method\":\"ping\"}".getBytes(StandardCharsets.UTF_16LE);
    stdin.write(utf16);
    stdin.write('\n');
    stdin.flush();
    assertThat(next().get("error").get("code").intValue()).isEqualTo(-32700);
    assertAlive();
  }

  @Test
  void hundredMegabyteLineIsRefusedWithoutBufferingIt() throws Exception {
    byte[] chunk = new byte[1024 * 1024];
    Arrays.fill(chunk, (byte) 'a');
    stdin.write(
        "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"ping\",\"params\":{\"x\":\""
            .getBytes(StandardCharsets.UTF_8));
    for (int i = 0; i < 100; i++) {
      stdin.write(chunk);
    }
    stdin.write("\"}}\n".getBytes(StandardCharsets.UTF_8));
    stdin.flush();
    JsonNode err = next();
    assertThat(err.get("error").get("code").intValue()).isEqualTo(-32600);
    assertThat(err.get("error").get("message").stringValue()).contains("longer than");
    assertAlive(); // a 64 MB heap could not have held the line
  }

  @Test
  void hundredThousandNestedBracketsGetParseError() throws Exception {
    send("[".repeat(100_000));
    JsonNode err = next();
    assertThat(err.get("error").get("code").intValue()).isEqualTo(-32700);
    send(
        "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"ping\",\"params\":{\"a\":"
            + "{\"b\":".repeat(50_000)
            + "1"
            + "}".repeat(50_001)
            + "}");
    assertThat(next().get("error").get("code").intValue()).isEqualTo(-32700);
    assertAlive();
  }

  @Test
  void floodOfNotificationsIsDroppedAndNeverAnswered() throws Exception {
    initialize();
    StringBuilder batch = new StringBuilder();
    for (int i = 0; i < 100_000; i++) {
      switch (i % 4) {
        case 0 ->
            batch
                .append(
                    "{\"jsonrpc\":\"2.0\",\"method\":\"notifications/progress\",\"params\":{\"progressToken\":\"t")
                .append(i)
                .append("\",\"progress\":1}}\n");
        case 1 ->
            batch.append(
                "{\"jsonrpc\":\"2.0\",\"method\":\"notifications/unknown/thing\",\"params\":{}}\n");
        case 2 ->
            batch
                .append(
                    "{\"jsonrpc\":\"2.0\",\"method\":\"notifications/cancelled\",\"params\":{\"requestId\":")
                .append(i)
                .append("}}\n");
        default ->
            batch.append("{\"jsonrpc\":\"2.0\",\"method\":\"notifications/roots/list_changed\"}\n");
      }
      if (batch.length() > 64 * 1024) {
        stdin.write(batch.toString().getBytes(StandardCharsets.UTF_8));
        batch.setLength(0);
      }
    }
    stdin.write(batch.toString().getBytes(StandardCharsets.UTF_8));
    stdin.flush();
    assertAlive();
    assertThat(lines).as("notifications are never answered").isEmpty();
  }

  @Test
  void requestsReadBeforeStdinClosesAreStillAnswered() throws Exception {
    send("{\"jsonrpc\":\"2.0\",\"id\":\"last\",\"method\":\"ping\"}");
    stdin.close();
    JsonNode pong = next();
    assertThat(pong.get("id").stringValue()).isEqualTo("last");
    assertThat(process.waitFor(10, TimeUnit.SECONDS)).isTrue();
    assertThat(process.exitValue()).isZero();
  }

  @Test
  void closingStdinEndsTheProcessCleanly() throws Exception {
    initialize();
    stdin.close();
    assertThat(process.waitFor(10, TimeUnit.SECONDS)).isTrue();
    assertThat(process.exitValue()).isZero();
  }
}
