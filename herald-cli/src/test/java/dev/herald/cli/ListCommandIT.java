package dev.herald.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.UUID;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** {@code herald list} against a real {@code herald serve --stdio}. */
@Timeout(60)
class ListCommandIT {

  @Test
  void listShowsEachDeclaredAreaWithNamesAndDescriptionsAligned() throws Exception {
    String marker = "list-it-" + UUID.randomUUID();
    Cli.Run run = Cli.run(Cli.herald(List.of("list"), Cli.demoServer(marker)));
    assertThat(run.exit()).as(run.err()).isZero();
    List<String> lines = run.out().lines().toList();
    assertThat(lines.get(0)).startsWith("herald-demo ");
    assertThat(lines)
        .contains("Tools (36)", "Resources (4)", "Resource templates (1)", "Prompts (6)");
    String echo = lines.stream().filter(l -> l.startsWith("  echo ")).findFirst().orElseThrow();
    String slow = lines.stream().filter(l -> l.startsWith("  slow ")).findFirst().orElseThrow();
    assertThat(echo).endsWith("Returns the given text.");
    assertThat(echo.indexOf("Returns"))
        .as("descriptions start in one column")
        .isEqualTo(slow.indexOf("Works"));
    assertThat(lines)
        .anyMatch(
            l -> l.startsWith("  demo://counter ") && l.endsWith("subscribe to hear about it."));
    assertThat(lines).anyMatch(l -> l.startsWith("  test://template/{id}/data "));
    assertThat(lines)
        .anyMatch(l ->
            l.startsWith("  test_simple_prompt ")
                && l.endsWith("A simple prompt without arguments"));
    assertThat(Cli.anyProcessWith(marker)).isFalse();
  }

  @Test
  void missingTargetIsAUsageErrorInOneLine() throws Exception {
    Cli.Run run = Cli.run(Cli.herald(List.of("list"), List.of()));
    assertThat(run.exit()).isEqualTo(2);
    assertThat(run.errLines()).singleElement().asString().startsWith("herald: name the server:");
  }
}
