package dev.herald.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.herald.testing.HeraldJar;
import dev.herald.wire.McpJson;
import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import tools.jackson.databind.JsonNode;

/**
 * {@code herald call --task} and {@code herald tasks list|get|cancel} as real processes: over
 * stdio against {@code herald serve --stdio} in both eras, and over Streamable HTTP against
 * {@code herald serve --port 0}, where a task one process started is seen and cancelled by
 * another (2026-07-28: the task id is the capability).
 */
@Timeout(120)
class TaskCommandsIT {
  private static final Pattern TASK_LINE = Pattern.compile("(?m)^task (\\S+)$");

  private final String marker = "task-it-" + UUID.randomUUID();
  private Process server;
  private String url;

  @BeforeEach
  void startServer() throws Exception {
    server = new ProcessBuilder(HeraldJar.command(List.of(), "serve", "--port", "0")).start();
    BufferedReader err =
        new BufferedReader(new InputStreamReader(server.getErrorStream(), StandardCharsets.UTF_8));
    String line = err.readLine();
    assertThat(line).contains("serving the demo fixture on http://127.0.0.1:");
    url = line.substring(line.indexOf("http://"), line.indexOf(" (legacy"));
    Thread.ofVirtual().start(() -> err.lines().forEach(l -> System.err.println("[serve] " + l)));
  }

  @AfterEach
  void stopServer() throws Exception {
    server.destroy();
    server.waitFor(10, TimeUnit.SECONDS);
  }

  private Cli.Run stdio(String... args) throws Exception {
    return Cli.run(Cli.herald(List.of(args), Cli.demoServer(marker)));
  }

  private static Cli.Run http(String... args) throws Exception {
    return Cli.run(Cli.herald(List.of(args), List.of()));
  }

  @ParameterizedTest
  @ValueSource(strings = {"handshake", "modern"})
  void aTaskRunsToItsResultWithItsStatusAndProgressOverStdio(String era) throws Exception {
    Cli.Run run = stdio("call", "--task", "--era", era, "slow_compute", "seconds=1", "label=cli");
    assertThat(run.exit()).as(run.err()).isZero();
    assertThat(run.out()).isEqualTo("cli: computed for 1 s" + System.lineSeparator());
    assertThat(run.err())
        .containsPattern(TASK_LINE)
        .contains("slow_compute: completed")
        .contains("100% (4/4)")
        .doesNotContain("Exception");
    assertThat(run.err().indexOf("100% (4/4)"))
        .as("the last progress value is drawn before the terminal status")
        .isLessThan(run.err().indexOf("slow_compute: completed"));
    assertThat(run.err() + run.out()).doesNotContain("\r", "\033");
    assertThat(Cli.anyProcessWith(marker)).isFalse();
  }

  @ParameterizedTest
  @ValueSource(strings = {"handshake", "modern"})
  void theExitCodeIsTheTasksOutcome(String era) throws Exception {
    Cli.Run toolError = stdio("call", "--task", "--era", era, "failing_job");
    assertThat(toolError.exit()).as(toolError.err()).isEqualTo(1);
    assertThat(toolError.err()).contains("failing_job failed, as it always does");
    assertThat(toolError.out()).isEmpty();

    Cli.Run protocolError = stdio("call", "--task", "--era", era, "protocol_error_job");
    assertThat(protocolError.exit()).as(protocolError.err()).isEqualTo(1);
    assertThat(protocolError.errLines())
        .contains(
            "herald: the task failed: protocol_error_job failed with a protocol error (error -32603)");

    // A tool that never runs as a task: the handshake-era client refuses before sending; a
    // 2026-07-28 server decides itself and answers at once.
    Cli.Run forbidden = stdio("call", "--task", "--era", era, "greet", "name=x");
    if (era.equals("handshake")) {
      assertThat(forbidden.exit()).as(forbidden.err()).isEqualTo(1);
      assertThat(forbidden.errLines()).hasSize(1);
      assertThat(forbidden.err()).startsWith("herald: ").doesNotContain("Exception");
    } else {
      assertThat(forbidden.exit()).as(forbidden.err()).isZero();
      assertThat(forbidden.out()).isEqualTo("Hello, x!" + System.lineSeparator());
      assertThat(forbidden.err()).contains("the server answered at once, without a task");
    }
  }

  @Test
  void jsonOutputCarriesTheTaskBesideTheResult() throws Exception {
    Cli.Run run =
        stdio(
            "call",
            "--task",
            "--era",
            "handshake",
            "slow_compute",
            "seconds=0.5",
            "--output",
            "json");
    assertThat(run.exit()).as(run.err()).isZero();
    JsonNode json = McpJson.mapper().readTree(run.out());
    assertThat(json.at("/task/status").stringValue()).isEqualTo("completed");
    assertThat(json.at("/task/taskId").stringValue()).isNotBlank();
    assertThat(json.at("/result/content/0/text").stringValue())
        .isEqualTo("slow_compute: computed for 0.5 s");
    assertThat(json.at("/progress/lastProgress").doubleValue()).isEqualTo(2.0);
  }

