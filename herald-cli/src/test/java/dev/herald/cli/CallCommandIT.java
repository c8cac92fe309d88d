package dev.herald.cli;

import static org.assertj.core.api.Assertions.assertThat;

import dev.herald.wire.McpJson;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.UUID;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import tools.jackson.databind.JsonNode;

/** {@code herald call} without a terminal: plain lines, the result on stdout, one-line errors. */
@Timeout(60)
class CallCommandIT {
  private final String marker = "call-it-" + UUID.randomUUID();

  private Cli.Run call(String... args) throws Exception {
    return Cli.run(Cli.herald(List.of(args), Cli.demoServer(marker)));
  }

  @Test
  void resultGoesToStdoutAndProgressToStderrAsPlainLines() throws Exception {
    Cli.Run run =
        Cli.run(
            Cli.herald(
                List.of("call", "slow", "steps=4", "delayMs=60", "--unit", "steps"),
                Cli.demoServer(marker)));
    assertThat(run.exit()).as(run.err()).isZero();
    assertThat(run.out()).isEqualTo("completed 4 steps" + System.lineSeparator());
    assertThat(run.err()).contains("slow 100% (4/4 steps)").contains("step 4 of 4");
    assertThat(run.err() + run.out())
        .as("no animation without a terminal")
        .doesNotContain("\r", "\033");
    assertThat(Cli.anyProcessWith(marker)).isFalse();
  }

  @Test
  void logMessagesArePrintedAsLines() throws Exception {
    Cli.Run run = call("call", "emit_logs", "count=2", "logger=it");
    assertThat(run.exit()).as(run.err()).isZero();
    assertThat(run.err().lines())
        .contains("log [info] it: log message 1 of 2", "log [info] it: log message 2 of 2");
    assertThat(run.out()).isEqualTo("sent 2 info messages" + System.lineSeparator());
  }

  @Test
  void jsonOutputIsOneObjectWithTheResultAndTheProgressRecord() throws Exception {
    Cli.Run run =
        call("call", "slow", "--json", "{\"steps\": 3}", "delayMs=20", "--output", "json");
    assertThat(run.exit()).as(run.err()).isZero();
    JsonNode json = McpJson.mapper().readTree(run.out());
    assertThat(json.get("result").get("content").get(0).get("text").stringValue())
        .isEqualTo("completed 3 steps");
    JsonNode progress = json.get("progress");
    assertThat(progress.get("accepted").longValue())
        .isBetween(1L, 3L); // the sender coalesces within 50 ms
    assertThat(progress.get("rejected").longValue()).isZero();
    assertThat(progress.get("rendered").longValue()).isPositive();
    assertThat(progress.get("lastProgress").doubleValue()).isEqualTo(3.0);
    assertThat(progress.get("totalKnown").booleanValue()).isTrue();
    assertThat(progress.get("terminal").stringValue()).isEqualTo("response");
    assertThat(progress.get("elapsedMs").longValue()).isNotNegative();
    assertThat(run.out().lines()).hasSize(1);
  }

  @Test
  void valuesAreTypedByTheToolsInputSchema() throws Exception {
    Cli.Run echo = call("call", "echo", "text=5");
    assertThat(echo.exit()).as(echo.err()).isZero();
    assertThat(echo.out())
        .isEqualTo("5" + System.lineSeparator()); // a string property keeps "5" a string
    Cli.Run wrongType = call("call", "slow", "steps=many");
    assertThat(wrongType.exit()).isEqualTo(2);
    assertThat(wrongType.errLines())
        .containsExactly("herald: argument 'steps' must be an integer, not 'many'");
  }

  @Test
  void unknownToolIsOneLineAndExitOne() throws Exception {
    Cli.Run run = call("call", "no_such_tool");
    assertThat(run.exit()).isEqualTo(1);
    assertThat(run.errLines())
        .containsExactly(
            "herald: the server refused the request: Unknown tool: no_such_tool (error -32602)");
    assertThat(run.out()).isEmpty();
  }

