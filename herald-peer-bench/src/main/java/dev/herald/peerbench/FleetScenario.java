package dev.herald.peerbench;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;

/**
 * List change to many sessions with open GET streams, and the heap an idle session costs.
 *
 * <p>Per server: a warm-up fleet of 20 sessions (opened, sent one change, closed); the baseline
 * heap; {@code sessions} sessions ({@code initialize} and {@code notifications/initialized} on
 * one connection, then the standing GET on a fresh connection, or with {@code --get-connection
 * reuse} on the same one, read line by line on a virtual thread), opened 16 at a time; the heap
 * again: (loaded - baseline) / sessions is the live heap per idle session ({@code heap}). Then
 * ({@code fanout}) {@code fanout-warmup} + {@code fanout-rounds} triggers, one at a time: the
 * child adds a tool and answers with its nanoTime at the call (the same CLOCK_MONOTONIC as the
 * driver's), and each session's arrival of {@code notifications/tools/list_changed} is timed
 * from it. Figures: first, median and last arrival,
 * medians over the timed triggers (warm), and the last arrival of the first trigger (cold); the
 * child's process CPU from just before each trigger to the last arrival, per session (warm
 * median; it includes anything else the child ran meanwhile, GC and JIT among it). Each trigger's
 * log line also has the CPU time and allocation of the child's thread that made the call (the
 * fan-out loop itself for Herald and the ceiling) and the collections and JIT time of the child and
 * of this driver during it, so a slow trigger can be told from a slow fan-out. At the end every
 * session is DELETEd.
 */
final class FleetScenario {
  private static final String MARKER = "notifications/tools/list_changed";
  private final Bench b;

  FleetScenario(Bench b) {
    this.b = b;
  }

  void run() {
    int n = b.options.integer("sessions");
    boolean fanout = b.options.wants("fanout");
    boolean heap = b.options.wants("heap");
    String sessions = String.format(java.util.Locale.ROOT, "%,d", n);
    if (fanout) {
      String what = "list change to " + sessions + " sessions with open GET streams, warm: ";
      b.report.row("fanout.first", what + "first ms", 1, true);
      b.report.row("fanout.median", "  the same: median ms", 1, true);
      b.report.row("fanout.last", "  the same: last ms", 1, true);
      b.report.row("fanout.coldLast", "  the same, first round (cold): last ms", 1, true);
      b.report.row("fanout.cpu", "  the same: server CPU per session, warm, µs", 1, true);
    }
    if (heap) {
      b.report.row("heap.session", "live heap per idle session with an open GET, B", 0, true);
    }
    for (String t : b.targets()) {
      try {
        runTarget(t, n, fanout, heap);
      } catch (Exception e) {
        b.report.note("fan-out/heap, " + Bench.column(t) + ": " + Bench.reason(e));
        b.log("[fanout] %s failed: %s", t, Bench.reason(e));
      }
    }
  }