  @Test
  void aTaskStartedByOneProcessIsShownAndCancelledByAnotherOverHttp() throws Exception {
    Process caller =
        new ProcessBuilder(
                Cli.herald(
                    List.of("call", "--task", url, "slow_compute", "seconds=60", "label=long"),
                    List.of()))
            .start();
    caller.getOutputStream().close();
    CompletableFuture<String> callerOut = read(caller.getInputStream());
    BufferedReader callerErr =
        new BufferedReader(new InputStreamReader(caller.getErrorStream(), StandardCharsets.UTF_8));
    String taskId = null;
    StringBuilder seen = new StringBuilder();
    for (String line; taskId == null && (line = callerErr.readLine()) != null; ) {
      seen.append(line).append('\n');
      Matcher m = TASK_LINE.matcher(line);
      if (m.matches()) {
        taskId = m.group(1);
      }
    }
    assertThat(taskId).as("the caller printed the task id: %s", seen).isNotNull();

    Cli.Run get = http("tasks", "get", url, taskId);
    assertThat(get.exit()).as(get.err()).isZero();
    assertThat(get.out())
        .contains("task " + taskId)
        .containsPattern("status +(working|input_required)")
        .contains("poll interval");

    Cli.Run cancel = http("tasks", "cancel", url, taskId);
    assertThat(cancel.exit()).as(cancel.err()).isZero();
    assertThat(cancel.out()).contains("tasks/cancel sent").containsPattern("status +cancelled");

    assertThat(caller.waitFor(30, TimeUnit.SECONDS)).isTrue();
    String rest = seen + callerErr.lines().reduce("", (a, b) -> a + b + "\n");
    assertThat(caller.exitValue()).as(rest).isEqualTo(1);
    assertThat(rest).contains("herald: the task was cancelled");
    assertThat(callerOut.join()).isEmpty();

    Cli.Run json = http("tasks", "get", url, taskId, "--output", "json");
    assertThat(json.exit()).as(json.err()).isZero();
    JsonNode t = McpJson.mapper().readTree(json.out());
    assertThat(t.get("taskId").stringValue()).isEqualTo(taskId);
    assertThat(t.get("status").stringValue()).isEqualTo("cancelled");
  }

  @Test
  void aTaskIdBeginningWithADashIsAnIdNotAnUnknownOption() throws Exception {
    // Herald's own ids never begin with '-', other servers' may (URL-safe base64 does)
    for (String command : new String[] {"get", "cancel"}) {
      Cli.Run run = http("tasks", command, url, "-QSVJE8K1J2QVcOgjd1nDw");
      assertThat(run.exit()).as(run.err()).isEqualTo(1); // the server's answer, not a usage error
      assertThat(run.err()).contains("-32602").doesNotContain("Unknown option");
    }
  }

  @Test
  void anUnknownTaskIsRefusedWithOneLine() throws Exception {
    Cli.Run get = http("tasks", "get", url, "no-such-task");
    assertThat(get.exit()).isEqualTo(1);
    assertThat(get.errLines()).hasSize(1);
    assertThat(get.err()).startsWith("herald: ").contains("-32602").doesNotContain("Exception");
  }

  @Test
  void tasksListShowsTheSessionsTasksInTheHandshakeEraAndExplainsTheModernOne() throws Exception {
    Cli.Run handshake = http("tasks", "list", "--era", "handshake", url);
    assertThat(handshake.exit()).as(handshake.err()).isZero();
    assertThat(handshake.out()).startsWith("Tasks (0)");

    Cli.Run modern = http("tasks", "list", "--era", "modern", url);
    assertThat(modern.exit()).isEqualTo(1);
    assertThat(modern.errLines()).hasSize(1);
    assertThat(modern.err()).startsWith("herald: ").doesNotContain("Exception");
  }

  @Test
  void ctrlCSendsTasksCancelAndExits130() throws Exception {
    assumeTrue(Tmux.available(), "tmux is not installed");
    try (Tmux tmux =
        new Tmux(
            Cli.herald(
                List.of("call", "--task", url, "slow_compute", "seconds=60", "label=ctrl-c"),
                List.of()))) {
      String screen =
          tmux.captureUntil(
                  s -> TASK_LINE.matcher(s).find() && s.contains("slow_compute working ["),
                  100,
                  20_000)
              .getLast();
      Matcher m = TASK_LINE.matcher(screen);
      assertThat(m.find()).isTrue();
      String taskId = m.group(1);
      tmux.sendKeys("C-c");
      String end = tmux.captureUntil(s -> s.contains("EXIT="), 100, 20_000).getLast();
      assertThat(end).contains("cancelled").contains("EXIT=130").doesNotContain("Exception");

      Cli.Run get = http("tasks", "get", url, taskId);
      assertThat(get.exit()).as(get.err()).isZero();
      assertThat(get.out())
          .as("Ctrl-C sent tasks/cancel before the process ended")
          .containsPattern("status +cancelled");
    }
  }

  private static CompletableFuture<String> read(java.io.InputStream in) {
    return CompletableFuture.supplyAsync(
        () -> {
          try (in) {
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
          } catch (java.io.IOException e) {
            return "";
          }
        },
        r -> Thread.ofVirtual().start(r));
  }
}
