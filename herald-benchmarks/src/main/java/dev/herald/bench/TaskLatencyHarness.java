package dev.herald.bench;

import dev.herald.client.EraPreference;
import dev.herald.client.McpClient;
import dev.herald.client.TaskHandle;
import dev.herald.http.McpHttpServer;
import dev.herald.server.McpServer;
import dev.herald.server.TaskSettings;
import dev.herald.session.CallOptions;
import dev.herald.tasks.InMemoryTaskStore;
import dev.herald.tasks.StoredTask;
import dev.herald.transport.http.StreamableHttpClientTransport;
import dev.herald.wire.CallToolResult;
import dev.herald.wire.TaskSupport;
import dev.herald.wire.Tool;
import java.io.PrintStream;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;

/**
 * The time from a task's status change in the server's store to the client's task status listener
 * (docs/benchmarks.md, "Tasks"), end to end: a Herald server on Jetty ({@link McpHttpServer}, on
 * 127.0.0.1) and a Herald client over Streamable HTTP, in one JVM so that both ends read the same
 * {@link System#nanoTime()}.
 *
 * <p>The server's one tool, {@code flip}, runs as a task ({@link TaskSupport#REQUIRED}); its handler
 * takes commands from a queue and sets the task's status message to each ({@code
 * RequestContext.statusMessage}). The server side's timestamp is taken by a listener registered
 * on the server's {@link InMemoryTaskStore} before the server's own ({@code TaskStore.listen}: the
 * moment the change is in the store); the client side's by the {@link dev.herald.client.TaskListener}
 * given to {@link McpClient#callToolAsTask}, when the snapshot with that message arrives. One
 * change at a time: the next command is sent once the client saw the previous one, so the figure is
 * the latency of one status change on an otherwise idle connection. W warm-up changes are not
 * counted, then S timed ones; median, p99, minimum and maximum are printed per protocol era
 * (handshake 2025-11-25: {@code notifications/tasks/status} on the session's standing GET stream;
 * 2026-07-28: {@code notifications/tasks} on a {@code subscriptions/listen} stream that names the
 * task). The poll interval is set to 60 s so that a change that reaches the client by polling, not
 * by a notification, shows as an outlier rather than hiding in the median.
 *
 * <p>Options: {@code --samples S} (200), {@code --warmup W} (20), {@code --eras handshake,modern},
 * {@code --port P} (18150), {@code --timeout-s T} (120, per era).
 */
public final class TaskLatencyHarness {
  private TaskLatencyHarness() {}

  private static final String END = "end";

  public static void main(String[] args) throws Exception {
    Map<String, String> o = options(args);
    int samples = Integer.parseInt(o.getOrDefault("samples", "200"));
    int warmup = Integer.parseInt(o.getOrDefault("warmup", "20"));
    int port = Integer.parseInt(o.getOrDefault("port", "18150"));
    long timeoutS = Long.parseLong(o.getOrDefault("timeout-s", "120"));
    List<String> eras = List.of(o.getOrDefault("eras", "handshake,modern").split(","));
    PrintStream out = System.out;
    out.printf(
        Locale.ROOT,
        "task status latency: store change -> client TaskListener, %d timed changes after %d"
            + " warm-up, one at a time, %s%n",
        samples,
        warmup,
        Runtime.version());
    for (String era : eras) {
      EraPreference pref =
          switch (era) {
            case "handshake" -> EraPreference.HANDSHAKE_ONLY;
            case "modern" -> EraPreference.MODERN_ONLY;
            default -> throw new IllegalArgumentException("unknown era " + era);
          };
      try {
        long[] nanos = run(pref, port, warmup, samples, timeoutS);
        Arrays.sort(nanos);
        out.printf(
            Locale.ROOT,
            "%-20s median %8.1f us   p90 %8.1f us   p99 %8.1f us   min %8.1f us   max %8.1f us"
                + "  (%d samples)%n",
            label(era),
            nanos[nanos.length / 2] / 1e3,
            percentile(nanos, 0.90) / 1e3,
            percentile(nanos, 0.99) / 1e3,
            nanos[0] / 1e3,
            nanos[nanos.length - 1] / 1e3,
            nanos.length);
      } catch (Exception e) {
        out.printf(Locale.ROOT, "%-20s n/a: %s%n", label(era), e);
      }
    }
  }

