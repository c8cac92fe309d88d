package dev.herald.peerbench;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * Client throughput: Herald's {@code McpClient} against the official Java SDK 2.1.0's {@code
 * McpSyncClient}, each in a child JVM of its own ({@link ClientMain}, fixed heap, G1, its own
 * class path), against the same server: the ceiling, in another child, so that the client's cost
 * dominates. Per client: {@code client-threads} caller threads (a) each with a session of its own,
 * (b) all on one shared client, each after the same warm-up ({@code client-warmup-s}, in the
 * same JVM and configuration), then {@code client-s} seconds counted: calls per second and the
 * client's own process CPU per call. Then progress: {@code client-progress-rounds} calls of {@code
 * progress} with {@code client-progress-count} notifications each (the first half warm-up), on
 * the default transport and on the JDK {@code HttpClient}: notifications received per second and
 * client CPU per notification. Herald's calls are measured three times: on its transport as built
 * by default (on herald-core's {@code Http1Client}, each exchange on its sending thread, since no
 * proxy applies to the loopback server), on the same transport over the JDK {@code HttpClient}
 * ({@code httpEngine(JDK)}) and on herald-jetty-client's (Jetty's HTTP client), in rows of their
 * own with the SDK as the peer.
 */
final class ClientScenario {
  private static final String JETTY = "herald-jetty";
  private static final String JDK = "herald-jdk";
  private final Bench b;

  ClientScenario(Bench b) {
    this.b = b;
  }

  void run() {
    int threads = b.options.integer("client-threads");
    String against = " (against the ceiling server)";
    b.report.row(
        "client.own.rate",
        "client calls/s, " + threads + " threads with a session each" + against,
        0,
        false);
    b.report.row("client.own.cpu", "  the same: client CPU per call, µs", 1, true);
    String jetty = "  Herald on herald-jetty-client (Jetty's HTTP client): ";
    b.report.row("client.own.jetty.rate", jetty + "calls/s", 0, false);
    b.report.row("client.own.jetty.cpu", jetty + "client CPU per call, µs", 1, true);
    String jdk = "  Herald on the JDK HttpClient (httpEngine(JDK)): ";
    b.report.row("client.own.jdk.rate", jdk + "calls/s", 0, false);
    b.report.row("client.own.jdk.cpu", jdk + "client CPU per call, µs", 1, true);
    b.report.row(
        "client.shared.rate",
        "client calls/s, " + threads + " threads on one shared client" + against,
        0,
        false);
    b.report.row("client.shared.cpu", "  the same: client CPU per call, µs", 1, true);
    b.report.row("client.shared.jetty.rate", jetty + "calls/s", 0, false);
    b.report.row("client.shared.jetty.cpu", jetty + "client CPU per call, µs", 1, true);
    b.report.row("client.shared.jdk.rate", jdk + "calls/s", 0, false);
    b.report.row("client.shared.jdk.cpu", jdk + "client CPU per call, µs", 1, true);
    b.report.row(
        "client.progress.rate",
        String.format(
            Locale.ROOT,
            "client progress receive, %,d notifications on one call: notifications/s",
            b.options.integer("client-progress-count")),
        0,
        false);
    b.report.row("client.progress.cpu", "  the same: client CPU per notification, µs", 2, true);
    b.report.row("client.progress.jdk.rate", jdk + "notifications/s", 0, false);
    b.report.row("client.progress.jdk.cpu", jdk + "client CPU per notification, µs", 2, true);
    long deadline = b.scenarioDeadline(600);
    try (Child server =
        Child.server(b.classpaths, "ceiling", b.options.get("child-heap"), 200, deadline)) {
      String uri = "http://127.0.0.1:" + server.port + "/mcp";
      for (String kind : List.of(Report.HERALD, JETTY, JDK, Report.SDK)) {
        if (!b.options.target(kind.equals(JETTY) || kind.equals(JDK) ? Report.HERALD : kind)) {
          continue;
        }
        for (String mode : List.of("own", "shared")) {
          try {
            long[] r =
                loadOnceRerun(
                    kind,
                    mode,
                    deadline,
                    uri,
                    Integer.toString(threads),
                    b.options.get("client-warmup-s"),
                    b.options.get("client-s"));
            double rate = r[0] * 1e9 / r[1];
            double cpu = r[2] / 1e3 / r[0];
            if (kind.equals(JETTY) || kind.equals(JDK)) {
              String row = "client." + mode + (kind.equals(JETTY) ? ".jetty" : ".jdk");
              b.report.put(row + ".rate", Report.HERALD, rate);
              b.report.put(row + ".cpu", Report.HERALD, cpu);
            } else {
              b.report.put("client." + mode + ".rate", kind, rate);
              b.report.put("client." + mode + ".cpu", kind, cpu);
            }
            if (kind.equals(Report.SDK)) { // the peer of the other transports' rows too
              for (String other : List.of(".jetty", ".jdk")) {
                b.report.put("client." + mode + other + ".rate", kind, rate);
                b.report.put("client." + mode + other + ".cpu", kind, cpu);
              }
            }
            b.log(
                "[client] %-6s %-6s %,10.0f calls/s  %.1f us client CPU/call (%d calls)",
                kind, mode, rate, cpu, r[0]);
          } catch (Exception e) {
            b.report.note("client " + mode + ", " + column(kind) + ": " + Bench.reason(e));
            b.log("[client] %s %s failed: %s", kind, mode, Bench.reason(e));
          }
        }
        if (kind.equals(JETTY)) {
          continue; // progress is measured on the default transport and on the JDK client
        }
        try {
          int count = b.options.integer("client-progress-count");
          int rounds = b.options.integer("client-progress-rounds");
          long[] r =
              child(
                  kind,
                  deadline,
                  "progress",
                  uri,
                  Integer.toString(count),
                  Integer.toString(rounds));
          long expected = (long) count * (rounds - rounds / 2);
          double rate = r[0] * 1e9 / r[1];
          double cpu = r[2] / 1e3 / Math.max(1, r[0]);
          String row = kind.equals(JDK) ? "client.progress.jdk" : "client.progress";
          String column = kind.equals(JDK) ? Report.HERALD : kind;
          b.report.put(row + ".rate", column, rate);
          b.report.put(row + ".cpu", column, cpu);
          if (kind.equals(Report.SDK)) { // the peer of the JDK client's row too
            b.report.put("client.progress.jdk.rate", kind, rate);
            b.report.put("client.progress.jdk.cpu", kind, cpu);
          }
          if (r[0] != expected) {
            b.report.note(
                String.format(
                    Locale.ROOT,
                    "client progress, %s: %,d of %,d notifications reached the listener",
                    column(kind),
                    r[0],
                    expected));
          }
          b.log(
              "[client] %-6s progress %,10.0f notifications/s  %.2f us client CPU each (%d of %d)",
              kind, rate, cpu, r[0], expected);
        } catch (Exception e) {
          b.report.note("client progress, " + column(kind) + ": " + Bench.reason(e));
          b.log("[client] %s progress failed: %s", kind, Bench.reason(e));
        }
      }
    } catch (Exception e) {
      b.report.note("client: the ceiling server failed: " + Bench.reason(e));
    }
  }

