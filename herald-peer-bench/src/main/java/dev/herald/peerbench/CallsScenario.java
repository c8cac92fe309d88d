package dev.herald.peerbench;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;

/**
 * Echo calls: {@code call-sessions} callers, each a platform thread with a connection (and, in
 * the handshake era, a session) of its own, send {@code tools/call echo} back to back: {@code
 * calls-warmup-s} seconds of warm-up, then {@code calls-s} seconds timed. Figures: calls per
 * second, the latency of each call (POST to the last byte of its answer, p50 and p99) and the
 * server's process CPU per call. Every answer must be HTTP 200 with a result carrying the text.
 *
 * <p>Handshake era (2025-11-25) against Herald, the SDK 2.1.0 and the ceiling; stateless
 * 2026-07-28 (no session, per-request {@code _meta} and headers) against Herald, the SDK 2.2.0's
 * modern server (in the Java SDK column) and the ceiling (which answers either era alike).
 */
final class CallsScenario {
  private final Bench b;

  CallsScenario(Bench b) {
    this.b = b;
  }

  void run() {
    int sessions = b.options.integer("call-sessions");
    rows("calls", "echo calls/s, " + sessions + " sessions (handshake 2025-11-25)");
    for (String t : b.targets()) {
      measure("calls", t, t, false, sessions);
    }
    if (Boolean.parseBoolean(b.options.get("stateless"))) {
      rows(
          "stateless",
          "stateless 2026-07-28 echo calls/s, " + sessions + " callers (Java SDK: mcp-core 2.2.0)");
      for (String t : b.targets()) {
        measure("stateless", t, t.equals(Report.SDK) ? "jsdk22" : t, true, sessions);
      }
    }
  }

  private void rows(String key, String label) {
    b.report.row(key + ".rate", label, 0, false);
    b.report.row(key + ".p50", "  the same: latency p50, µs", 0, true);
    b.report.row(key + ".p99", "  the same: latency p99, µs", 0, true);
    b.report.row(key + ".cpu", "  the same: server CPU per call, µs", 1, true);
  }

  private void measure(String key, String column, String server, boolean stateless, int n) {
    long deadline = b.scenarioDeadline(120);
    String heap = b.options.get("child-heap");
    List<Session> sessions = new ArrayList<>();
    try (Child child =
        server.equals("jsdk22")
            ? Child.jsdk22(b.classpaths, heap, deadline)
            : Child.server(b.classpaths, server, heap, 200, deadline)) {
      for (int i = 0; i < n; i++) {
        sessions.add(stateless ? Session.stateless(child.port) : Session.open(child.port));
      }
      burst(sessions, TimeUnit.SECONDS.toNanos(b.options.integer("calls-warmup-s")), deadline);
      long cpu0 = child.cpu();
      long t0 = System.nanoTime();
      long[] lat =
          burst(sessions, TimeUnit.SECONDS.toNanos(b.options.integer("calls-s")), deadline);
      long wall = System.nanoTime() - t0;
      long cpu = child.cpu() - cpu0;
      Arrays.sort(lat);
      double rate = lat.length * 1e9 / wall;
      double p50 = Bench.percentile(lat, 50) / 1e3;
      double p99 = Bench.percentile(lat, 99) / 1e3;
      double cpuPer = cpu / 1e3 / lat.length;
      b.report.put(key + ".rate", column, rate);
      b.report.put(key + ".p50", column, p50);
      b.report.put(key + ".p99", column, p99);
      b.report.put(key + ".cpu", column, cpuPer);
      b.log(
          "[%s] %-7s %,10.0f calls/s  p50 %,7.0f us  p99 %,7.0f us  %.1f us server CPU/call (%d calls)",
          key, server, rate, p50, p99, cpuPer, lat.length);
      for (Session s : sessions) {
        if (!stateless) {
          s.delete(child.port);
        }
      }
    } catch (Exception e) {
      b.report.note(key + ", " + server + ": " + Bench.reason(e));
      b.log("[%s] %s failed: %s", key, server, Bench.reason(e));
    } finally {
      sessions.forEach(Session::close);
    }
  }

  /** Calls from every session for {@code nanos}; returns each call's latency. */
  private static long[] burst(List<Session> sessions, long nanos, long deadline) throws Exception {
    long end = Math.min(deadline, System.nanoTime() + nanos);
    AtomicReference<Exception> failed = new AtomicReference<>();
    long[][] lat = new long[sessions.size()][];
    int[] count = new int[sessions.size()];
    List<Thread> threads = new ArrayList<>();
    for (int k = 0; k < sessions.size(); k++) {
      int me = k;
      Session s = sessions.get(k);
      lat[k] = new long[1 << 14];
      threads.add(
          Thread.ofPlatform()
              .name("driver-" + k)
              .start(() -> {
                try {
                  long i = 0;
                  while (failed.get() == null) {
                    long t0 = System.nanoTime();
                    if (t0 >= end) {
                      break;
                    }
                    s.echo("hello-" + me + "-" + i++);
                    if (count[me] == lat[me].length) {
                      lat[me] = Arrays.copyOf(lat[me], lat[me].length * 2);
                    }
                    lat[me][count[me]++] = System.nanoTime() - t0;
                  }
                } catch (Exception e) {
                  failed.compareAndSet(null, e);
                }
              }));
    }
    for (Thread t : threads) {
      t.join();
    }
    if (failed.get() != null) {
      throw failed.get();
    }
    int total = 0;
    for (int c : count) {
      total += c;
    }
    long[] all = new long[total];
    int at = 0;
    for (int k = 0; k < lat.length; k++) {
      System.arraycopy(lat[k], 0, all, at, count[k]);
      at += count[k];
    }
    return all;
  }
}
