package dev.herald.peerbench;

import java.io.IOException;
import java.io.PrintStream;
import java.net.URISyntaxException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * The peer comparison (docs/benchmarks.md, "Peer comparison"; run it with {@code
 * scripts/bench-peers}): Herald against the official Java SDK 2.1.0 (the handshake era; the
 * 2026-07-28 server of its mcp-core 2.2.0 for stateless calls) and against the "ceiling", a
 * minimal MCP server on Jetty 12 core handlers, one server after the other on this machine.
 *
 * <p>This {@code main} is the load driver: it speaks raw HTTP/1.1 over sockets ({@link RawHttp},
 * no SDK, no HTTP library) and runs every server and client under test in a child JVM of its own
 * with a fixed heap (G1) and its own class path ({@link Classpaths}), so CPU and heap figures are
 * the child's alone. Scenarios ({@code --only}): {@code progress} ({@link ProgressScenario}),
 * {@code calls} ({@link CallsScenario}), {@code fanout} and {@code heap} ({@link FleetScenario}),
 * {@code client} ({@link ClientScenario}), {@code coldstart} ({@link ColdStartScenario}). Each is
 * bounded in count and time, and {@code --timeout-s} bounds the whole run: the driver halts when
 * it passes, and its children end with it (their own time limits, their stdin closing).
 *
 * <p>Output: the Markdown table on stdout, the same as JSON in {@code --json} (default {@code
 * target/peer-bench.json}); with {@code --docs FILE} the table, the date, the JDK and the machine
 * replace what stands between the {@code peer-comparison} markers of that file.
 */
public final class PeerBench {
  private PeerBench() {}

  public static void main(String[] args) throws Exception {
    Options o;
    try {
      o = Options.parse(args);
    } catch (IllegalArgumentException e) {
      System.err.println(e.getMessage());
      System.exit(2);
      return;
    }
    long timeout = Long.parseLong(o.get("timeout-s"));
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(timeout);
    Thread.ofPlatform()
        .daemon()
        .name("watchdog")
        .start(() -> {
          try {
            Thread.sleep(TimeUnit.SECONDS.toMillis(timeout) + 20_000);
            System.err.println("bench-peers: the time bound of " + timeout + " s passed, halting");
            Runtime.getRuntime().halt(3);
          } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
          }
        });
    Path target = home();
    Path root =
        Path.of(System.getProperty("peer.root", target.resolve("../..").toString()))
            .toAbsolutePath()
            .normalize();
    PrintStream out = new PrintStream(System.out, true, StandardCharsets.UTF_8);
    Bench b = new Bench(o, new Classpaths(target, root), out, deadline);
    Map<String, String> context = context(o);
    b.log("bench-peers: %s", context);
    if (o.wants("progress")) {
      new ProgressScenario(b).run();
    }
    if (o.wants("calls")) {
      new CallsScenario(b).run();
    }
    if (o.wants("fanout") || o.wants("heap")) {
      new FleetScenario(b).run();
    }
    if (o.wants("client")) {
      new ClientScenario(b).run();
    }
    if (o.wants("coldstart")) {
      new ColdStartScenario(b).run();
    }
    context.put("loadAverageAtEnd", loadAverage());
    String table = b.report.markdown();
    out.println();
    out.print(table);
    Path json =
        o.get("json").isEmpty() ? target.resolve("peer-bench.json") : Path.of(o.get("json"));
    Files.writeString(json, b.report.json(context));
    out.println("\nJSON: " + json);
    if (!o.get("docs").isEmpty()) {
      Docs.write(Path.of(o.get("docs")), context, table);
      out.println("written to " + o.get("docs"));
    }
    System.exit(0);
  }

  /** {@code herald-peer-bench/target}: where this class's jar lies, or {@code -Dpeer.home}. */
  private static Path home() throws URISyntaxException {
    String set = System.getProperty("peer.home");
    if (set != null) {
      return Path.of(set).toAbsolutePath();
    }
    Path jar = Path.of(PeerBench.class.getProtectionDomain().getCodeSource().getLocation().toURI());
    return jar.getParent().toAbsolutePath();
  }

  private static Map<String, String> context(Options o) {
    Map<String, String> c = new LinkedHashMap<>();
    c.put(
        "date",
        DateTimeFormatter.ofPattern("yyyy-MM-dd HH:mm 'UTC'", Locale.ROOT)
            .withZone(ZoneOffset.UTC)
            .format(Instant.now()));
    c.put(
        "jdk",
        System.getProperty("java.vendor", "?") + " " + System.getProperty("java.runtime.version"));
    c.put("cpu", cpuModel());
    c.put("cores", Integer.toString(Runtime.getRuntime().availableProcessors()));
    c.put("nproc", nproc());
    c.put("loadAverageAtStart", loadAverage());
    c.put("options", new java.util.TreeMap<>(o.all()).toString());
    return c;
  }

  static String loadAverage() {
    try {
      String[] f = Files.readString(Path.of("/proc/loadavg")).trim().split(" ", -1);
      return f[0] + " " + f[1] + " " + f[2];
    } catch (IOException | RuntimeException e) {
      return "unknown";
    }
  }

  private static String cpuModel() {
    try {
      return Files.readAllLines(Path.of("/proc/cpuinfo")).stream()
          .filter(l -> l.startsWith("model name"))
          .map(l -> l.substring(l.indexOf(':') + 1).trim())
          .findFirst()
          .orElse("unknown");
    } catch (IOException e) {
      return "unknown";
    }
  }

  private static String nproc() {
    try {
      Process p = new ProcessBuilder("nproc").redirectErrorStream(true).start();
      String s = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8).trim();
      p.waitFor(5, TimeUnit.SECONDS);
      return s;
    } catch (IOException e) {
      return "unknown";
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return "unknown";
    }
  }
}