  /**
   * Runs a load child; when it fails, notes why (the root cause its log names) and runs the same
   * configuration once more in a fresh JVM. The JDK {@code HttpClient} (the SDK's transport, and
   * Herald's with {@code httpEngine(JDK)}) can fail a call when it reuses a pooled keep-alive
   * connection: the next answer reaches the pool's idle-connection watcher before the new
   * exchange's reader ("Data received while in pool", JDK-8338569 and JDK-8357639, not fixed in
   * JDK 25.0.3), more often the faster the server answers. A rerun that passes is still reported
   * in the notes.
   */
  private long[] loadOnceRerun(String kind, String mode, long deadline, String... args)
      throws Exception {
    List<String> all = new ArrayList<>(List.of("load", mode));
    all.addAll(List.of(args));
    String[] cmd = all.toArray(String[]::new);
    Path log = Child.log(b.classpaths, "client-" + kind);
    long from = Files.exists(log) ? Files.size(log) : 0;
    try {
      return child(kind, deadline, cmd);
    } catch (Exception first) {
      String why = rootCause(log, from);
      b.log("[client] %s %s failed (%s), running it once more", kind, mode, why);
      long again = Files.exists(log) ? Files.size(log) : 0;
      try {
        long[] r = child(kind, deadline, cmd);
        b.report.note(
            "client "
                + mode
                + ", "
                + column(kind)
                + ": the first run failed ("
                + why
                + "); the figures are from a second run in a fresh JVM");
        return r;
      } catch (Exception second) {
        throw new IOException("failed twice: " + why + "; then " + rootCause(log, again), second);
      }
    }
  }

  private static String column(String kind) {
    return switch (kind) {
      case JETTY -> "Herald on herald-jetty-client";
      case JDK -> "Herald on the JDK HttpClient";
      default -> Bench.column(kind);
    };
  }

  /** The innermost {@code Caused by} (else the first line) a child wrote to its log after {@code from}. */
  static String rootCause(Path log, long from) {
    try {
      byte[] all = Files.readAllBytes(log);
      String text =
          new String(
              all,
              (int) Math.min(from, all.length),
              all.length - (int) Math.min(from, all.length),
              StandardCharsets.UTF_8);
      String found = null;
      for (String line : text.lines().toList()) {
        String t = line.strip();
        if (t.startsWith("Caused by: ")) {
          found = t.substring("Caused by: ".length());
        } else if (found == null && !t.isEmpty() && !t.startsWith("at ")) {
          found = t;
        }
      }
      return found == null ? "no output" : found;
    } catch (IOException e) {
      return "log unreadable: " + e.getMessage();
    }
  }

  /** Runs a {@link ClientMain} and returns the three numbers of its RESULT line. */
  private long[] child(String kind, long deadline, String... args) throws Exception {
    List<String> cmd = Child.jvm(b.options.get("child-heap"));
    // kind is herald, herald-jetty, herald-jdk (Herald's class path) or sdk
    cmd.addAll(List.of("-cp", b.classpaths.forRole(kind), ClientMain.class.getName(), kind));
    cmd.addAll(List.of(args));
    cmd.add(Long.toString(Child.secondsLeft(deadline)));
    Spawn.Outcome o =
        Spawn.run(cmd, Child.log(b.classpaths, "client-" + kind), null, "RESULT", deadline);
    String[] f = o.line().trim().split(" ", -1);
    List<Long> v = new ArrayList<>();
    for (int i = 1; i < f.length; i++) {
      v.add(Long.parseLong(f[i]));
    }
    return new long[] {v.get(0), v.get(1), v.get(2)};
  }
}
