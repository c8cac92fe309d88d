package dev.herald.server;

import static dev.herald.testing.Eventually.eventually;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.herald.wire.CallToolResult;
import dev.herald.wire.Tool;
import java.time.Duration;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import tools.jackson.databind.JsonNode;

/**
 * The end of a stdio client's input (MCP basic/transports/stdio) over a real {@code
 * StdioTransport}: requests already read keep running for the server's drain grace so that their
 * answers still go out, a {@code subscriptions/listen} (which has no answer) does not hold the
 * session open, and a grace of zero cancels the running requests at once. Each grace here is a
 * minute, far beyond the test's own waits, so that a session ended within them shows it did not
 * wait the grace out.
 */
@Timeout(30)
class DrainGraceTest {
  private static final String META =
      "\"_meta\":{\"io.modelcontextprotocol/protocolVersion\":\"2026-07-28\","
          + "\"io.modelcontextprotocol/clientCapabilities\":{}}";

  private final CountDownLatch release = new CountDownLatch(1);
  private final CountDownLatch cancelled = new CountDownLatch(1);

  private McpServer server(Duration grace) {
    return McpServer.builder()
        .drainGrace(grace)
        .tool(
            Tool.builder("hold").build(),
            call -> {
              try {
                release.await();
              } catch (InterruptedException e) {
                cancelled.countDown();
                throw e;
              }
              return CallToolResult.text("held");
            })
        .build();
  }

  private static String call(String id) {
    return "{\"jsonrpc\":\"2.0\",\"id\":\""
        + id
        + "\",\"method\":\"tools/call\",\"params\":{\"name\":\"hold\","
        + META
        + "}}";
  }

  @Test
  void aListenOpenAtTheEndOfInputEndsTheSessionWithoutWaitingTheGrace() throws Exception {
    try (RawStdio raw = RawStdio.connect(server(Duration.ofMinutes(1)))) {
      raw.send(
          "{\"jsonrpc\":\"2.0\",\"id\":\"L\",\"method\":\"subscriptions/listen\",\"params\":"
              + "{\"notifications\":{\"toolsListChanged\":true},"
              + META
              + "}}");
      JsonNode ack = raw.next();
      assertThat(ack.get("method").stringValue())
          .isEqualTo("notifications/subscriptions/acknowledged");

      raw.close();

      eventually(
          () -> raw.session.state() == ServerSession.State.CLOSED,
          "the session ended, a minute before its grace would have run out");
    }
  }

  @Test
  void aRequestRunningAtTheEndOfInputStillAnswersWithinTheGrace() throws Exception {
    try (RawStdio raw = RawStdio.connect(server(Duration.ofMinutes(1)))) {
      raw.send(call("running"));
      eventually(() -> raw.session.engine().inFlightCount() == 1, "the call is running");

      raw.close();
      eventually(() -> raw.session.engine().draining(), "the server read the end of input");
      release.countDown();

      JsonNode answer = raw.next();
      assertThat(answer.get("id").stringValue()).isEqualTo("running");
      assertThat(answer.get("result").get("content").get(0).get("text").stringValue())
          .isEqualTo("held");
      eventually(
          () -> raw.session.state() == ServerSession.State.CLOSED,
          "the session ended once its last answer went out");
      assertThat(cancelled.getCount()).as("the handler was never interrupted").isEqualTo(1);
    }
  }

  @Test
  void aGraceOfZeroCancelsTheRunningRequestsAtTheEndOfInput() throws Exception {
    try (RawStdio raw = RawStdio.connect(server(Duration.ZERO))) {
      raw.send(call("running"));
      eventually(() -> raw.session.engine().inFlightCount() == 1, "the call is running");

      raw.close();

      assertThat(cancelled.await(10, TimeUnit.SECONDS)).as("the handler was cancelled").isTrue();
      eventually(() -> raw.session.state() == ServerSession.State.CLOSED, "the session ended");
    }
  }

  @Test
  void aNegativeGraceIsRefused() {
    assertThatThrownBy(() -> McpServer.builder().drainGrace(Duration.ofSeconds(-1)))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("drainGrace must not be negative, was PT-1S");
  }
}
