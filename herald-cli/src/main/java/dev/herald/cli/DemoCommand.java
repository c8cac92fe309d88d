package dev.herald.cli;

import dev.herald.cli.fixture.DemoFixture;
import dev.herald.cli.fixture.Version;
import dev.herald.client.EraPreference;
import dev.herald.client.McpClient;
import dev.herald.client.ResourceSubscription;
import dev.herald.client.TaskHandle;
import dev.herald.client.ToolCallHandle;
import dev.herald.http.McpHttpServer;
import dev.herald.session.CallOptions;
import dev.herald.session.CancelledException;
import dev.herald.session.CountingEventListener;
import dev.herald.session.ProgressRecord;
import dev.herald.session.ProgressRejection;
import dev.herald.transport.http.StreamableHttpClientTransport;
import dev.herald.wire.CallToolResult;
import dev.herald.wire.LoggingLevel;
import dev.herald.wire.McpJson;
import java.io.PrintStream;
import java.time.Duration;
import java.util.Locale;
import java.util.Optional;
import java.util.concurrent.Callable;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import tools.jackson.databind.node.ObjectNode;

/**
 * {@code herald demo}: starts the demo server in-process over Streamable HTTP on 127.0.0.1 and
 * walks through the notification channel live: two calls with their own progress bars, a
 * cancellation, a list change and the lazy refetch it causes, a resource subscription and its
 * updates, log messages at two levels, and a stream the server drops mid-call that the client
 * resumes with {@code Last-Event-ID}, and a task (MCP 2025-11-25 basic/utilities/tasks) with its
 * status row and progress bar, then one cancelled with {@code tasks/cancel}. It ends with a summary
 * of what was sent and received.
 */
@Command(
    name = "demo",
    description = "Walk through Herald's notification channel live, over Streamable HTTP.",
    mixinStandardHelpOptions = true)
final class DemoCommand implements Callable<Integer> {
  @Option(
      names = "--plain",
      description = "Plain lines, no animation (the default when not on a terminal).")
  boolean plain;

  @Option(
      names = "--speed",
      defaultValue = "1.0",
      description =
          "Speed factor for the demo's tools (default ${DEFAULT-VALUE}; 4 runs four times faster).")
  double speed;

  private int ms(int base) {
    return Math.max(1, (int) Math.round(base / Math.max(0.1, speed)));
  }

