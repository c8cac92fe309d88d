package dev.herald.peerbench;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * Cold start, the median of {@code spawns} fresh JVMs each (after one untimed round that warms the
 * file cache; the kinds spawned in turn, round after round), with the JVM's defaults (no heap or GC flags), as a host would spawn them:
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
    List<Probe> servers = new ArrayList<>();
    if (b.options.target(Report.SDK)) {
      servers.add(
          new Probe(
              List.of("cold.minimal", "cold.serve"),
              Report.SDK,
              List.of(java, "-cp", b.classpaths.forRole("sdk"), SdkStdioServer.class.getName()),
              INITIALIZE,
              "\"result\""));
    }
    if (b.options.target(Report.HERALD)) {
      servers.add(
          new Probe(
              List.of("cold.minimal"),
              Report.HERALD,
              List.of(
                  java, "-cp", b.classpaths.forRole("herald"), HeraldStdioServer.class.getName()),
              INITIALIZE,
              "\"result\""));
      if (Files.isRegularFile(jar)) {
        servers.add(
            new Probe(
                List.of("cold.serve"),
                Report.HERALD,
                List.of(java, "-jar", jar.toString(), "serve", "--stdio"),
                INITIALIZE,
                "\"result\""));
      } else {
        b.report.note("cold start of herald serve: no " + jar + " (build herald-cli)");
      }
    }
    measure(servers, spawns, deadline);
    try (Child server =
        Child.server(b.classpaths, "ceiling", b.options.get("child-heap"), 200, deadline)) {
      String uri = "http://127.0.0.1:" + server.port + "/mcp";
      List<Probe> clients = new ArrayList<>();
      for (String kind : List.of(Report.HERALD, Report.SDK)) {
        if (b.options.target(kind)) {
          clients.add(
              new Probe(
                  List.of("cold.client"),
                  kind,
                  List.of(
                      java,
                      "-cp",
                      b.classpaths.forRole(kind),
                      ClientMain.class.getName(),
                      kind,
                      "once",
                      uri,
                      Long.toString(Child.secondsLeft(deadline))),
                  null,
                  "RESULT"));
        }
      }
      measure(clients, spawns, deadline);
    } catch (Exception e) {
      b.report.note("cold start of clients: the ceiling server failed: " + Bench.reason(e));
    }
  }

  /** One kind of process to spawn: the rows its median goes to, its column, how to run it. */
  private record Probe(
      List<String> keys, String column, List<String> cmd, String input, String expect) {}

  /**
   * Spawns the probes in turn, round after round (one untimed round first), so that a load that
   * drifts, or the time bound, touches each of them alike; then puts each one's median.
   */
  private void measure(List<Probe> probes, int spawns, long deadline) {
    List<List<Double>> ms = new ArrayList<>();
    List<String> failed = new ArrayList<>();
    for (int k = 0; k < probes.size(); k++) {
      ms.add(new ArrayList<>());
      failed.add(null);
    }
    for (int i = 0; i <= spawns && System.nanoTime() < deadline; i++) {
      for (int k = 0; k < probes.size(); k++) {
        Probe p = probes.get(k);
        if (failed.get(k) != null) {
          continue;
        }
        try {
          Path log = Child.log(b.classpaths, "coldstart-" + p.keys().get(0) + "-" + p.column());
          Spawn.Outcome o = Spawn.run(p.cmd(), log, p.input(), p.expect(), deadline);
          if (i > 0) {
            ms.get(k).add(o.nanos() / 1e6);
          }
        } catch (Exception e) {
          failed.set(k, Bench.reason(e));
        }
      }
    }
    for (int k = 0; k < probes.size(); k++) {
      Probe p = probes.get(k);
      List<Double> v = ms.get(k);
      if (failed.get(k) != null) {
        b.report.note(p.keys().get(0) + ", " + Bench.column(p.column()) + ": " + failed.get(k));
        b.log("[coldstart] %s %s failed: %s", p.keys().get(0), p.column(), failed.get(k));
      }
      if (v.isEmpty()) {
        continue;
      }
      double median = Bench.median(v.stream().mapToDouble(Double::doubleValue).toArray());
      for (String key : p.keys()) {
        b.report.put(key, p.column(), median);
      }
      b.log("[coldstart] %-12s %-7s median %.0f ms of %s", p.keys().get(0), p.column(), median, v);
    }
  }
}
