package dev.herald.bench;

import dev.herald.http.McpHttpServer;
import dev.herald.server.McpServer;
import dev.herald.wire.CallToolResult;
import dev.herald.wire.Tool;

/**
 * The child JVM of {@link CallsHarness}: Herald's demo-style server with one {@code echo} tool, on
 * 127.0.0.1 (any free port) over Streamable HTTP, serving both protocol eras on one endpoint (the
 * default). Steered by lines on stdin: {@code cpu} answers the process CPU time in nanoseconds
 * ({@code OperatingSystemMXBean.getProcessCpuTime}), {@code quit} stops it. End of stdin or the
 * time limit ends the process.
 */
final class CallsServer {
  private CallsServer() {}

  /** {@code <timeLimitSeconds>} */
  public static void main(String[] args) throws Exception {
    long limitSeconds = Long.parseLong(args[0]);
    Thread.ofPlatform()
        .daemon()
        .start(() -> {
          try {
            Thread.sleep(limitSeconds * 1000 + 2_000);
            System.err.println("calls child: time limit reached");
            Runtime.getRuntime().halt(3);
          } catch (InterruptedException ignored) {
            // not reached
          }
        });
    McpServer mcp =
        McpServer.builder()
            .info("calls-bench", "1")
            .tool(
                Tool.builder("echo").description("Returns the text").build(),
                call -> CallToolResult.text(call.arguments().path("text").asString("")))
            .build();
    McpHttpServer http = McpHttpServer.builder().server(mcp).build().start();
    ChildServer.serve(http);
  }
}
