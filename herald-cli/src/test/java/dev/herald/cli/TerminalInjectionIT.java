package dev.herald.cli;

import static org.assertj.core.api.Assertions.assertThat;

import dev.herald.wire.McpJson;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import tools.jackson.databind.JsonNode;

/**
 * A server cannot rewrite the user's terminal through {@code herald call}, {@code herald list} or
 * {@code herald watch}: every string it sends is printed without escape sequences, C0/C1 controls
 * or bidirectional overrides ({@link EvilServer} puts them in every field), and JSON output stays
 * exact JSON with such characters escaped.
 */
@Timeout(60)
class TerminalInjectionIT {

  /** No ESC, no other C0 control but LF and TAB, no DEL, no C1 control, no bidi control. */
  private static void assertTerminalSafe(String printed, String what) {
    for (int i = 0; i < printed.length(); i++) {
      char c = printed.charAt(i);
      boolean control = (c < 0x20 && c != '\n' && c != '\t') || (c >= 0x7f && c <= 0x9f);
      boolean bidi =
          (c >= 0x202a && c <= 0x202e)
              || (c >= 0x2066 && c <= 0x2069)
              || c == 0x200e
              || c == 0x200f;
      assertThat(control || bidi)
          .as(
              "%s holds U+%04X at %d: %s",
              what,
              (int) c,
              i,
              printed.substring(Math.max(0, i - 20), Math.min(printed.length(), i + 20)))
          .isFalse();
    }
  }

  private static Cli.Run herald(String... args) throws Exception {
    return Cli.run(Cli.herald(List.of(args), Cli.testMain(EvilServer.class)));
  }

  @Test
  void callPrintsTheResultAndLogsOfAHostileServerWithoutTerminalControls() throws Exception {
    Cli.Run run = herald("call", "evil");

    assertThat(run.exit()).isZero();
    assertTerminalSafe(run.out(), "stdout");
    assertTerminalSafe(run.err(), "stderr");
    assertThat(run.out().lines().toList())
        .as("the text's own line break and tab are kept")
        .contains("second line\tend")
        .anySatisfy(l ->
            assertThat(l)
                .startsWith("first line red ")
                .contains(" link ")
                .contains("right-to-left")
                .doesNotContain("title"))
        .anySatisfy(l -> assertThat(l).startsWith("embedded red"));
    assertThat(run.err()).contains("log [error] lg").contains("working red");
  }

  @Test
  void anErrorMessageFromAHostileServerIsPrintedWithoutTerminalControls() throws Exception {
    Cli.Run run = herald("call", "fail");

    assertThat(run.exit()).isEqualTo(1);
    assertTerminalSafe(run.out(), "stdout");
    assertTerminalSafe(run.err(), "stderr");
    assertThat(run.err()).contains("failed red");
  }

  @Test
  void jsonOutputIsExactJsonWithTheControlsEscaped() throws Exception {
    Cli.Run run = herald("call", "evil", "--output", "json");

    assertThat(run.exit()).isZero();
    assertTerminalSafe(run.out(), "stdout");
    assertTerminalSafe(run.err(), "stderr");
    JsonNode out = McpJson.mapper().readTree(run.out());
    assertThat(out.get("result").get("content").get(0).get("text").asString())
        .as("the exact text, escaped by the encoder")
        .isEqualTo("first line " + EvilServer.NASTY + "\nsecond line\tend");
  }

  @Test
  void listPrintsTheServersNameAndToolsWithoutTerminalControls() throws Exception {
    Cli.Run run = herald("list");

    assertThat(run.exit()).isZero();
    assertTerminalSafe(run.out(), "stdout");
    assertTerminalSafe(run.err(), "stderr");
    assertThat(run.out()).startsWith("evilred").contains("tool red");
  }

  @Test
  void watchPrintsNotificationsAndTheServersNameWithoutTerminalControls() throws Exception {
    Cli.Run run =
        Cli.run(
            Cli.herald(List.of("watch"), Cli.testMain(EvilServer.class, "-Devil.exit.ms=1500")));

    assertThat(run.exit()).isEqualTo(1);
    assertTerminalSafe(run.out(), "stdout");
    assertTerminalSafe(run.err(), "stderr");
    assertThat(run.err()).contains("watching evilred");
    assertThat(run.out()).contains("log [error] lgred").contains("tools/list_changed");
  }
}
