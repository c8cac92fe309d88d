package dev.herald.peerbench;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;

/**
 * Cold start, the median of {@code spawns} fresh JVMs each (after one untimed round that warms the
 * file cache; the kinds spawned in turn, round after round), as a host would spawn them, twice:
 *
 * <ul>
 *   <li><b>with a class-data archive</b>, as a user runs them: {@code bin/herald serve --stdio}
 *       with the AOT cache (JDK 25+; a dynamic CDS archive before) it records on its first run,
 *       and the minimal servers and clients with the archive recipe of docs/benchmarks.md (one
 *       training run with {@code -XX:AOTCacheOutput}, then {@code -XX:AOTCache}), the Java SDK's
 *       alike, so the ratio compares like with like;
 *   <li><b>without an archive</b>: the JVM's defaults ({@code java -jar herald.jar serve --stdio},
 *       {@code java -cp ...}).
 * </ul>
 *
 * <p>What is timed: stdio servers from process start to the answer to {@code initialize} (written
 * to stdin at once): {@code herald serve --stdio} (herald-cli's shaded {@code herald.jar}, or
 * {@code --herald-jar}), a minimal server built on Herald ({@link HeraldStdioServer}) and a
 * minimal Java SDK 2.1.0 server ({@link SdkStdioServer}), which stands in the Java SDK column of
 * both server rows; clients from process start to the result of a first {@code tools/call}:
 * Herald's and the SDK's ({@link ClientMain} {@code once}), against a running ceiling server.
 * Archives go to {@code target/coldstart-cds}, made afresh in each run; a training run that
 * leaves no archive leaves its row empty, with a note.
 */
final class ColdStartScenario {
  private static final String INITIALIZE =
      "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"initialize\",\"params\":{\"protocolVersion\":\""
          + Session.HANDSHAKE
          + "\",\"capabilities\":{},\"clientInfo\":{\"name\":\"peer-bench\",\"version\":\"1\"}}}";
  private final Bench b;
  private final boolean aot = Runtime.version().feature() >= 25;

  ColdStartScenario(Bench b) {
    this.b = b;
  }

