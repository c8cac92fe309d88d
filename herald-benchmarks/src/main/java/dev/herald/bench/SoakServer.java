package dev.herald.bench;

import dev.herald.http.McpHttpServer;
import dev.herald.server.McpServer;
import dev.herald.server.RequestContext;
import dev.herald.server.TaskStart;
import dev.herald.wire.CallToolResult;
import dev.herald.wire.LoggingLevel;
import dev.herald.wire.TaskSupport;
import dev.herald.wire.Tool;
import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.time.Duration;

/**
 * The child JVM of {@link SoakHarness}: a Herald server over Streamable HTTP (and the 2024-11-05
 * HTTP+SSE transport) on 127.0.0.1, any free port, serving both protocol eras. Its tools: {@code
 * echo}, {@code slow} (progress per step, stops when cancelled), {@code chatty} (a log message and
 * progress), {@code reconnect} (closes its own SSE stream, then answers: the client resumes with
 * {@code Last-Event-ID}) and {@code job} (task support optional: a task that works {@code seconds}
 * and stops when cancelled). Settings short enough for a soak to settle: sessions idle for 20 s
 * end, keep-alives every 2 s, 1,024 sessions from one address. Prints {@code PORT <n>}; ends when
 * stdin ends.
 */
final class SoakServer {
  private SoakServer() {}

  public static void main(String[] args) throws Exception {
    McpServer mcp =
        McpServer.builder()
            .info("soak", "1")
            .tool(
                Tool.builder("echo").description("Returns the text").build(),
                call -> CallToolResult.text(call.arguments().path("text").asString("")))
            .tool(
                Tool.builder("slow").description("Works in steps, reporting progress").build(),
                call -> {
                  int steps = call.arguments().path("steps").asInt(10);
                  for (int i = 1; i <= steps; i++) {
                    Thread.sleep(20);
                    call.context().progress().report(i, (double) steps, "step " + i);
                  }
                  return CallToolResult.text("slept " + steps);
                })
            .tool(
                Tool.builder("chatty").description("Logs, reports progress, answers").build(),
                call -> {
                  call.context().log(LoggingLevel.INFO, "working");
                  call.context().progress().report(1, null, null);
                  return CallToolResult.text("chatted");
                })
            .tool(
                Tool.builder("reconnect")
                    .description("Closes its own stream, then answers")
                    .build(),
                call -> {
                  call.context().pollStream();
                  Thread.sleep(100);
                  return CallToolResult.text("reconnected");
                })
            .tool(
                Tool.builder("job").taskSupport(TaskSupport.OPTIONAL).build(),
                TaskStart.AT_ONCE,
                call -> {
                  RequestContext ctx = call.context();
                  int quarters = Math.max(1, call.arguments().path("seconds").asInt(1) * 4);
                  for (int i = 1; i <= quarters; i++) {
                    Thread.sleep(250);
                    ctx.progress().report(i, (double) quarters, null);
                  }
                  return CallToolResult.text("job done");
                })
            .build();
    McpHttpServer http =
        McpHttpServer.builder()
            .server(mcp)
            .sessionIdleTimeout(Duration.ofSeconds(20))
            .sseKeepAlive(Duration.ofSeconds(2))
            .maxSessionsPerClient(1024)
            .build()
            .start();
    System.out.println("PORT " + http.port());
    System.out.flush();
    BufferedReader in =
        new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8));
    while (in.readLine() != null) {
      // anything but the end of stdin is ignored
    }
    http.close();
    mcp.close();
    System.exit(0);
  }
}
