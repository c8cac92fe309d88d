package dev.herald.cli;

import dev.herald.client.McpClient;
import dev.herald.client.ToolCallHandle;
import dev.herald.session.CallOptions;
import dev.herald.session.CancelledException;
import dev.herald.transport.stdio.SubprocessTransport;
import dev.herald.wire.CallToolResult;
import dev.herald.wire.LoggingLevel;
import dev.herald.wire.McpJson;
import dev.herald.wire.Tool;
import java.io.PrintStream;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.concurrent.atomic.AtomicInteger;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * {@code herald demo}: a scripted exchange between a Herald client and a Herald server started as
 * a real subprocess over stdio, showing progress, log lines and a cancellation on the wire.
 */
@Command(name = "demo", description = "Walk through Herald's notification channel live: progress, logs, cancellation.", mixinStandardHelpOptions = true)
final class DemoCommand implements Callable<Integer> {
  @Option(names = "--plain", description = "Plain lines, no animation (the default when not on a terminal).")
  boolean plain;

  @Override
  public Integer call() throws Exception {
    PrintStream out = System.out;
    boolean terminal = !plain && Terminal.interactive();
    out.println("Herald demo: a Herald client and a Herald server talking MCP over stdio.");
    out.println("Starting the server as a subprocess: herald serve --stdio");
    AtomicInteger logs = new AtomicInteger();
    int calls = 0;
    SubprocessTransport transport = SubprocessTransport.builder(SelfCommand.of("serve", "--stdio")).build();
    long started = System.nanoTime();
    try (McpClient client = McpClient.builder()
        .info("herald-demo-client", dev.herald.cli.fixture.Version.VERSION)
        .onLog(m -> {
          logs.incrementAndGet();
          out.println("  log [" + m.level().wire() + "] " + (m.logger() == null ? "" : m.logger() + ": ") + text(m.data()));
        })
        .connect(transport)) {
      out.printf("Connected to %s %s, protocol %s%n", client.serverInfo().name(), client.serverInfo().version(), client.protocolVersion().wire());
      List<Tool> tools = client.listTools();
      out.println("Tools: " + String.join(", ", tools.stream().map(Tool::name).toList()));

      out.println();
      out.println("1. A long tool with a progress bar: slow, 20 steps of 100 ms");
      ProgressBar bar = new ProgressBar(out, terminal, "   slow");
      ToolCallHandle first = client.callToolAsync("slow", args("steps", 20, "delayMs", 100),
          CallOptions.builder().progress(bar::show).renderInterval(Duration.ofMillis(terminal ? 100 : 400))
              .idleTimeout(Duration.ofSeconds(10)).timeout(Duration.ofMinutes(1)).build());
      CallToolResult r1 = first.await();
      calls++;
      bar.finish("-> " + r1.firstText());
      printRecord(out, first);

      out.println();
      out.println("2. Log messages: the session's level is info, so debug is filtered by the server");
      client.callTool("emit_logs", args("count", 2, "level", "info"));
      client.callTool("emit_logs", args("count", 2, "level", "debug"));
      calls += 2;
      client.setLoggingLevel(LoggingLevel.DEBUG);
      out.println("   (level set to debug)");
      client.callTool("emit_logs", args("count", 1, "level", "debug"));
      calls++;
      Thread.sleep(100); // let the log listener print before the next section

      out.println();
      out.println("3. A cancellation: slow, 50 steps of 100 ms, cancelled after 1 s");
      ProgressBar bar2 = new ProgressBar(out, terminal, "   slow");
      calls++;
      ToolCallHandle second = client.callToolAsync("slow", args("steps", 50, "delayMs", 100),
          CallOptions.builder().progress(bar2::show).renderInterval(Duration.ofMillis(terminal ? 100 : 400)).build());
      Thread.sleep(1000);
      second.cancel("demo: user pressed cancel");
      try {
        second.await();
        bar2.finish("finished before the cancellation arrived");
      } catch (CancelledException e) {
        bar2.finish("-> cancelled on the wire (notifications/cancelled sent; the server stopped and sent no response)");
      }
      printRecord(out, second);
      client.ping();

      out.println();
      var stats = client.session().stats();
      out.printf("Summary: %d tool calls, %d log messages received, %d late responses, %d late progress updates, %.1f s%n",
          calls, logs.get(), stats.lateResponses(), stats.progressLate(), (System.nanoTime() - started) / 1e9);
    }
    out.println("Server stopped (stdin closed). Done.");
    return 0;
  }

  private static void printRecord(PrintStream out, ToolCallHandle h) {
    h.progressRecord().ifPresent(rec -> out.printf(
        "   progress record: %d accepted, %d refused, %d rendered, last %s, total %s, ended by %s%n",
        rec.accepted(), rec.rejectedTotal(), rec.rendered(),
        rec.lastProgress() == null ? "-" : String.valueOf(rec.lastProgress().longValue()),
        rec.totalKnown() ? "known" : "unknown",
        rec.terminal() == null ? "-" : rec.terminal().name().toLowerCase(java.util.Locale.ROOT)));
  }

  private static String text(tools.jackson.databind.JsonNode data) {
    return data.isString() ? data.stringValue() : data.toString();
  }

  static tools.jackson.databind.node.ObjectNode args(Object... kv) {
    var o = McpJson.object();
    for (int i = 0; i < kv.length; i += 2) {
      o.set((String) kv[i], McpJson.toTree(kv[i + 1]));
    }
    return o;
  }

}
