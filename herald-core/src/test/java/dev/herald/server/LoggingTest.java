package dev.herald.server;

import static org.assertj.core.api.Assertions.assertThat;

import dev.herald.client.McpClient;
import dev.herald.internal.session.EngineAccess;
import dev.herald.session.EventListener;
import dev.herald.wire.CallToolResult;
import dev.herald.wire.ErrorCodes;
import dev.herald.wire.JsonRpcMessage;
import dev.herald.wire.LoggingLevel;
import dev.herald.wire.LoggingMessageParams;
import dev.herald.wire.McpException;
import dev.herald.wire.McpJson;
import dev.herald.wire.McpMethods;
import dev.herald.wire.Tool;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

class LoggingTest {
  private final ManualScheduler clock = new ManualScheduler();
  private final List<PipeLink> open = new ArrayList<>();
  private final List<LinkedBlockingQueue<LoggingMessageParams>> inbox = new ArrayList<>();

  @AfterEach
  void tearDown() {
    open.forEach(PipeLink::close);
  }

  private List<PipeLink> clients(McpServer server, int n) throws InterruptedException {
    for (int i = 0; i < n; i++) {
      LinkedBlockingQueue<LoggingMessageParams> q = new LinkedBlockingQueue<>();
      inbox.add(q);
      open.add(PipeLink.connect(server, McpClient.builder().onLog(q::add)));
    }
    return open;
  }

  /** The levels of the log messages the server wrote to this link. */
  private static List<LoggingLevel> levelsSent(PipeLink link) {
    return sentLogs(link).stream().map(LoggingMessageParams::level).toList();
  }

  private static List<LoggingMessageParams> sentLogs(PipeLink link) {
    return link.sent.messages.stream()
        .filter(m ->
            m instanceof JsonRpcMessage.Notification n && n.method().equals(McpMethods.MESSAGE))
        .map(m ->
            McpJson.fromTree(
                ((JsonRpcMessage.Notification) m).params(), LoggingMessageParams.class))
        .toList();
  }

  @Test
  void logLevelsArePerSession() throws Exception {
    McpServer server = McpServer.builder().build();
    List<PipeLink> links = clients(server, 3);
    links.get(0).client.setLoggingLevel(LoggingLevel.DEBUG);
    links.get(1).client.setLoggingLevel(LoggingLevel.ERROR);

    for (LoggingLevel level :
        List.of(LoggingLevel.DEBUG, LoggingLevel.INFO, LoggingLevel.WARNING, LoggingLevel.ERROR)) {
      server.log(level, "app", "at " + level.wire());
    }

    assertThat(links.get(0).session.logLevel()).isEqualTo(LoggingLevel.DEBUG);
    assertThat(levelsSent(links.get(0)))
        .containsExactly(
            LoggingLevel.DEBUG, LoggingLevel.INFO, LoggingLevel.WARNING, LoggingLevel.ERROR);
    assertThat(levelsSent(links.get(1))).containsExactly(LoggingLevel.ERROR);
    assertThat(levelsSent(links.get(2)))
        .containsExactly(LoggingLevel.INFO, LoggingLevel.WARNING, LoggingLevel.ERROR);
    assertThat(inbox.get(1).poll(5, TimeUnit.SECONDS))
        .extracting(p -> p.data().stringValue())
        .isEqualTo("at error");
  }

  @Test
  void untilAClientSetsALevelItGetsTheServersDefault() throws Exception {
    McpServer server =
        McpServer.builder()
            .eventListenerFactory(Counts.PER_SESSION)
            .defaultLogLevel(LoggingLevel.WARNING)
            .build();
    PipeLink link = clients(server, 1).get(0);

    link.session.log(LoggingLevel.INFO, null, "quiet");
    link.session.log(LoggingLevel.WARNING, null, "loud");

    assertThat(link.session.logLevel()).isEqualTo(LoggingLevel.WARNING);
    assertThat(levelsSent(link)).containsExactly(LoggingLevel.WARNING);
    assertThat(Counts.of(link.session).gated()).isEqualTo(1);
  }