  /** The nearest-rank percentile of sorted {@code nanos}. */
  private static long percentile(long[] nanos, double p) {
    return nanos[Math.max(0, Math.min(nanos.length - 1, (int) Math.ceil(nanos.length * p) - 1))];
  }

  private static String label(String era) {
    return era.equals("handshake") ? "handshake 2025-11-25" : "2026-07-28";
  }

  private static long[] run(EraPreference era, int port, int warmup, int samples, long timeoutS)
      throws Exception {
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(timeoutS);
    InMemoryTaskStore store = new InMemoryTaskStore(10, 100);
    Map<String, Long> changedAt = new ConcurrentHashMap<>();
    store.listen((StoredTask t) -> {
      String m = t.statusMessage();
      if (m != null) {
        changedAt.putIfAbsent(m, System.nanoTime());
      }
    });
    BlockingQueue<String> commands = new LinkedBlockingQueue<>();
    McpServer server =
        McpServer.builder()
            .info("task-latency-bench", "1")
            .tasks(
                TaskSettings.builder()
                    .store(() -> store)
                    .pollInterval(Duration.ofSeconds(60))
                    .build())
            .tool(
                Tool.builder("flip")
                    .description("Sets its task's status message to each command until 'end'")
                    .taskSupport(TaskSupport.REQUIRED)
                    .build(),
                call -> {
                  while (true) {
                    String c = commands.take();
                    if (c.equals(END)) {
                      break;
                    }
                    call.context().statusMessage(c);
                  }
                  return CallToolResult.text("done");
                })
            .build();
    try (McpHttpServer http =
        McpHttpServer.builder().server(server).host("127.0.0.1").port(port).build().start()) {
      BlockingQueue<String> seen = new LinkedBlockingQueue<>();
      Map<String, Long> seenAt = new ConcurrentHashMap<>();
      try (McpClient client =
          McpClient.builder()
              .eras(era)
              .connect(() -> new StreamableHttpClientTransport(http.uri()))) {
        TaskHandle task =
            client.callToolAsTask(
                "flip",
                null,
                CallOptions.defaults(),
                s -> {
                  String m = s.statusMessage();
                  if (m != null && seenAt.putIfAbsent(m, System.nanoTime()) == null) {
                    seen.add(m);
                  }
                });
        if (!task.hasTask()) {
          throw new IllegalStateException("the server answered without a task");
        }
        List<Long> nanos = new ArrayList<>();
        for (int i = 0; i < warmup + samples; i++) {
          String m = "step " + i;
          commands.put(m);
          String got;
          do {
            long left = deadline - System.nanoTime();
            got = left <= 0 ? null : seen.poll(left, TimeUnit.NANOSECONDS);
            if (got == null) {
              throw new IllegalStateException("the client did not see '" + m + "' in time");
            }
          } while (!got.equals(m));
          Long from = changedAt.get(m);
          if (from == null) {
            throw new IllegalStateException("the store never held '" + m + "'");
          }
          if (i >= warmup) {
            nanos.add(seenAt.get(m) - from);
          }
        }
        commands.put(END);
        task.result()
            .get(Math.max(1, (deadline - System.nanoTime()) / 1_000_000), TimeUnit.MILLISECONDS);
        return nanos.stream().mapToLong(Long::longValue).toArray();
      } finally {
        commands.put(END);
        server.close();
      }
    }
  }

  private static Map<String, String> options(String[] args) {
    Map<String, String> o = new LinkedHashMap<>();
    for (int i = 0; i < args.length; i++) {
      if (!args[i].startsWith("--") || i + 1 >= args.length) {
        throw new IllegalArgumentException(
            "usage: TaskLatencyHarness [--samples 200] [--warmup 20] [--eras handshake,modern]"
                + " [--port 18150] [--timeout-s 120]");
      }
      o.put(args[i].substring(2), args[++i]);
    }
    return o;
  }
}
