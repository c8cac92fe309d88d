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
    int tools = count(lines, "Tools");
    assertThat(lines.stream().filter(l -> l.startsWith("  ") && !l.startsWith("   ")).count())
        .as("one row per tool, resource, template and prompt")
        .isEqualTo(tools + 4 + 1 + 6);
    assertThat(tools).isGreaterThanOrEqualTo(36);
    assertThat(lines).contains("Resources (4)", "Resource templates (1)", "Prompts (6)");
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
  void listAgainstADualEraServerSpeaks2026AndSaysSo() throws Exception {
    Cli.Run run = Cli.run(Cli.herald(List.of("list"), Cli.demoServer("list-dual")));
    assertThat(run.exit()).as(run.err()).isZero();
    assertThat(run.out().lines().findFirst().orElseThrow())
        .startsWith("herald-demo ")
        .endsWith(", protocol 2026-07-28 (modern era)");
  }

  @Test
  void listAgainstAHandshakeOnlyServerFallsBackTo2025AndSaysSo() throws Exception {
    List<String> server = new java.util.ArrayList<>(Cli.demoServer("list-handshake"));
    server.addAll(List.of("--eras", "handshake"));
    Cli.Run run = Cli.run(Cli.herald(List.of("list"), server));
    assertThat(run.exit()).as(run.err()).isZero();
    List<String> lines = run.out().lines().toList();
    assertThat(lines.get(0)).endsWith(", protocol 2025-11-25 (handshake era)");
    assertThat(count(lines, "Tools")).isGreaterThanOrEqualTo(36);
  }

  @Test
  void eraHandshakePinsTheHandshakeWithADualEraServer() throws Exception {
    Cli.Run run =
        Cli.run(Cli.herald(List.of("list", "--era", "handshake"), Cli.demoServer("list-pin")));
    assertThat(run.exit()).as(run.err()).isZero();
    assertThat(run.out().lines().findFirst().orElseThrow())
        .endsWith(", protocol 2025-11-25 (handshake era)");
  }

  @Test
  void eraModernAgainstAHandshakeOnlyServerFailsToConnect() throws Exception {
    List<String> server = new java.util.ArrayList<>(Cli.demoServer("list-modern"));
    server.addAll(List.of("--eras", "handshake"));
    Cli.Run run = Cli.run(Cli.herald(List.of("list", "--era", "modern"), server));
    assertThat(run.exit()).isEqualTo(1);
    assertThat(run.err()).contains("herald: cannot connect to").contains("2026-07-28");
  }

  /** The count in a section's title line, {@code "Tools (36)"}. */
  private static int count(List<String> lines, String title) {
    String line = lines.stream().filter(l -> l.startsWith(title + " (")).findFirst().orElseThrow();
    return Integer.parseInt(line.substring(title.length() + 2, line.length() - 1));
  }

  @Test
  void missingTargetIsAUsageErrorInOneLine() throws Exception {
    Cli.Run run = Cli.run(Cli.herald(List.of("list"), List.of()));
    assertThat(run.exit()).isEqualTo(2);
    assertThat(run.errLines()).singleElement().asString().startsWith("herald: name the server:");
  }
}