  @Test
  void malformedKeyValueExitsTwoWithOneLine() throws Exception {
    Cli.Run noValue = call("call", "echo", "novalue");
    assertThat(noValue.exit()).isEqualTo(2);
    assertThat(noValue.errLines())
        .singleElement()
        .asString()
        .startsWith("herald: bad argument 'novalue': expected key=value");
    Cli.Run noKey = call("call", "echo", "=x");
    assertThat(noKey.exit()).isEqualTo(2);
    assertThat(noKey.errLines())
        .singleElement()
        .asString()
        .startsWith("herald: bad argument '=x': the key before '=' is empty");
    Cli.Run badJson = call("call", "echo", "--json", "[1]");
    assertThat(badJson.exit()).isEqualTo(2);
    assertThat(badJson.errLines()).hasSize(1);
  }

  @Test
  void unstartableServerIsOneLineAndExitOne() throws Exception {
    Cli.Run run =
        Cli.run(Cli.herald(List.of("call", "echo", "text=hi"), List.of("/nonexistent/mcp-server")));
    assertThat(run.exit()).isEqualTo(1);
    assertThat(run.errLines())
        .singleElement()
        .asString()
        .startsWith("herald: cannot connect to /nonexistent/mcp-server: ");
  }

  @Test
  void unreachableUrlIsOneLineAndExitOne() throws Exception {
    Cli.Run run = Cli.run(Cli.herald(List.of("call", "http://127.0.0.1:9/mcp", "echo"), List.of()));
    assertThat(run.exit()).isEqualTo(1);
    assertThat(run.errLines()).hasSize(1);
    assertThat(run.errLines().get(0))
        .startsWith("herald: ")
        .contains("http://127.0.0.1:9/mcp")
        .contains("connection refused");
  }

  @Test
  void serverDyingMidCallIsOneLineAndExitOne() throws Exception {
    Cli.Run run = Cli.run(Cli.herald(List.of("call", "die"), Cli.testServer()));
    assertThat(run.exit()).isEqualTo(1);
    assertThat(run.err().lines().filter(l -> l.startsWith("herald:")).toList())
        .containsExactly(
            "herald: the server went away during the call: connection closed (server exited with code 3)");
    assertThat(run.err()).doesNotContain("Exception", "\tat ");
  }

  @Test
  void absoluteTimeoutExits124WithOneLine() throws Exception {
    Cli.Run run = call("call", "slow", "steps=100", "delayMs=100", "--timeout", "700ms");
    assertThat(run.exit()).isEqualTo(124);
    assertThat(run.err().lines().filter(l -> l.startsWith("herald:")).toList())
        .containsExactly(
            "herald: timed out: no result within 700ms (--timeout); the call was cancelled");
  }

  @Test
  void absoluteTimeoutSendsTheCancellationBeforeTheCliExits() throws Exception {
    String server = "timeout-it-" + UUID.randomUUID();
    Path cancelled = Files.createTempFile("herald-cancelled", ".txt");
    Files.delete(cancelled);
    try {
      // spin reports progress every 100 ms until cancelled: the deadline fires while progress
      // arrives
      Cli.Run run =
          Cli.run(
              Cli.herald(
                  List.of("call", "spin", "--timeout", "1s"),
                  Cli.testServer(
                      "-Dherald.it.marker=" + server, "-Dtest.cancelled.file=" + cancelled)));
      assertThat(run.exit()).isEqualTo(124);
      WatchCommandIT.awaitGone(server);
      assertThat(Files.exists(cancelled))
          .as("the server's handler was cancelled before it went away")
          .isTrue();
      assertThat(Files.readString(cancelled, StandardCharsets.UTF_8))
          .as(
              "the server saw notifications/cancelled with herald's reason, not just the end of its input")
          .isEqualTo("timeout");
    } finally {
      Files.deleteIfExists(cancelled);
    }
  }

  @Test
  void toolErrorResultGoesToStderrWithExitOne() throws Exception {
    Cli.Run run = call("call", "test_error_handling");
    assertThat(run.exit()).isEqualTo(1);
    assertThat(run.out()).isEmpty();
    assertThat(run.errLines())
        .containsExactly("This tool intentionally returns an error for testing");
  }
}
