package dev.herald.peerbench;

import java.io.IOException;

/**
 * Progress: one {@code tools/call} of {@code progress} whose handler sends {@code count}
 * notifications on the call's own SSE stream before the result. Per server: untimed calls (at
 * least {@code progress-warmup} of them, for at least {@code progress-warmup-s} seconds), then
 * {@code progress-rounds} timed ones, each from the POST to the last byte of its answer, one at a
 * time on one session. Figures: notifications per second (median over the timed calls) and the
 * server's process CPU per notification (over all timed calls). Each answer must hold exactly
 * {@code count} progress notifications and the result.
 */
final class ProgressScenario {
  private static final byte[] PROGRESS = Scan.ascii("notifications/progress");
  private final Bench b;

  ProgressScenario(Bench b) {
    this.b = b;
  }

  void run() {
    int n = b.options.integer("progress-count");
    String rate =
        "progress, "
            + String.format(java.util.Locale.ROOT, "%,d", n)
            + " notifications on one call: notifications/s";
    b.report.row("progress.rate", rate, 0, false);
    b.report.row("progress.cpu", "server CPU per progress notification, µs", 2, true);
    for (String t : b.targets()) {
      long deadline = b.scenarioDeadline(120);
      try (Child child = Child.server(b.classpaths, t, b.options.get("child-heap"), 200, deadline);
          Session s = Session.open(child.port)) {
        // Warm-up: at least progress-warmup calls and progress-warmup-s seconds (on a loaded
        // machine the JIT needs the time more than the count).
        long warmEnd = System.nanoTime() + b.options.integer("progress-warmup-s") * 1_000_000_000L;
        for (int i = 0;
            i < b.options.integer("progress-warmup") || System.nanoTime() < warmEnd;
            i++) {
          call(s, n, "w" + i);
          if (System.nanoTime() > deadline) {
            throw new IllegalStateException("time bound reached in the warm-up");
          }
        }
        int rounds = b.options.integer("progress-rounds");
        double[] perSecond = new double[rounds];
        long cpu0 = child.cpu();
        for (int i = 0; i < rounds; i++) {
          long t0 = System.nanoTime();
          call(s, n, "t" + i);
          perSecond[i] = n * 1e9 / (System.nanoTime() - t0);
          if (System.nanoTime() > deadline) {
            throw new IllegalStateException("time bound reached");
          }
        }
        double cpuPer = (child.cpu() - cpu0) / 1e3 / ((double) n * rounds);
        double median = Bench.median(perSecond);
        b.report.put("progress.rate", t, median);
        b.report.put("progress.cpu", t, cpuPer);
        b.log(
            "[progress] %-7s %,12.0f notifications/s (median of %d), %.2f us server CPU each",
            t, median, rounds, cpuPer);
      } catch (Exception e) {
        b.report.note("progress, " + Bench.column(t) + ": " + Bench.reason(e));
        b.log("[progress] %s failed: %s", t, Bench.reason(e));
      }
    }
  }

  private static void call(Session s, int n, String token) throws IOException {
    RawHttp.Response r =
        s.post(s.toolsCall("progress", "{\"count\":" + n + "}", token), "progress");
    int got = Scan.count(r.body(), r.length(), PROGRESS);
    String tail =
        new String(
            r.body(),
            Math.max(0, r.length() - 400),
            Math.min(400, r.length()),
            java.nio.charset.StandardCharsets.UTF_8);
    if (r.head().status() != 200 || got != n || !tail.contains("\"result\"")) {
      throw new IOException(
          "progress call: HTTP "
              + r.head().status()
              + ", "
              + got
              + " of "
              + n
              + " notifications, ends with "
              + Session.brief(tail));
    }
  }
}
