package dev.herald.peerbench;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * Cold start, the median of {@code spawns} fresh JVMs each (after one untimed spawn that warms the
 * file cache), with the JVM's defaults (no heap or GC flags), as a host would spawn them:
 *
 * <ul>
 *   <li>stdio servers, from process start to the answer to {@code initialize} (written to stdin at
 *       once): {@code herald serve --stdio} (herald-cli's shaded {@code herald.jar}, or {@code
 *       --herald-jar}), a minimal server built on Herald ({@link HeraldStdioServer}) and a minimal
 *       Java SDK 2.1.0 server ({@link SdkStdioServer}), which stands in the Java SDK column of both
 *       rows;
 *   <li>clients, from process start to the result of a first {@code tools/call}: Herald's and the
 *       SDK's ({@link ClientMain} {@code once}), against a running ceiling server.
 * </ul>
 */
final class ColdStartScenario {
  private static final String INITIALIZE =
      "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"initialize\",\"params\":{\"protocolVersion\":\""
          + Session.HANDSHAKE
          + "\",\"capabilities\":{},\"clientInfo\":{\"name\":\"peer-bench\",\"version\":\"1\"}}}";
  private final Bench b;

  ColdStartScenario(Bench b) {
    this.b = b;
  }

  void run() {
    int spawns = b.options.integer("spawns");
    b.report.row(
        "cold.serve",
        "cold start of `herald serve --stdio` to its initialize answer, ms"
            + " (Java SDK: its minimal stdio server)",
        0,
        true);
    b.report.row(
        "cold.minimal",
        "cold start of a minimal stdio server to its initialize answer, ms",
        0,
        true);
    b.report.row("cold.client", "cold start of a client to its first call result, ms", 0, true);
    long deadline = b.scenarioDeadline(300);
    String java = ProcessHandle.current().info().command().orElse("java");
    Path jar =
        b.options.get("herald-jar").isEmpty()
            ? b.classpaths.root().resolve("herald-cli/target/herald.jar")
            : Path.of(b.options.get("herald-jar"));
    Double sdk = null;
    if (b.options.target(Report.SDK)) {
      sdk =
          server(
              "cold.minimal",
              Report.SDK,
              spawns,
              deadline,
              List.of(java, "-cp", b.classpaths.forRole("sdk"), SdkStdioServer.class.getName()));
      if (sdk != null) {
        b.report.put("cold.serve", Report.SDK, sdk);
      }
    }
    if (b.options.target(Report.HERALD)) {
      server(
          "cold.minimal",
          Report.HERALD,
          spawns,
          deadline,
          List.of(java, "-cp", b.classpaths.forRole("herald"), HeraldStdioServer.class.getName()));
      if (Files.isRegularFile(jar)) {
        server(
            "cold.serve",
            Report.HERALD,
            spawns,
            deadline,
            List.of(java, "-jar", jar.toString(), "serve", "--stdio"));
      } else {
        b.report.note("cold start of herald serve: no " + jar + " (build herald-cli)");
      }
    }
    try (Child server =
        Child.server(b.classpaths, "ceiling", b.options.get("child-heap"), 200, deadline)) {
      String uri = "http://127.0.0.1:" + server.port + "/mcp";
      for (String kind : List.of(Report.HERALD, Report.SDK)) {
        if (!b.options.target(kind)) {
          continue;
        }
        List<String> cmd =
            List.of(
                java,
                "-cp",
                b.classpaths.forRole(kind),
                ClientMain.class.getName(),
                kind,
                "once",
                uri,
                Long.toString(Child.secondsLeft(deadline)));
        measure("cold.client", kind, spawns, deadline, cmd, null, "RESULT");
      }
    } catch (Exception e) {
      b.report.note("cold start of clients: the ceiling server failed: " + Bench.reason(e));
    }
  }

  private Double server(String key, String column, int spawns, long deadline, List<String> cmd) {
    return measure(key, column, spawns, deadline, cmd, INITIALIZE, "\"result\"");
  }

  private Double measure(
      String key,
      String column,
      int spawns,
      long deadline,
      List<String> cmd,
      String input,
      String expect) {
    try {
      Path log = Child.log(b.classpaths, "coldstart-" + key + "-" + column);
      List<Double> ms = new ArrayList<>();
      for (int i = 0; i <= spawns; i++) {
        Spawn.Outcome o = Spawn.run(cmd, log, input, expect, deadline);
        if (i > 0) {
          ms.add(o.nanos() / 1e6);
        }
      }
      double median = Bench.median(ms.stream().mapToDouble(Double::doubleValue).toArray());
      b.report.put(key, column, median);
      b.log("[coldstart] %-12s %-7s median %.0f ms of %s", key, column, median, ms);
      return median;
    } catch (Exception e) {
      b.report.note(key + ", " + Bench.column(column) + ": " + Bench.reason(e));
      b.log("[coldstart] %s %s failed: %s", key, column, Bench.reason(e));
      return null;
    }
  }
}
