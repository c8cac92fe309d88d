package dev.herald.cli;

import static org.assertj.core.api.Assertions.assertThat;

import dev.herald.testing.HeraldJar;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * Herald's stdio wire order, read as the bytes a real {@code herald serve --stdio} process writes:
 * every {@code notifications/progress} of a call, the last (flushed) value included, is written
 * before that call's response (MCP specification, "Progress": notifications for a request are sent
 * while it is in progress). A peer that still misses the last value loses it after reading it (see
 * docs/known-issues.md, "Peer limitations").
 */
@Timeout(120)
class StdioProgressOrderIT {
  private static final JsonMapper JSON = JsonMapper.shared();
  private Process process;
  private OutputStream stdin;
  private final BlockingQueue<byte[]> lines = new LinkedBlockingQueue<>();

  @BeforeEach
  void start() throws IOException {
    process =
        new ProcessBuilder(HeraldJar.command(List.of("-Xmx96m"), "serve", "--stdio"))
            .redirectError(ProcessBuilder.Redirect.DISCARD)
            .start();
    stdin = process.getOutputStream();
    Thread.ofVirtual().start(() -> readLines(process.getInputStream()));
  }

  /** Splits stdout on {@code \n} byte by byte: no decoding or buffering that could reorder. */
  private void readLines(InputStream in) {
    ByteArrayOutputStream line = new ByteArrayOutputStream();
    try (in) {
      for (int b; (b = in.read()) >= 0; ) {
        if (b == '\n') {
          lines.add(line.toByteArray());
          line.reset();
        } else {
          line.write(b);
        }
      }
    } catch (IOException ignored) {
      // the process is gone
    }
  }

  @AfterEach
  void stop() throws Exception {
    stdin.close();
    if (!process.waitFor(10, TimeUnit.SECONDS)) {
      process.destroyForcibly();
    }
  }

  private void send(String json) throws IOException {
    stdin.write((json.replace('\'', '"') + "\n").getBytes(StandardCharsets.UTF_8));
    stdin.flush();
  }

  private JsonNode next() throws InterruptedException {
    byte[] line = lines.poll(60, TimeUnit.SECONDS);
    assertThat(line).as("a line from the server").isNotNull();
    return JSON.readTree(new String(line, StandardCharsets.UTF_8));
  }

  /** Everything the server writes up to and including the response to {@code id}. */
  private List<JsonNode> until(int id) throws InterruptedException {
    List<JsonNode> out = new ArrayList<>();
    for (JsonNode m; ; ) {
      m = next();
      out.add(m);
      if (m.has("id")
          && m.get("id").isInt()
          && m.get("id").intValue() == id
          && (m.has("result") || m.has("error"))) {
        return out;
      }
    }
  }

  @Test
  void everyProgressNotificationOfACallIncludingTheFlushedLastValueIsWrittenBeforeItsResponse()
      throws Exception {
    send(
        "{'jsonrpc':'2.0','id':0,'method':'initialize','params':{'protocolVersion':'2025-11-25','capabilities':{},"
            + "'clientInfo':{'name':'raw','version':'1'}}}");
    assertThat(until(0).getLast().get("result").get("protocolVersion").stringValue())
        .isEqualTo("2025-11-25");
    send("{'jsonrpc':'2.0','method':'notifications/initialized'}");

    // Steps far shorter than the 50 ms progress cadence: the sender coalesces, and the last value
    // goes out only when the handler returns, right where a flush could race the response.
    for (int id = 1; id <= 20; id++) {
      send(
          "{'jsonrpc':'2.0','id':"
              + id
              + ",'method':'tools/call','params':{'name':'slow',"
              + "'arguments':{'steps':5,'delayMs':"
              + (id % 3)
              + "},'_meta':{'progressToken':'p"
              + id
              + "'}}}");
      List<JsonNode> written = until(id);
      JsonNode response = written.getLast();
      assertThat(response.get("result").get("content").get(0).get("text").stringValue())
          .isEqualTo("completed 5 steps");
      List<Double> progress = new ArrayList<>();
      for (JsonNode m : written.subList(0, written.size() - 1)) {
        assertThat(m.get("method").stringValue())
            .as("only progress precedes the response")
            .isEqualTo("notifications/progress");
        assertThat(m.get("params").get("progressToken").stringValue()).isEqualTo("p" + id);
        assertThat(m.get("params").get("total").doubleValue()).isEqualTo(5.0);
        progress.add(m.get("params").get("progress").doubleValue());
      }
      assertThat(progress)
          .as("call %s", id)
          .isNotEmpty()
          .isSorted()
          .doesNotHaveDuplicates()
          .endsWith(5.0);
    }
    // Nothing of any call comes after its response: a ping's answer is the next line.
    send("{'jsonrpc':'2.0','id':99,'method':'ping'}");
    assertThat(until(99))
        .singleElement()
        .satisfies(m -> assertThat(m.get("result").isEmpty()).isTrue());
  }
}