  @Test
  void anUnknownLevelIsInvalidParamsAndLeavesTheLevelAlone() throws Exception {
    PipeLink link = clients(McpServer.builder().build(), 1).get(0);

    CompletableFuture<?> answer =
        EngineAccess.of(link.client)
            .request(McpMethods.LOGGING_SET_LEVEL, Json.parse("{'level':'loud'}"))
            .result();

    assertThat(answer)
        .failsWithin(Duration.ofSeconds(5))
        .withThrowableOfType(ExecutionException.class)
        .havingCause()
        .isInstanceOfSatisfying(
            McpException.class, e -> assertThat(e.code()).isEqualTo(ErrorCodes.INVALID_PARAMS));
    assertThat(link.session.logLevel()).isEqualTo(LoggingLevel.INFO);
  }

  @Test
  void aLogFromOneSessionsHandlerReachesThatSessionOnly() throws Exception {
    McpServer server =
        McpServer.builder()
            .tool(
                Tool.builder("work").build(),
                call -> {
                  String who = call.string("who", "?");
                  call.context().log(LoggingLevel.INFO, "work", "working for " + who);
                  call.context().log(LoggingLevel.WARNING, "work", "still working for " + who);
                  return CallToolResult.text("done for " + who);
                })
            .build();
    List<PipeLink> links = clients(server, 3);

    List<CompletableFuture<CallToolResult>> calls = new ArrayList<>();
    for (int round = 0; round < 5; round++) {
      for (int i = 0; i < 3; i++) {
        calls.add(
            links
                .get(i)
                .client
                .callToolAsync(
                    "work",
                    Json.parse("{'who':'c" + i + "'}"),
                    dev.herald.session.CallOptions.defaults())
                .result());
      }
    }
    CompletableFuture.allOf(calls.toArray(CompletableFuture[]::new)).get(10, TimeUnit.SECONDS);

    for (int i = 0; i < 3; i++) {
      String me = "c" + i;
      assertThat(sentLogs(links.get(i)))
          .hasSize(10)
          .allSatisfy(p -> assertThat(p.data().stringValue()).endsWith("working for " + me));
      for (int k = 0; k < 10; k++) {
        assertThat(inbox.get(i).poll(5, TimeUnit.SECONDS).data().stringValue()).endsWith(me);
      }
    }
  }

  @Test
  void logsOverTheRateLimitAreDroppedAndCountedPerSession() throws Exception {
    McpServer server =
        McpServer.builder()
            .eventListenerFactory(Counts.PER_SESSION)
            .ticker(clock)
            .scheduler(clock)
            .logRateLimit(10, 3)
            .build();
    List<PipeLink> links = clients(server, 2);
    PipeLink noisy = links.get(0);
    PipeLink calm = links.get(1);

    for (int i = 0; i < 5; i++) {
      noisy.session.log(LoggingLevel.INFO, null, "n" + i);
    }
    for (int i = 0; i < 3; i++) {
      calm.session.log(LoggingLevel.INFO, null, "c" + i);
    }
    assertThat(sentLogs(noisy))
        .extracting(p -> p.data().stringValue())
        .containsExactly("n0", "n1", "n2");
    assertThat(Counts.of(noisy.session).dropped(EventListener.DropReason.RATE_LIMITED))
        .isEqualTo(2);
    assertThat(sentLogs(calm)).hasSize(3);
    assertThat(Counts.of(calm.session).dropped(EventListener.DropReason.RATE_LIMITED)).isZero();

    clock.advance(Duration.ofMillis(100)); // one token back at 10 per second
    noisy.session.log(LoggingLevel.INFO, null, "n5");
    noisy.session.log(LoggingLevel.INFO, null, "n6");
    noisy.session.log(LoggingLevel.DEBUG, null, "below level: costs no token");
    assertThat(sentLogs(noisy))
        .extracting(p -> p.data().stringValue())
        .containsExactly("n0", "n1", "n2", "n5");
    assertThat(Counts.of(noisy.session).dropped(EventListener.DropReason.RATE_LIMITED))
        .isEqualTo(3);
  }

  @Test
  void controlCharactersAreStrippedFromLogData() throws Exception {
    PipeLink link = clients(McpServer.builder().build(), 1).get(0);

    link.session.log(
        LoggingLevel.ERROR,
        "app\u001b[2J",
        Map.of("msg\u0000", "red \u001b[31malert\u0007\nnext\u202eline", "n", 3));

    LoggingMessageParams received = inbox.get(0).poll(5, TimeUnit.SECONDS);
    assertThat(received.logger()).isEqualTo("app[2J");
    assertThat(received.data().get("msg").stringValue()).isEqualTo("red [31malert nextline");
    assertThat(received.data().get("n").intValue()).isEqualTo(3);
  }
}
