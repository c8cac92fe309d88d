package dev.herald.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** {@code herald call} in a real pseudo-terminal (tmux): the animated bar, and Ctrl-C. */
@Timeout(60)
class CallTerminalIT {
  private static final Pattern DETERMINATE =
      Pattern.compile("slow \\[([#-]{24})\\] +(\\d+)% \\((\\d+)/25 steps\\) ");
  private static final Pattern INDETERMINATE =
      Pattern.compile("spin \\[[|/\\\\-]\\] (\\d+) so far, (\\d+\\.\\d)s  turn (\\d+)");

  @BeforeAll
  static void needsTmux() {
    assumeTrue(Tmux.available(), "tmux is not installed");
  }

  @Test
  void barMovesForwardOnlyAndReachesTheFinalValueBeforeTheResult() throws Exception {
    String marker = "term-it-" + UUID.randomUUID();
    try (Tmux tmux =
        new Tmux(
            Cli.herald(
                List.of("call", "slow", "steps=25", "delayMs=120", "--unit", "steps"),
                Cli.demoServer(marker)))) {
      List<String> captures = tmux.captureUntil(s -> s.contains("EXIT="), 100, 20_000);
      List<Integer> values = new ArrayList<>();
      List<Integer> cells = new ArrayList<>();
      for (String screen : captures) {
        Matcher m = DETERMINATE.matcher(screen);
        if (m.find()) {
          values.add(Integer.parseInt(m.group(3)));
          cells.add((int) m.group(1).chars().filter(c -> c == '#').count());
          assertThat(screen.lines().filter(l -> l.contains("slow [")).count())
              .as("one bar line, redrawn in place")
              .isEqualTo(1);
        }
      }
      assertThat(values.stream().distinct().count())
          .as("several distinct renders were sampled: %s", values)
          .isGreaterThanOrEqualTo(3);
      assertThat(values).as("progress never moves backwards").isSorted();
      assertThat(cells).as("the bar never shrinks").isSorted();
      String last = captures.get(captures.size() - 1);
      List<String> screen = last.lines().filter(l -> !l.isBlank()).toList();
      assertThat(screen).hasSize(3);
      assertThat(screen.subList(1, 3)).containsExactly("completed 25 steps", "EXIT=0");
      assertThat(screen.get(0))
          .startsWith("slow [########################] 100% (25/25 steps) ")
          .endsWith("step 25 of 25");
      WatchCommandIT.awaitGone(marker);
    }
  }

  @Test
  void ctrlCCancelsTheCallOnTheWireStopsTheServerAndExits130() throws Exception {
    String marker = "ctrlc-it-" + UUID.randomUUID();
    Path cancelled = Files.createTempFile("herald-cancelled", ".txt");
    Files.delete(cancelled);
    // setsid: the server does not get the terminal's SIGINT, so only herald's own clean-up can stop
    // it
    List<String> server = new ArrayList<>(List.of("setsid"));
    server.addAll(
        Cli.testServer("-Dherald.it.marker=" + marker, "-Dtest.cancelled.file=" + cancelled));
    try (Tmux tmux = new Tmux(Cli.herald(List.of("call", "spin"), server))) {
      List<String> captures =
          tmux.captureUntil(
              s -> {
                Matcher m = INDETERMINATE.matcher(s);
                return m.find() && Integer.parseInt(m.group(1)) >= 5;
              },
              100,
              20_000);
      // an honest spinner: no percentage, the count so far, a clock that moves, the latest message
      List<Double> clock = new ArrayList<>();
      for (String s : captures) {
        Matcher m = INDETERMINATE.matcher(s);
        if (m.find()) {
          assertThat(m.group(1)).isEqualTo(m.group(3));
          clock.add(Double.parseDouble(m.group(2)));
        }
        assertThat(s).doesNotContain("%");
      }
      assertThat(clock).isSorted();
      assertThat(clock.get(clock.size() - 1)).isGreaterThan(clock.get(0));

      tmux.sendKeys("C-c");
      String end = tmux.captureUntil(s -> s.contains("EXIT="), 100, 15_000).getLast();
      assertThat(end).contains("cancelled").contains("EXIT=130").doesNotContain("Exception");
      WatchCommandIT.awaitGone(marker);
      assertThat(Files.readString(cancelled, StandardCharsets.UTF_8))
          .as("the server saw notifications/cancelled with herald's reason")
          .isEqualTo("cancelled by the user (Ctrl-C)");
    } finally {
      Files.deleteIfExists(cancelled);
    }
  }
}