  @Override
  public Integer call() throws Exception {
    PrintStream out = System.out;
    DemoBoard board = new DemoBoard(out, !plain && Terminal.interactive());
    AtomicInteger logs = new AtomicInteger();
    AtomicInteger listChanges = new AtomicInteger();
    AtomicInteger resourceUpdates = new AtomicInteger();
    int calls = 0;
    long started = System.nanoTime();

    try (McpHttpServer http =
        McpHttpServer.builder().server(DemoFixture.server()).port(0).build().start()) {
      board.println(
          "Herald demo "
              + Version.VERSION
              + ": the demo server runs in this process on "
              + http.uri());
      CountDownLatch changed = new CountDownLatch(1);
      CountingEventListener events = new CountingEventListener();
      try (McpClient client =
          McpClient.builder()
              .info("herald-demo-client", Version.VERSION)
              // The tour shows the handshake era's session features (the standing GET stream,
              // session logs, resumption with Last-Event-ID); `herald list` and `watch` show 2026.
              .eras(EraPreference.HANDSHAKE_ONLY)
              .eventListener(events)
              .onLog(m -> {
                logs.incrementAndGet();
                board.println(
                    "  log ["
                        + m.level().wire()
                        + "] "
                        + (m.logger() == null ? "" : m.logger() + ": ")
                        + (m.data().isString() ? m.data().stringValue() : m.data().toString()));
              })
              .connect(() -> new StreamableHttpClientTransport(http.uri()))) {
        client.onListChanged(
            McpClient.Area.TOOLS,
            () -> {
              listChanges.incrementAndGet();
              board.println(
                  "  notifications/tools/list_changed arrived on the standing GET stream: the tools cache is stale");
              changed.countDown();
            });
        board.println(
            String.format(
                Locale.ROOT,
                "Connected over Streamable HTTP: %s %s, protocol %s (%s era), %d tools",
                client.serverInfo().name(),
                client.serverInfo().version(),
                client.protocolVersion().wire(),
                EraOption.name(client),
                client.tools().size()));

        board.println("");
        board.println(
            "1. Two long calls side by side, each with its own progress bar (its own 128-bit token)");
        DemoBoard.Row rowA = board.row("slow A");
        DemoBoard.Row rowB = board.row("slow B");
        ToolCallHandle a =
            client.callToolAsync(
                "slow",
                args("steps", 24, "delayMs", ms(100)),
                CallOptions.builder()
                    .progress(rowA::show)
                    .idleTimeout(Duration.ofSeconds(10))
                    .timeout(Duration.ofMinutes(2))
                    .build());
        ToolCallHandle b =
            client.callToolAsync(
                "slow",
                args("steps", 12, "delayMs", ms(170)),
                CallOptions.builder()
                    .progress(rowB::show)
                    .idleTimeout(Duration.ofSeconds(10))
                    .timeout(Duration.ofMinutes(2))
                    .build());
        rowB.finish("-> " + b.await().firstText());
        rowA.finish("-> " + a.await().firstText());
        calls += 2;
        board.settle();
        board.println(
            "   " + record("A", a.progressRecord()) + "; " + record("B", b.progressRecord()));

        board.println("");
        board.println("2. A cancellation: slow, 60 steps, cancelled after 1 s");
        DemoBoard.Row rowC = board.row("slow C");
        ToolCallHandle c =
            client.callToolAsync(
                "slow",
                args("steps", 60, "delayMs", ms(100)),
                CallOptions.builder().progress(rowC::show).build());
        Thread.sleep(ms(1000));
        c.cancel("demo: the user pressed cancel");
        try {
          c.await();
          rowC.finish("finished before the cancellation arrived");
        } catch (CancelledException e) {
          rowC.finish(
              "-> cancelled: notifications/cancelled sent, the server stopped and sent no response");
        }
        calls++;
        board.settle();
        board.println("   " + record("C", c.progressRecord()));

        board.println("");
        board.println("3. A list change and the lazy refetch it causes");
        long before = client.fetchCount(McpClient.Area.TOOLS);
        client.callTool("touch", args("area", "tools"));
        calls++;
        changed.await(5, TimeUnit.SECONDS);
        int now = client.tools().size();
        board.println(
            String.format(
                Locale.ROOT,
                "   next use refetched tools/list once: %d tools (fetches %d -> %d)",
                now,
                before,
                client.fetchCount(McpClient.Area.TOOLS)));

        board.println("");
        board.println("4. A resource subscription: demo://counter");
        CountDownLatch two = new CountDownLatch(2);
        ResourceSubscription sub =
            client.subscribe(
                "demo://counter",
                u -> {
                  resourceUpdates.incrementAndGet();
                  board.println("  notifications/resources/updated " + u.uri());
                  two.countDown();
                });
        try {
          client.callTool("update_resource", args());
          client.callTool("update_resource", args());
          calls += 2;
          two.await(5, TimeUnit.SECONDS);
          String value =
              ((dev.herald.wire.ResourceContents.Text)
                      client.readResource("demo://counter").contents().get(0))
                  .text();
          board.println("   read demo://counter after the updates: " + value);
        } finally {
          sub.close(); // unsubscribes: a round trip, so not a try-with-resources (an interrupt
          // must surface)
        }

        board.println("");
        board.println("5. Log messages at two levels: the session's level is info");
        client.callTool("emit_logs", args("count", 1, "level", "info"));
        client.callTool("emit_logs", args("count", 1, "level", "warning"));
        client.setLoggingLevel(LoggingLevel.WARNING);
        board.println("   level set to warning: the info message below is filtered by the server");
        client.callTool("emit_logs", args("count", 1, "level", "info"));
        client.callTool("emit_logs", args("count", 1, "level", "warning"));
        calls += 4;
        client.ping();
        Thread.sleep(50);

        board.println("");
        board.println(
            "6. A dropped stream, resumed: the server closes the call's SSE stream mid-call");
        long t0 = System.nanoTime();
        CallToolResult resumed = client.callTool("test_reconnection", args());
        calls++;
        board.println(
            String.format(
                Locale.ROOT,
                "   the client waited the server's retry: delay, sent GET with Last-Event-ID and got the result (%.1f s): %s",
                (System.nanoTime() - t0) / 1e9,
                resumed.firstText()));

        board.println("");
        board.println(
            "7. A task: slow_compute as a task (tools/call with params.task), followed by its status and its progress");
        DemoBoard.Row rowT = board.row("task T");
        TaskHandle t =
            client.callToolAsTask(
                "slow_compute",
                args("seconds", ms(3000) / 1000.0, "label", "T"),
                CallOptions.builder().progress(rowT::show).timeout(Duration.ofMinutes(2)).build(),
                s -> rowT.status(s.status().wire(), s.statusMessage()));
        CallToolResult done = t.await();
        rowT.finish("-> " + done.firstText());
        DemoBoard.Row rowU = board.row("task U");
        TaskHandle u =
            client.callToolAsTask(
                "slow_compute",
                args("seconds", 60, "label", "U"),
                CallOptions.builder().progress(rowU::show).build(),
                s -> rowU.status(s.status().wire(), s.statusMessage()));
        Thread.sleep(ms(1000));
        u.cancel("demo: the user pressed cancel");
        try {
          u.await();
          rowU.finish("finished before the cancellation arrived");
        } catch (CancelledException e) {
          rowU.finish("-> tasks/cancel sent, the task ended cancelled");
        }
        calls += 2;
        board.settle();
        board.println(
            "   "
                + record("T", t.progressRecord())
                + ", then "
                + t.status().status().wire()
                + "; "
                + record("U", u.progressRecord())
                + ", then "
                + u.status().status().wire());

        board.println("");
        board.println(
            String.format(
                Locale.ROOT,
                "Summary: %d tool calls; received %d log messages, %d list change, %d resource updates; refused %d late and %d unknown progress updates; %.1f s",
                calls,
                logs.get(),
                listChanges.get(),
                resourceUpdates.get(),
                events.progressUpdatesRefused(ProgressRejection.LATE),
                events.progressUpdatesRefused(ProgressRejection.UNKNOWN),
                (System.nanoTime() - started) / 1e9));
      }
      board.println("Session closed (DELETE sent); server stopped. Done.");
    }
    return 0;
  }

  private static String record(String name, Optional<ProgressRecord> progress) {
    ProgressRecord r = progress.orElse(null);
    if (r == null) {
      return name + ": no progress record";
    }
    return String.format(
        Locale.ROOT,
        "%s: %d accepted, %d refused, %d rendered, ended by %s",
        name,
        r.accepted(),
        r.rejectedTotal(),
        r.rendered(),
        r.terminal() == null ? "-" : r.terminal().name().toLowerCase(Locale.ROOT));
  }

  static ObjectNode args(Object... kv) {
    ObjectNode o = McpJson.object();
    for (int i = 0; i < kv.length; i += 2) {
      o.set((String) kv[i], McpJson.toTree(kv[i + 1]));
    }
    return o;
  }
}