  private void runTarget(String t, int n, boolean fanout, boolean heap) throws Exception {
    long deadline = b.scenarioDeadline(300);
    int warmup = b.options.integer("fanout-warmup");
    int rounds = b.options.integer("fanout-rounds");
    boolean freshGet = b.options.get("get-connection").equals("fresh");
    int events = fanout ? 1 + warmup + rounds : 0;
    List<Fleet> fleets = new ArrayList<>();
    // The readers end when their sockets close: the child and the fleets close before them.
    try (ExecutorService readers = Executors.newVirtualThreadPerTaskExecutor();
        Child child =
            Child.server(b.classpaths, t, b.options.get("child-heap"), n + 100, deadline);
        AutoCloseable sockets = () -> fleets.forEach(Fleet::abort)) {
      child.checkClock();
      Fleet warm = new Fleet(child.port, Math.min(20, n), 2, readers, freshGet);
      fleets.add(warm);
      warm.open(deadline);
      warm.await(0, child.trigger(0), deadline);
      warm.close(deadline);
      Thread.sleep(500);
      long baseline = heap ? child.heap() : 0;
      child.histogram("baseline");
      Fleet fleet = new Fleet(child.port, n, Math.max(1, events), readers, freshGet);
      fleets.add(fleet);
      long t0 = System.nanoTime();
      fleet.open(deadline);
      b.log(
          "[fanout] %-7s %d sessions with open GET streams in %d ms",
          t, n, TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - t0));
      if (heap) {
        double perSession = (double) (child.heap() - baseline) / n;
        child.histogram("loaded");
        b.report.put("heap.session", t, perSession);
        b.log("[heap]   %-7s %,.0f B per idle session with an open GET", t, perSession);
      }
      if (fanout) {
        double[] first = new double[rounds];
        double[] median = new double[rounds];
        double[] last = new double[rounds];
        double[] cpu = new double[rounds];
        double[] loopCpu = new double[rounds];
        double[] loopAlloc = new double[rounds];
        double[] loopUser = new double[rounds];
        int slowWithGc = 0;
        for (int r = 0; r < 1 + warmup + rounds; r++) {
          Thread.sleep(300);
          Pauses server0 = child.pauses();
          Pauses driver0 = Pauses.now();
          long cpu0 = child.cpu();
          long driverCpu0 = Cpu.processNanos();
          long[] trig = child.triggerTimed(r + 1);
          long[] d = fleet.await(r, trig[0], deadline);
          double dc = (Cpu.processNanos() - driverCpu0) / 1e3 / n; // the driver's reading
          double c = (child.cpu() - cpu0) / 1e3 / n; // the fan-out and what it set off, per session
          Pauses driver = Pauses.now().minus(driver0);
          Pauses server = child.pauses().minus(server0);
          Arrays.sort(d);
          double f = d[0] / 1e6;
          double m = Bench.percentile(d, 50) / 1e6;
          double l = d[d.length - 1] / 1e6;
          double lc = trig[2] / 1e3 / n;
          double la = (double) trig[3] / n;
          double lu = trig[4] / 1e3 / n;
          b.log(
              "[fanout] %-7s %s %d: first %.2f  median %.2f  last %.2f ms;"
                  + " trigger call %.2f ms, server CPU %.1f us/session, calling thread %.1f us (user %.1f) and"
                  + " %.0f B/session; server GC %d (%d ms), JIT %d ms; driver GC %d (%d ms), driver CPU"
                  + " %.1f us/session",
              t,
              r < 1 + warmup ? "warm-up" : "timed",
              r + 1,
              f,
              m,
              l,
              trig[1] / 1e6,
              c,
              lc,
              lu,
              la,
              server.collections(),
              server.gcMillis(),
              server.jitMillis(),
              driver.collections(),
              driver.gcMillis(),
              dc);
          if (r == 0) {
            b.report.put("fanout.coldLast", t, l);
          } else if (r >= 1 + warmup) {
            int i = r - 1 - warmup;
            first[i] = f;
            median[i] = m;
            last[i] = l;
            cpu[i] = c;
            loopCpu[i] = lc;
            loopAlloc[i] = la;
            loopUser[i] = lu;
            if (server.collections() + driver.collections() > 0) {
              slowWithGc++;
            }
          }
        }
        b.report.put("fanout.first", t, Bench.median(first));
        b.report.put("fanout.median", t, Bench.median(median));
        b.report.put("fanout.last", t, Bench.median(last));
        b.report.put("fanout.cpu", t, Bench.median(cpu));
        double[] sorted = last.clone();
        Arrays.sort(sorted);
        b.log(
            "[fanout] %-7s timed: last %.1f-%.1f ms (median %.1f); calling thread %.1f us (user %.1f) and"
                + " %.0f B per session (medians); %d of %d timed triggers had a collection in the"
                + " server or the driver",
            t,
            sorted[0],
            sorted[sorted.length - 1],
            Bench.median(last),
            Bench.median(loopCpu),
            Bench.median(loopUser),
            Bench.median(loopAlloc),
            slowWithGc,
            rounds);
      }
      fleet.close(deadline);
    }
  }

  /** N sessions with standing GET streams whose lines are scanned for the list-change event. */
  private static final class Fleet {
    private final int port;
    private final int n;
    private final long[][] arrivals;
    private final CountDownLatch[] done;
    private final List<Session> sessions = new java.util.concurrent.CopyOnWriteArrayList<>();
    private final ExecutorService readers;
    private final AtomicReference<Throwable> failure = new AtomicReference<>();
    private final boolean freshGet;
    private final CountDownLatch heads;
    private volatile boolean closing;

    Fleet(int port, int n, int events, ExecutorService readers, boolean freshGet) {
      this.port = port;
      this.freshGet = freshGet;
      this.heads = new CountDownLatch(n);
      this.n = n;
      this.readers = readers;
      this.arrivals = new long[events][n];
      this.done = new CountDownLatch[events];
      for (int i = 0; i < events; i++) {
        done[i] = new CountDownLatch(n);
      }
    }

    /**
     * Opens every session and sends its GET, 16 at a time; returns once every GET was sent and a
     * second passed (the SDK 2.1.0 sends a GET's head only with its first event, so the head
     * cannot be waited for; the warm-up trigger checks that every stream is there).
     */
    void open(long deadline) throws Exception {
      Semaphore slots = new Semaphore(16);
      CountDownLatch streaming = new CountDownLatch(n);
      for (int i = 0; i < n; i++) {
        if (!slots.tryAcquire(Math.max(1, deadline - System.nanoTime()), TimeUnit.NANOSECONDS)) {
          throw new IllegalStateException("time bound reached opening sessions");
        }
        check();
        int k = i;
        readers.execute(() -> {
          boolean sent = false;
          try {
            Session s = Session.open(port);
            sessions.add(s);
            if (freshGet) {
              s.reconnect(port);
            }
            s.sendStandingGet();
            sent = true;
            slots.release();
            streaming.countDown();
            InputStream body = s.standingBody();
            heads.countDown();
            read(k, body);
          } catch (IOException | RuntimeException e) {
            if (!closing) {
              failure.compareAndSet(null, e);
            }
            if (!sent) {
              slots.release();
            }
          }
        });
      }
      while (!streaming.await(200, TimeUnit.MILLISECONDS)) {
        check();
        if (System.nanoTime() > deadline) {
          throw new IllegalStateException(
              streaming.getCount() + " of " + n + " GET streams not open");
        }
      }
      // Herald and the ceiling send a GET's head at once; the SDK 2.1.0 only with its first
      // event, so heads are waited for up to a bound, then a second more.
      heads.await(Math.max(1_000, Math.min(10_000, n * 10L)), TimeUnit.MILLISECONDS);
      Thread.sleep(1000);
      check();
    }

    /** Closes every connection at once (on the way out, whatever happened). */
    void abort() {
      closing = true;
      sessions.forEach(Session::close);
    }

    private void read(int k, InputStream body) {
      int seen = 0;
      try (BufferedReader r =
          new BufferedReader(new InputStreamReader(body, StandardCharsets.UTF_8), 1024)) {
        for (String line; (line = r.readLine()) != null; ) {
          if (line.contains(MARKER)) {
            long now = System.nanoTime();
            if (seen < arrivals.length) {
              arrivals[seen][k] = now;
              done[seen].countDown();
            }
            seen++;
          }
        }
        if (!closing) {
          failure.compareAndSet(null, new IOException("GET stream " + k + " ended early"));
        }
      } catch (IOException e) {
        if (!closing) {
          failure.compareAndSet(null, e);
        }
      }
    }

    /** Waits until every session saw event {@code r}; returns each arrival from {@code from}. */
    long[] await(int r, long from, long deadline) throws Exception {
      while (!done[r].await(200, TimeUnit.MILLISECONDS)) {
        check();
        if (System.nanoTime() > deadline) {
          throw new IllegalStateException(
              "event " + r + " reached " + (n - done[r].getCount()) + " of " + n + " sessions");
        }
      }
      long[] d = arrivals[r].clone();
      for (int i = 0; i < d.length; i++) {
        d[i] -= from;
      }
      return d;
    }

    /** DELETEs every session (32 at a time) and closes their connections. */
    void close(long deadline) throws Exception {
      closing = true;
      Semaphore slots = new Semaphore(32);
      CountDownLatch deleted = new CountDownLatch(sessions.size());
      for (Session s : sessions) {
        slots.acquire();
        readers.execute(() -> {
          try {
            s.delete(port);
            s.close();
          } finally {
            slots.release();
            deleted.countDown();
          }
        });
      }
      deleted.await(Math.max(1, deadline - System.nanoTime()), TimeUnit.NANOSECONDS);
    }

    private void check() {
      Throwable t = failure.get();
      if (t != null) {
        throw new IllegalStateException("session failed: " + t, t);
      }
    }
  }
}