  void run() {
    int spawns = b.options.integer("spawns");
    String archive = aot ? "AOT cache" : "CDS archive";
    String anArchive = aot ? "an AOT cache" : "a CDS archive";
    b.report.row(
        "cold.serve",
        "cold start of `bin/herald serve --stdio` (its "
            + archive
            + ") to its initialize answer, ms (Java SDK: its minimal stdio server with the same"
            + " archive recipe)",
        0,
        true);
    b.report.row("cold.serve.cpu", "  the same: the child's CPU ms by then", 0, true);
    b.report.row(
        "cold.minimal.cds",
        "cold start of a minimal stdio server with " + anArchive + " to its initialize answer, ms",
        0,
        true);
    b.report.row("cold.minimal.cds.cpu", "  the same: the child's CPU ms by then", 0, true);
    b.report.row(
        "cold.client.cds",
        "cold start of a client with " + anArchive + " to its first call result, ms",
        0,
        true);
    b.report.row("cold.client.cds.cpu", "  the same: the child's CPU ms by then", 0, true);
    b.report.row(
        "cold.serve.plain",
        "without an archive: `java -jar herald.jar serve --stdio` to its initialize answer, ms"
            + " (Java SDK: its minimal stdio server, no archive)",
        0,
        true);
    b.report.row("cold.serve.plain.cpu", "  the same: the child's CPU ms by then", 0, true);
    b.report.row(
        "cold.minimal",
        "without an archive: a minimal stdio server to its initialize answer, ms",
        0,
        true);
    b.report.row("cold.minimal.cpu", "  the same: the child's CPU ms by then", 0, true);
    b.report.row(
        "cold.client", "without an archive: a client to its first call result, ms", 0, true);
    b.report.row("cold.client.cpu", "  the same: the child's CPU ms by then", 0, true);
    long deadline = b.scenarioDeadline(600);
    String java = ProcessHandle.current().info().command().orElse("java");
    Path jar =
        b.options.get("herald-jar").isEmpty()
            ? b.classpaths.root().resolve("herald-cli/target/herald.jar")
            : Path.of(b.options.get("herald-jar"));
    Path cds = b.classpaths.target().resolve("coldstart-cds");
    try {
      clean(cds);
      Files.createDirectories(cds);
    } catch (IOException e) {
      b.report.note("cold start: cannot make " + cds + ": " + Bench.reason(e));
      return;
    }
    List<Probe> servers = new ArrayList<>();
    if (b.options.target(Report.SDK)) {
      List<String> sdk =
          List.of(java, "-cp", b.classpaths.forRole("sdk"), SdkStdioServer.class.getName());
      servers.add(new Probe(List.of("cold.minimal", "cold.serve.plain"), Report.SDK, sdk));
      servers.add(
          withArchive(
              new Probe(List.of("cold.minimal.cds", "cold.serve"), Report.SDK, sdk),
              cds.resolve("sdk-server"),
              false));
    }
    if (b.options.target(Report.HERALD)) {
      List<String> minimal =
          List.of(java, "-cp", b.classpaths.forRole("herald"), HeraldStdioServer.class.getName());
      servers.add(new Probe(List.of("cold.minimal"), Report.HERALD, minimal));
      servers.add(
          withArchive(
              new Probe(List.of("cold.minimal.cds"), Report.HERALD, minimal),
              cds.resolve("herald-server")));
      if (Files.isRegularFile(jar)) {
        servers.add(
            new Probe(
                List.of("cold.serve.plain"),
                Report.HERALD,
                List.of(java, "-jar", jar.toString(), "serve", "--stdio")));
        // bin/herald as a user runs it: its own archive, recorded by the untimed first spawn;
        // HERALD_JAR keeps the launcher from building anything.
        servers.add(
            new Probe(
                List.of("cold.serve"),
                Report.HERALD,
                List.of(
                    "bash",
                    b.classpaths.root().resolve("bin/herald").toString(),
                    "serve",
                    "--stdio"),
                Map.of(
                    "HERALD_JAR",
                    jar.toString(),
                    "HERALD_CDS_DIR",
                    cds.resolve("bin-herald").toString(),
                    "JAVA_HOME",
                    System.getProperty("java.home")),
                null));
      } else {
        b.report.note("cold start of herald serve: no " + jar + " (build herald-cli)");
      }
    }
    measure(servers, INITIALIZE, "\"result\"", spawns, deadline);
    try (Child server =
        Child.server(b.classpaths, "ceiling", b.options.get("child-heap"), 200, deadline)) {
      String uri = "http://127.0.0.1:" + server.port + "/mcp";
      List<Probe> clients = new ArrayList<>();
      for (String kind : List.of(Report.HERALD, Report.SDK)) {
        if (b.options.target(kind)) {
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
          clients.add(new Probe(List.of("cold.client"), kind, cmd));
          clients.add(
              withArchive(
                  new Probe(List.of("cold.client.cds"), kind, cmd), cds.resolve(kind + "-client")));
        }
      }
      measure(clients, null, "RESULT", spawns, deadline);
    } catch (Exception e) {
      b.report.note("cold start of clients: the ceiling server failed: " + Bench.reason(e));
    }
  }

  /**
   * One kind of process to spawn: the rows its median goes to, its column, how to run it, what to
   * add to its environment, and the archive its training run must leave (null: no training run).
   */
  private record Probe(
      List<String> keys,
      String column,
      List<String> cmd,
      Map<String, String> env,
      @org.jspecify.annotations.Nullable Training training) {
    Probe(List<String> keys, String column, List<String> cmd) {
      this(keys, column, cmd, Map.of(), null);
    }
  }

  /**
   * A training run's command, the archive it leaves, and whether the process ends by itself when
   * stdin closes (the SDK's stdio server does not: it is stopped, and writes its archive then).
   */
  private record Training(List<String> cmd, Path archive, boolean endsOnEof) {}

  /**
   * The probe's command with the documented archive recipe: the JVM options go right after the
   * {@code java} executable; the training run records, every timed run uses the archive.
   */
  private Probe withArchive(Probe p, Path base) {
    return withArchive(p, base, true);
  }

