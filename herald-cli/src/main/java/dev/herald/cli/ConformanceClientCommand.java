package dev.herald.cli;

import dev.herald.client.McpClient;
import dev.herald.transport.http.StreamableHttpClientTransport;
import dev.herald.wire.CallToolResult;
import dev.herald.wire.ElicitResult;
import dev.herald.wire.McpJson;
import dev.herald.wire.ProtocolVersion;
import java.net.URI;
import java.util.Optional;
import java.util.concurrent.Callable;
import org.jspecify.annotations.Nullable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Parameters;

/**
 * The program under test for the official conformance suite's client mode: it connects to the
 * suite's mock server at the URL it is given and acts out the scenario named by {@code
 * MCP_CONFORMANCE_SCENARIO}. Exits 0 when the scenario's actions completed. Every scenario runs on
 * an ordinary {@link McpClient}, pinned to the version in {@code MCP_CONFORMANCE_PROTOCOL_VERSION}
 * when that is a 2026-07-28-era one; the 2026-07-28 scenarios are acted out by {@link
 * ModernScenarios}, the {@code auth/*} ones by {@link AuthScenarios}.
 */
@Command(
    name = "conformance-client",
    hidden = true,
    description = "Act out an MCP conformance client scenario (MCP_CONFORMANCE_SCENARIO).")
final class ConformanceClientCommand implements Callable<Integer> {
  @Parameters(index = "0", description = "The mock server's URL, given by the suite.")
  URI url;

  @Override
  public Integer call() throws Exception {
    String scenario = System.getenv().getOrDefault("MCP_CONFORMANCE_SCENARIO", "initialize");
    McpClient.Builder builder =
        McpClient.builder()
            .info("herald-conformance-client", dev.herald.cli.fixture.Version.VERSION);
    pinnedVersion(System.getenv("MCP_CONFORMANCE_PROTOCOL_VERSION"))
        .ifPresent(builder::protocolVersion);
    if (AuthScenarios.handles(scenario)) {
      AuthScenarios.run(scenario, url, builder, System.out);
      return 0;
    }
    boolean modern = ModernScenarios.NAMES.contains(scenario);
    if (modern || scenario.startsWith("elicitation")) {
      // Accept with nothing filled in: Herald applies the schema's defaults (SEP-1034).
      builder.elicitation((params, ctx) -> ElicitResult.accept(McpJson.object()));
    }
    if (modern) {
      try (McpClient client = builder.connect(new StreamableHttpClientTransport(url))) {
        ModernScenarios.run(scenario, client, System.out);
      }
      return 0;
    }
    try (McpClient client = builder.connect(new StreamableHttpClientTransport(url))) {
      switch (scenario) {
        case "initialize" -> client.ping();
        case "tools_call" -> {
          client.tools();
          CallToolResult r = client.callTool("add_numbers", DemoCommand.args("a", 5, "b", 3));
          System.out.println(r.firstText());
        }
        case "elicitation-sep1034-client-defaults" -> {
          client.tools();
          System.out.println(
              client.callTool("test_client_elicitation_defaults", McpJson.object()).firstText());
        }
        case "sse-retry" ->
            System.out.println(client.callTool("test_reconnection", McpJson.object()).firstText());
        default -> {
          System.err.println(
              "herald: unknown conformance scenario "
                  + scenario
                  + "; connecting and listing tools only");
          client.tools();
        }
      }
    }
    return 0;
  }

  /**
   * The version the suite asks for ({@code MCP_CONFORMANCE_PROTOCOL_VERSION}) when it is a
   * 2026-07-28-era one: the client is pinned to it. For any other (the suite names 2025-11-25 for
   * the handshake-era scenarios) the client stays on {@link dev.herald.client.EraPreference#LATEST},
   * probing with {@code server/discover} and falling back to the handshake.
   */
  static Optional<ProtocolVersion> pinnedVersion(@Nullable String named) {
    return Optional.ofNullable(named)
        .flatMap(ProtocolVersion::parse)
        .filter(v -> v.era() == ProtocolVersion.Era.MODERN);
  }
}
