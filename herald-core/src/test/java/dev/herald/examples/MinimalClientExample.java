package dev.herald.examples;

import dev.herald.client.McpClient;
import dev.herald.transport.stdio.SubprocessTransport;
import dev.herald.wire.CallToolResult;
import dev.herald.wire.McpJson;
import dev.herald.wire.Tool;
import java.util.List;
import java.util.Map;

/**
 * The smallest useful MCP client: starts a server as a subprocess, lists its tools and calls one.
 * It imports from three Herald packages, {@code dev.herald.client}, {@code
 * dev.herald.transport.stdio} and {@code dev.herald.wire} ({@link MinimalExamplesTest} keeps it
 * at three at most, all exported). Progress listeners and timeouts add {@code dev.herald.session}
 * ({@code CallOptions}).
 */
public final class MinimalClientExample {
  private MinimalClientExample() {}

  /** Connects to the server started by {@code serverCommand}; returns its tool names and one call's text. */
  static String run(List<String> serverCommand) throws InterruptedException {
    try (McpClient client =
        McpClient.builder()
            .info("minimal-client", "1.0.0")
            .connect(SubprocessTransport.builder(serverCommand).build())) {
      List<String> tools = client.listTools().stream().map(Tool::name).toList();
      CallToolResult result = client.callTool("count", McpJson.toObject(Map.of("to", 3)));
      return tools + " " + result.firstText();
    }
  }

  public static void main(String[] args) throws InterruptedException {
    System.out.println(run(List.of(args)));
  }
}