  private Probe withArchive(Probe p, Path base, boolean endsOnEof) {
    Path file = Path.of(base + (aot ? ".aot" : ".jsa"));
    String record = (aot ? "-XX:AOTCacheOutput=" : "-XX:ArchiveClassesAtExit=") + file;
    String use = (aot ? "-XX:AOTCache=" : "-XX:SharedArchiveFile=") + file;
    // the JVM's messages about the archive go to stderr, never into a stdio transport
    String quiet = "-Xlog:all=warning:stderr";
    return new Probe(
        p.keys(),
        p.column(),
        insert(p.cmd(), quiet, use),
        p.env(),
        new Training(insert(p.cmd(), quiet, record), file, endsOnEof));
  }

  private static List<String> insert(List<String> cmd, String... jvmOptions) {
    List<String> out = new ArrayList<>(cmd.subList(0, 1));
    out.addAll(List.of(jvmOptions));
    out.addAll(cmd.subList(1, cmd.size()));
    return out;
  }

  /**
   * Trains the probes that need it (untimed, one at a time, with time to write their archive as
   * they exit), then spawns them in turn, round after round (one untimed round first), so that a
   * load that drifts, or the time bound, touches each of them alike; then puts each one's median.
   */
  private void measure(List<Probe> probes, String input, String expect, int spawns, long deadline) {
    List<List<Double>> ms = new ArrayList<>();
    List<List<Double>> cpu = new ArrayList<>();
    List<String> failed = new ArrayList<>();
    for (int k = 0; k < probes.size(); k++) {
      ms.add(new ArrayList<>());
      cpu.add(new ArrayList<>());
      Probe p = probes.get(k);
      Training t = p.training();
      String failure = null;
      if (t != null) {
        try {
          Path log =
              Child.log(b.classpaths, "coldstart-train-" + p.keys().get(0) + "-" + p.column());
          Spawn.run(t.cmd(), p.env(), log, input, expect, deadline, t.endsOnEof() ? 120 : 3, 120);
          if (!Files.isRegularFile(t.archive())) {
            failure = "its training run left no archive " + t.archive().getFileName();
          }
        } catch (Exception e) {
          failure = "training run: " + Bench.reason(e);
        }
      }
      failed.add(failure);
    }
    for (int i = 0; i <= spawns && System.nanoTime() < deadline; i++) {
      for (int k = 0; k < probes.size(); k++) {
        Probe p = probes.get(k);
        if (failed.get(k) != null) {
          continue;
        }
        try {
          Path log = Child.log(b.classpaths, "coldstart-" + p.keys().get(0) + "-" + p.column());
          // the first spawn is untimed; bin/herald records its archive then, so give it time
          boolean records = i == 0 && p.env().containsKey("HERALD_CDS_DIR");
          Spawn.Outcome o =
              Spawn.run(p.cmd(), p.env(), log, input, expect, deadline, records ? 120 : 2, 3);
          if (i > 0) {
            ms.get(k).add(o.nanos() / 1e6);
            if (o.cpuNanos() >= 0) {
              cpu.get(k).add(o.cpuNanos() / 1e6);
            }
          } else if (p.env().containsKey("HERALD_CDS_DIR")
              && !hasArchive(Path.of(p.env().get("HERALD_CDS_DIR")))) {
            failed.set(k, "bin/herald recorded no archive in " + p.env().get("HERALD_CDS_DIR"));
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
      List<Double> c = cpu.get(k);
      double cpuMedian =
          c.isEmpty() ? -1 : Bench.median(c.stream().mapToDouble(Double::doubleValue).toArray());
      for (String key : p.keys()) {
        b.report.put(key, p.column(), median);
        if (cpuMedian >= 0) {
          b.report.put(key + ".cpu", p.column(), cpuMedian);
        }
      }
      b.log(
          "[coldstart] %-16s %-7s median %.0f ms of %s; CPU %s",
          p.keys().get(0), p.column(), median, v, c);
    }
  }

  private static boolean hasArchive(Path dir) {
    try (Stream<Path> s = Files.list(dir)) {
      return s.anyMatch(f -> f.toString().endsWith(".aot") || f.toString().endsWith(".jsa"));
    } catch (IOException e) {
      return false;
    }
  }

  /** Removes the archives of an earlier run (they name jars that may have changed since). */
  private static void clean(Path dir) throws IOException {
    if (!Files.isDirectory(dir)) {
      return;
    }
    try (Stream<Path> s = Files.walk(dir)) {
      for (Path p : s.sorted(java.util.Comparator.reverseOrder()).toList()) {
        Files.delete(p);
      }
    }
  }
}
