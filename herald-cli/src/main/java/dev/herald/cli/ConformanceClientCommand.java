package dev.herald.cli;

import dev.herald.client.McpClient;
import dev.herald.transport.http.StreamableHttpClientTransport;
import dev.herald.wire.CallToolResult;
import dev.herald.wire.ElicitResult;
import dev.herald.wire.McpJson;
import java.net.URI;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Parameters;

/**
 * The program under test for the official conformance suite's client mode: it connects to the
 * suite's mock server at the URL it is given and acts out the scenario named by {@code
 * MCP_CONFORMANCE_SCENARIO}. Exits 0 when the scenario's actions completed. The 2026-07-28
 * scenarios are acted out by {@link ModernScenarios}.
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
    if (ModernScenarios.NAMES.contains(scenario)) {
      ModernScenarios.run(
          scenario,
          url,
          new dev.herald.wire.Implementation(
              "herald-conformance-client",
              null,
              dev.herald.cli.fixture.Version.VERSION,
              null,
              null,
              null),
          System.out);
      return 0;
    }
    McpClient.Builder builder =
        McpClient.builder()
            .info("herald-conformance-client", dev.herald.cli.fixture.Version.VERSION);
    if (scenario.startsWith("elicitation")) {
      // Accept with nothing filled in: Herald applies the schema's defaults (SEP-1034).
      builder.elicitation((params, ctx) -> ElicitResult.accept(McpJson.object()));
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
}
