package dev.herald.examples;

import dev.herald.server.McpServer;
import dev.herald.wire.CallToolResult;

/**
 * The smallest useful MCP server: one typed tool that honours cancellation and reports progress,
 * served on stdin/stdout. It imports from two Herald packages, {@code dev.herald.server} and
 * {@code dev.herald.wire} ({@link MinimalExamplesTest} keeps it at three at most, all exported).
 */
public final class MinimalServerExample {
  private MinimalServerExample() {}

  /** The tool's arguments; the input schema is derived from the record. */
  record Count(int to) {}

  static McpServer server() {
    return McpServer.builder()
        .info("minimal-server", "1.0.0")
        .tool(
            "count",
            "Counts to a number, reporting progress",
            Count.class,
            (args, context) -> {
              for (int i = 1; i <= args.to(); i++) {
                context.cancellation().throwIfCancelled();
                context.progress().report(i, (double) args.to(), "counted " + i);
              }
              return CallToolResult.text("counted to " + args.to());
            })
        .build();
  }

  public static void main(String[] args) throws InterruptedException {
    server().serveStdio();
  }
}
