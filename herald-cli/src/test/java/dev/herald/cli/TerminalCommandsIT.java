package dev.herald.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.UUID;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * {@code herald demo}, {@code list} and {@code watch} in a real pseudo-terminal (tmux), read as a
 * person would read the screen ({@code CallTerminalIT} does the same for {@code call}).
 */
@Timeout(120)
class TerminalCommandsIT {
  private static final Pattern ROW = Pattern.compile("(slow [ABC])\\s+\\[([#-]{24})\\]\\s+(\\d+)%");

  @BeforeAll
  static void tmuxIsThere() {
    assumeTrue(Tmux.available(), "tmux is installed by .ci/run");
  }

  @Test
  void demoRedrawsEachBarInPlaceMovingForwardOnlyAndEndsWithTheSummary() throws Exception {
    try (Tmux tmux = new Tmux(Cli.herald(List.of("demo", "--speed", "3"), List.of()))) {
      List<String> captures = tmux.captureUntil(s -> s.contains("EXIT="), 80, 90_000);
      Map<String, List<Integer>> percents = new TreeMap<>();
      for (String screen : captures) {
        for (String row : List.of("slow A", "slow B", "slow C", "task T", "task U")) {
          assertThat(screen.lines().filter(l -> l.stripLeading().startsWith(row + " ")).count())
              .as("%s is one line, redrawn in place", row)
              .isLessThanOrEqualTo(1);
        }
        Matcher m = ROW.matcher(screen);
        while (m.find()) {
          percents
              .computeIfAbsent(m.group(1), k -> new ArrayList<>())
              .add(Integer.parseInt(m.group(3)));
        }
      }
      assertThat(percents).containsKeys("slow A", "slow B");
      percents.forEach(
          (row, values) -> assertThat(values).as("%s never moves backwards", row).isSorted());
      assertThat(percents.get("slow A")).as("several renders of A were seen").hasSizeGreaterThan(3);
      String last = captures.get(captures.size() - 1);
      assertThat(last)
          .contains("task T       completed [########################] 100%")
          .contains("Summary: 13 tool calls")
          .contains("EXIT=0")
          .doesNotContain("Exception");
    }
  }

  @Test
  void listShowsTheCatalogOnTheScreen() throws Exception {
    String marker = "list-term-" + UUID.randomUUID();
    try (Tmux tmux = new Tmux(Cli.herald(List.of("list"), Cli.demoServer(marker)))) {
      String last = tmux.captureUntil(s -> s.contains("EXIT="), 100, 30_000).getLast();
      assertThat(last).contains("test_simple_prompt").contains("Prompts (6)").contains("EXIT=0");
      WatchCommandIT.awaitGone(marker);
    }
  }

  @Test
  void watchPrintsNotificationsUntilCtrlCAndLeavesNoProcess() throws Exception {
    String marker = "watch-term-" + UUID.randomUUID();
    try (Tmux tmux =
        new Tmux(
            Cli.herald(
                List.of("watch", "--resource", TestServer.TICKER),
                Cli.testServer("-Dtest.ticker=true", "-Dherald.it.marker=" + marker)))) {
      tmux.captureUntil(s -> s.contains("resources/updated " + TestServer.TICKER), 100, 30_000);
      tmux.sendKeys("C-c");
      String last = tmux.captureUntil(s -> s.contains("EXIT="), 100, 20_000).getLast();
      assertThat(last).contains("EXIT=130");
      WatchCommandIT.awaitGone(marker);
    }
  }
}
