package dev.herald.bench;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.PrintStream;
import java.io.Writer;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Flow;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;

/**
 * End-to-end benchmark of a list change fanned out to many sessions with open GET streams
 * (docs/benchmarks.md, "List-change fan-out"): heap per idle session, and the time from {@code
 * McpServer.addTool} to the moment the last session's standing stream delivered {@code
 * notifications/tools/list_changed}, against a "ceiling" Jetty handler that does the least possible
 * work per message.
 *
 * <p><b>Shape.</b> This {@code main} is the load driver. Each server under test runs in its own
 * child JVM ({@link FanoutServer}, launched here with a fixed {@code -Xms}/{@code -Xmx} and the
 * same class path), so the heap figures are the server's alone: the driver's 1,000 HTTP clients,
 * buffers and arrival tables never share its heap. The child is steered over its stdin/stdout (one
 * command line, one answer line: {@code heap}, {@code trigger}, {@code cpu}, {@code quit}), which
 * adds no connection or thread to the server being measured. Timestamps are {@link
 * System#nanoTime()} on both sides; on Linux both read {@code CLOCK_MONOTONIC}, which is shared
 * by all processes (checked at start: the child's clock must fall between the driver's send and
 * receive of a ping).
 *
 * <p><b>Per target</b> (Herald, then the ceiling): a warm-up of a few sessions (opened, sent one
 * change, closed) so lazy statics and pools exist before the baseline; the baseline heap (used
 * heap after {@code System.gc()}, median of three); N sessions opened with the JDK {@link
 * HttpClient} over HTTP/1.1, each {@code initialize}, {@code notifications/initialized}, then a
 * standing GET read line by line (one connection per open GET); the heap again, so {@code (heap
 * - baseline) / N} is the heap per idle session; then W untimed and R timed triggers, each
 * waiting until every session saw the event. Per trigger: time to the first, median, p99 and last
 * session, and the server's CPU time per delivered event. At the end every session is DELETEd
 * and the child is stopped. A hard overall timeout ({@code --timeout-s}) ends everything.
 *
 * <p>Options: {@code --sessions N} (1000), {@code --rounds R} (5), {@code --warmup W} (3),
 * {@code --targets herald,ceiling}, {@code --debounce-ms} (10, Herald's default: the first change goes out at once), {@code --child-heap} (512m),
 * {@code --open-concurrency} (16), {@code --timeout-s} (600), {@code --json FILE}, and {@code
 * --nodes K --redis-uri URI}: Herald as K nodes of one cluster on that Redis (docs/scale-out.md),
 * each its own child JVM; session k is made on node k mod K and its GET opened on the next node,
 * the change is made on node 0, heap and CPU are the nodes' sums, and each change's Redis
 * commands are counted ({@code INFO commandstats} through {@code redis-cli}). With {@code
 * --balancer haproxy} the nodes sit behind a real HAProxy (round robin over every request, no
 * stickiness): every session's POSTs and GET go to the balancer, which picks their nodes.
 */
public final class FanoutHarness {
  static final String MARKER = "notifications/tools/list_changed";
  private static final String VERSION = "2025-11-25";
  private static final String ACCEPT_POST = "application/json, text/event-stream";

  private final int sessions;

  /** Herald nodes of one cluster (1: a single node, no Redis). */
  private final int nodes;

  private final @org.jspecify.annotations.Nullable String redisUri;

  /**
   * Whether Herald's clients go through a real HAProxy in front of its nodes (round robin, no
   * stickiness) instead of to the nodes directly.
   */
  private final boolean balancer;

  private final int rounds;
  private final int warmup;
  private final List<String> targets;
  private final int debounceMs;
  private final String childHeap;
  private final int openConcurrency;
  private final long deadlineNanos;
  private final @org.jspecify.annotations.Nullable Path json;
  private final PrintStream out = System.out;

  private FanoutHarness(Map<String, String> o) {
    this.sessions = Integer.parseInt(o.getOrDefault("sessions", "1000"));
    this.nodes = Integer.parseInt(o.getOrDefault("nodes", "1"));
    this.redisUri = o.get("redis-uri");
    if (nodes > 1 && redisUri == null) {
      throw new IllegalArgumentException("--nodes " + nodes + " needs --redis-uri");
    }
    String lb = o.getOrDefault("balancer", "none");
    if (!lb.equals("none") && !lb.equals("haproxy")) {
      throw new IllegalArgumentException("--balancer is none or haproxy, was " + lb);
    }
    this.balancer = lb.equals("haproxy");
    this.rounds = Integer.parseInt(o.getOrDefault("rounds", "5"));
    this.warmup = Integer.parseInt(o.getOrDefault("warmup", "3"));
    this.targets = List.of(o.getOrDefault("targets", "herald,ceiling").split(","));
    this.debounceMs = Integer.parseInt(o.getOrDefault("debounce-ms", "10"));
    this.childHeap = o.getOrDefault("child-heap", "512m");
    this.openConcurrency = Integer.parseInt(o.getOrDefault("open-concurrency", "16"));
    this.deadlineNanos =
        System.nanoTime()
            + TimeUnit.SECONDS.toNanos(Long.parseLong(o.getOrDefault("timeout-s", "600")));
    this.json = o.containsKey("json") ? Path.of(o.get("json")) : null;
    if (sessions < 1 || rounds < 1 || warmup < 0 || openConcurrency < 1) {
      throw new IllegalArgumentException(
          "sessions, rounds and open-concurrency must be positive, warmup not negative");
    }
  }

  public static void main(String[] args) throws Exception {
    if (args.length > 0 && args[0].equals("--child")) {
      FanoutServer.main(Arrays.copyOfRange(args, 1, args.length));
      return;
    }
    Map<String, String> o = new LinkedHashMap<>();
    for (int i = 0; i < args.length; i++) {
      String a = args[i];
      if (!a.startsWith("--") || i + 1 >= args.length) {
        System.err.println(
            "usage: FanoutHarness [--sessions N] [--nodes K --redis-uri URI] [--rounds R] [--warmup W] [--balancer haproxy] [--targets herald,ceiling]"
                + " [--debounce-ms MS] [--child-heap 512m] [--open-concurrency C] [--timeout-s S] [--json FILE]");
        System.exit(2);
      }
      o.put(a.substring(2), args[++i]);
    }
    FanoutHarness h = new FanoutHarness(o);
    // The hard timeout: whatever hangs, the driver and (through their closed stdin) its children
    // end.
    Thread watchdog =
        Thread.ofPlatform()
            .daemon()
            .start(() -> {
              try {
                Thread.sleep(
                    Math.max(
                        1,
                        TimeUnit.NANOSECONDS.toMillis(h.deadlineNanos - System.nanoTime())
                            + 5_000));
                System.err.println("fanout: hard timeout reached, exiting");
                Runtime.getRuntime().halt(3);
              } catch (InterruptedException e) {
                // done in time
              }
            });
    int rc = h.run();
    watchdog.interrupt();
    System.exit(rc);
  }

  private int run() throws Exception {
    out.printf(
        Locale.ROOT,
        "fanout: %d sessions, %d warm-up + %d timed triggers, debounce %d ms, child heap %s, %s%n",
        sessions,
        warmup,
        rounds,
        debounceMs,
        childHeap,
        Runtime.version());
    List<Result> results = new ArrayList<>();
    for (String t : targets) {
      results.add(runTarget(t.trim()));
    }
    printTable(results);
    if (json != null) {
      writeJson(results);
    }
    return 0;
  }

  // ---------------------------------------------------------------- one target

  /** What one target measured. */
  record Result(
      String target,
      int sessions,
      long baselineHeap,
      long loadedHeap,
      List<Round> rounds,
      long openMillis) {
    double heapPerSession() {
      return (double) (loadedHeap - baselineHeap) / sessions;
    }
  }

  /** One timed trigger: nanoseconds from the trigger to each quantile of arrivals, and server CPU. */
  record Round(
      long first, long median, long p99, long last, long serverCpuNanos, long triggerCallNanos) {}

  private Result runTarget(String target) throws Exception {
    if (!target.equals("herald") && !target.equals("ceiling")) {
      throw new IllegalArgumentException("unknown target " + target + " (herald or ceiling)");
    }
    int k = target.equals("herald") ? nodes : 1;
    out.printf(Locale.ROOT, "%n[%s] starting %d child JVM(s)%n", target, k);
    List<Child> children = new ArrayList<>();
    dev.herald.testing.@org.jspecify.annotations.Nullable HaproxyProcess lb = null;
    try (ExecutorServiceCloser ex =
            new ExecutorServiceCloser(Executors.newVirtualThreadPerTaskExecutor());
        HttpClient http =
            HttpClient.newBuilder()
                .version(HttpClient.Version.HTTP_1_1)
                .connectTimeout(Duration.ofSeconds(10))
                .executor(ex.executor)
                .build()) {
      boolean viaBalancer = balancer && target.equals("herald");
      int lbPort = viaBalancer ? dev.herald.testing.RedisProcess.freePort() : 0;
      for (int i = 0; i < k; i++) {
        children.add(
            Child.start(
                target + (k > 1 ? "-" + i : ""),
                target,
                childHeap,
                debounceMs,
                sessions + 100,
                k > 1 ? redisUri : null,
                viaBalancer ? "127.0.0.1:" + lbPort : null,
                deadlineNanos));
      }
      Child child = children.get(0); // the node where the catalog changes
      List<URI> bases = new ArrayList<>();
      List<Integer> ports = new ArrayList<>();
      for (Child c : children) {
        c.checkClock();
        bases.add(URI.create("http://127.0.0.1:" + c.port + "/mcp"));
        ports.add(c.port);
      }
      if (viaBalancer) {
        // every session's POSTs and GET go through the balancer, each to whichever node is next
        lb = dev.herald.testing.HaproxyProcess.start(lbPort, ports, sessions + 200);
        bases = List.of(lb.uri("/mcp"));
        out.printf(Locale.ROOT, "[%s] clients go through HAProxy on port %d%n", target, lbPort);
      }
      int total = warmup + rounds;

      // Warm-up: lazy statics, Jetty's pools and the JIT's first pass exist before the baseline.
      int warmN = Math.min(20, sessions);
      Fleet warm = new Fleet(http, bases, warmN, 1);
      warm.open(openConcurrency, deadlineNanos);
      child.trigger(0);
      warm.await(0, deadlineNanos);
      warm.close(deadlineNanos);
      Thread.sleep(500);

      long baseline = heap(children);
      out.printf(
          Locale.ROOT,
          "[%s] baseline heap %.1f MB; opening %d sessions%n",
          target,
          baseline / 1e6,
          sessions);
      Fleet fleet = new Fleet(http, bases, sessions, total);
      long t0 = System.nanoTime();
      try {
        fleet.open(openConcurrency, deadlineNanos);
      } catch (Exception e) {
        // said now: closing the client afterwards waits for the streams already open
        out.printf(Locale.ROOT, "[%s] opening the sessions failed: %s%n", target, e);
        out.flush();
        throw e;
      }
      long openMillis = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - t0);
      Thread.sleep(1000); // let the last writes and handlers settle
      long loaded = heap(children);
      out.printf(
          Locale.ROOT,
          "[%s] %d GET streams open in %d ms; heap %.1f MB -> %.0f B per idle session%n",
          target,
          sessions,
          openMillis,
          loaded / 1e6,
          (double) (loaded - baseline) / sessions);

      List<Round> timed = new ArrayList<>();
      for (int r = 0; r < total; r++) {
        Thread.sleep(300);
        long cpu0 = cpu(children);
        long ops0 = k > 1 ? redisCalls() : 0;
        long[] trig = child.trigger(r + 1);
        long tTrigger = trig[0];
        fleet.await(r, deadlineNanos);
        Thread.sleep(100); // writes done; the CPU figure then covers the whole fan-out
        long cpu = cpu(children) - cpu0;
        long ops = k > 1 ? redisCalls() - ops0 - 1 : 0; // less the INFO that read it
        long[] d = fleet.arrivals(r);
        for (int i = 0; i < d.length; i++) {
          d[i] -= tTrigger;
        }
        Arrays.sort(d);
        Round round = new Round(d[0], pct(d, 50), pct(d, 99), d[d.length - 1], cpu, trig[1]);
        out.printf(
            Locale.ROOT,
            "[%s] %s %d: first %.2f  median %.2f  p99 %.2f  last %.2f ms; server CPU %.1f us/session%n",
            target,
            r < warmup ? "warm-up" : "trigger",
            r < warmup ? r + 1 : r - warmup + 1,
            ms(round.first),
            ms(round.median),
            ms(round.p99),
            ms(round.last),
            cpu / 1e3 / sessions);
        if (k > 1) {
          out.printf(
              Locale.ROOT,
              "[%s] Redis commands for this change, counting those its scripts ran: %d (%.2f per"
                  + " session told)%n",
              target,
              ops,
              (double) ops / sessions);
        }
        if (r >= warmup) {
          timed.add(round);
        }
      }
      long c0 = System.nanoTime();
      fleet.close(deadlineNanos);
      out.printf(
          Locale.ROOT,
          "[%s] closed %d sessions in %d ms%n",
          target,
          sessions,
          TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - c0));
      for (Child c : children) {
        c.quit();
      }
      // The servers are gone: abort what the client still holds, or closing it waits for streams
      // whose end it never saw (seen with three nodes).
      http.shutdownNow();
      return new Result(
          target + (k > 1 ? " x" + k + " nodes" : "") + (viaBalancer ? " behind HAProxy" : ""),
          sessions,
          baseline,
          loaded,
          timed,
          openMillis);
    } finally {
      for (Child c : children) {
        c.close();
      }
      if (lb != null) {
        lb.close();
      }
    }
  }

  private static long heap(List<Child> children) throws IOException {
    long sum = 0;
    for (Child c : children) {
      sum += c.heap();
    }
    return sum;
  }

  private static long cpu(List<Child> children) throws IOException {
    long sum = 0;
    for (Child c : children) {
      sum += c.cpu();
    }
    return sum;
  }

  /** Commands Redis has run so far, all commands summed. */
  private long redisCalls() throws IOException, InterruptedException {
    long sum = 0;
    for (long calls : RedisCommandStats.read(java.util.Objects.requireNonNull(redisUri)).values()) {
      sum += calls;
    }
    return sum;
  }

  private static long pct(long[] sorted, int p) {
    int i = (int) Math.ceil(p / 100.0 * sorted.length) - 1;
    return sorted[Math.max(0, Math.min(sorted.length - 1, i))];
  }

  private static double ms(long nanos) {
    return nanos / 1e6;
  }

  private static long median(List<Round> rs, java.util.function.ToLongFunction<Round> f) {
    long[] v = rs.stream().mapToLong(f).sorted().toArray();
    return v.length % 2 == 1 ? v[v.length / 2] : (v[v.length / 2 - 1] + v[v.length / 2]) / 2;
  }

  private void printTable(List<Result> results) {
    out.printf(
        Locale.ROOT,
        "%nMedians over %d timed triggers, %d sessions (times from the trigger, ms):%n",
        rounds,
        sessions);
    out.printf(
        Locale.ROOT,
        "%-8s %10s %8s %8s %8s %8s %12s%n",
        "target",
        "heap B/ses",
        "first",
        "median",
        "p99",
        "last",
        "CPU us/ses");
    Result ceiling = null;
    for (Result r : results) {
      if (r.target.equals("ceiling")) {
        ceiling = r;
      }
      out.printf(
          Locale.ROOT,
          "%-8s %10.0f %8.2f %8.2f %8.2f %8.2f %12.2f%n",
          r.target,
          r.heapPerSession(),
          ms(median(r.rounds, Round::first)),
          ms(median(r.rounds, Round::median)),
          ms(median(r.rounds, Round::p99)),
          ms(median(r.rounds, Round::last)),
          median(r.rounds, Round::serverCpuNanos) / 1e3 / r.sessions);
    }
    if (ceiling != null) {
      for (Result r : results) {
        if (!r.target.equals("ceiling")) {
          out.printf(
              Locale.ROOT,
              "%s / ceiling: time to last %.2fx, heap per idle session %.2fx, server CPU %.2fx%n",
              r.target,
              (double) median(r.rounds, Round::last) / median(ceiling.rounds, Round::last),
              r.heapPerSession() / ceiling.heapPerSession(),
              (double) median(r.rounds, Round::serverCpuNanos)
                  / median(ceiling.rounds, Round::serverCpuNanos));
        }
      }
    }
  }

  private void writeJson(List<Result> results) throws IOException {
    StringBuilder b = new StringBuilder("[\n");
    for (int k = 0; k < results.size(); k++) {
      Result r = results.get(k);
      b.append(
          String.format(
              Locale.ROOT,
              "  {\"target\":\"%s\",\"sessions\":%d,\"debounceMs\":%d,\"baselineHeap\":%d,\"loadedHeap\":%d,"
                  + "\"heapPerSession\":%.1f,\"openMillis\":%d,\"rounds\":[",
              r.target,
              r.sessions,
              debounceMs,
              r.baselineHeap,
              r.loadedHeap,
              r.heapPerSession(),
              r.openMillis));
      for (int i = 0; i < r.rounds.size(); i++) {
        Round x = r.rounds.get(i);
        b.append(
            String.format(
                Locale.ROOT,
                "%s{\"firstNs\":%d,\"medianNs\":%d,\"p99Ns\":%d,\"lastNs\":%d,\"serverCpuNs\":%d}",
                i == 0 ? "" : ",",
                x.first,
                x.median,
                x.p99,
                x.last,
                x.serverCpuNanos));
      }
      b.append("]}").append(k + 1 < results.size() ? ",\n" : "\n");
    }
    b.append("]\n");
    Files.createDirectories(json.toAbsolutePath().getParent());
    Files.writeString(json, b.toString());
    out.println("results written to " + json);
  }

  // ---------------------------------------------------------------- the client side

  /** N sessions, each with a standing GET whose lines are scanned for the list-change event. */
  static final class Fleet {
    private final HttpClient http;
    private final List<URI> bases;
    private final int n;
    private final long[][] arrivals;
    private final CountDownLatch[] done;
    private final String[] ids;
    private final List<Flow.Subscription> subs = new ArrayList<>();
    private final AtomicReference<Throwable> failure = new AtomicReference<>();

    Fleet(HttpClient http, List<URI> bases, int n, int events) {
      this.http = http;
      this.bases = bases;
      this.n = n;
      this.arrivals = new long[events][n];
      this.done = new CountDownLatch[events];
      for (int i = 0; i < events; i++) {
        done[i] = new CountDownLatch(n);
      }
      this.ids = new String[n];
    }

    /** Opens every session and its GET, {@code concurrency} at a time; returns once all are streaming. */
    void open(int concurrency, long deadline) throws Exception {
      Semaphore slots = new Semaphore(concurrency);
      CountDownLatch streaming = new CountDownLatch(n);
      for (int i = 0; i < n; i++) {
        if (!slots.tryAcquire(remaining(deadline), TimeUnit.NANOSECONDS)) {
          throw new IllegalStateException(
              "timed out opening sessions (" + i + " of " + n + " started)");
        }
        checkFailure();
        int k = i;
        initialize(k)
            .thenAccept(id ->
                startGet(
                    k,
                    id,
                    () -> {
                      slots.release();
                      streaming.countDown();
                    }))
            .exceptionally(e -> {
              failure.compareAndSet(null, e);
              slots.release();
              return null;
            });
      }
      while (!streaming.await(200, TimeUnit.MILLISECONDS)) {
        checkFailure();
        if (remaining(deadline) <= 0) {
          throw new IllegalStateException(
              "timed out waiting for GET streams: "
                  + streaming.getCount()
                  + " of "
                  + n
                  + " not open");
        }
      }
      checkFailure();
    }

    private CompletableFuture<String> initialize(int k) {
      String init =
          "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"initialize\",\"params\":{\"protocolVersion\":\""
              + VERSION
              + "\",\"capabilities\":{},\"clientInfo\":{\"name\":\"fanout\",\"version\":\"1\"}}}";
      return http.sendAsync(post(k, null, init), HttpResponse.BodyHandlers.ofString())
          .thenCompose(r -> {
            String id = r.headers().firstValue("Mcp-Session-Id").orElse(null);
            if (r.statusCode() != 200 || id == null) {
              throw new IllegalStateException(
                  "initialize " + k + ": HTTP " + r.statusCode() + " " + r.body());
            }
            ids[k] = id;
            return http.sendAsync(
                    post(k, id, "{\"jsonrpc\":\"2.0\",\"method\":\"notifications/initialized\"}"),
                    HttpResponse.BodyHandlers.discarding())
                .thenApply(a -> {
                  if (a.statusCode() != 202) {
                    throw new IllegalStateException(
                        "notifications/initialized " + k + ": HTTP " + a.statusCode());
                  }
                  return id;
                });
          });
    }

    /**
     * Session {@code k}'s node: with several nodes (a cluster), it is made on node {@code k mod
     * nodes} and its GET is opened on the next one, so every stream is on another node than the
     * one that made the session.
     */
    private URI base(int k, boolean get) {
      return bases.get((k + (get && bases.size() > 1 ? 1 : 0)) % bases.size());
    }

    private HttpRequest post(int k, String sessionId, String body) {
      HttpRequest.Builder b =
          HttpRequest.newBuilder(base(k, false))
              .header("Accept", ACCEPT_POST)
              .header("Content-Type", "application/json")
              .header("MCP-Protocol-Version", VERSION)
              .timeout(Duration.ofSeconds(30))
              .POST(HttpRequest.BodyPublishers.ofString(body));
      if (sessionId != null) {
        b.header("Mcp-Session-Id", sessionId);
      }
      return b.build();
    }

    private void startGet(int k, String sessionId, Runnable streaming) {
      HttpRequest.Builder b =
          HttpRequest.newBuilder(base(k, true))
              .header("Accept", "text/event-stream")
              .GET()
              .header("Mcp-Session-Id", sessionId)
              .header("MCP-Protocol-Version", VERSION);
      Lines lines = new Lines(k, streaming);
      http.sendAsync(
              b.build(),
              info -> {
                if (info.statusCode() != 200) {
                  // said with the server's answer, and the slot freed so that open() reports it
                  return HttpResponse.BodySubscribers.mapping(
                      HttpResponse.BodySubscribers.ofString(StandardCharsets.UTF_8),
                      body -> {
                        failure.compareAndSet(
                            null,
                            new IllegalStateException(
                                "GET " + k + ": HTTP " + info.statusCode() + " " + body));
                        streaming.run();
                        return null;
                      });
                }
                return HttpResponse.BodySubscribers.fromLineSubscriber(lines);
              })
          .exceptionally(e -> {
            if (!closing) {
              failure.compareAndSet(null, e);
            }
            return null;
          });
    }

    /** Waits until every session saw event {@code r} (0-based). */
    void await(int r, long deadline) throws Exception {
      while (!done[r].await(200, TimeUnit.MILLISECONDS)) {
        checkFailure();
        if (remaining(deadline) <= 0) {
          throw new IllegalStateException(
              "timed out: event "
                  + r
                  + " reached "
                  + (n - done[r].getCount())
                  + " of "
                  + n
                  + " sessions");
        }
      }
    }

    long[] arrivals(int r) {
      return arrivals[r].clone();
    }

    /** DELETEs every session and cancels every GET still open. */
    void close(long deadline) throws Exception {
      List<Flow.Subscription> all;
      closing = true;
      synchronized (subs) {
        all = new ArrayList<>(subs);
      }
      Semaphore slots = new Semaphore(32);
      List<CompletableFuture<?>> pending = new ArrayList<>();
      for (String id : ids) {
        if (id == null) {
          continue;
        }
        slots.acquire();
        HttpRequest del =
            HttpRequest.newBuilder(bases.get(0))
                .header("Mcp-Session-Id", id)
                .header("MCP-Protocol-Version", VERSION)
                .timeout(Duration.ofSeconds(30))
                .DELETE()
                .build();
        pending.add(
            http.sendAsync(del, HttpResponse.BodyHandlers.discarding())
                .whenComplete((r, e) -> slots.release()));
      }
      CompletableFuture.allOf(pending.toArray(CompletableFuture[]::new))
          .get(Math.max(1, remaining(deadline)), TimeUnit.NANOSECONDS);
      all.forEach(Flow.Subscription::cancel);
    }

    private volatile boolean closing;

    private void checkFailure() {
      Throwable t = failure.get();
      if (t != null) {
        throw new IllegalStateException("session setup failed: " + t, t);
      }
    }

    /** One GET's line reader: the first line means streaming; the k-th marker line is event k. */
    final class Lines implements Flow.Subscriber<String> {
      private final int k;
      private final Runnable streaming;
      private boolean started;
      private int seen;

      Lines(int k, Runnable streaming) {
        this.k = k;
        this.streaming = streaming;
      }

      @Override
      public void onSubscribe(Flow.Subscription s) {
        synchronized (subs) {
          subs.add(s);
        }
        s.request(Long.MAX_VALUE);
      }

      @Override
      public void onNext(String line) {
        if (!started) {
          started = true;
          streaming.run();
        }
        if (line.contains(MARKER)) {
          long now = System.nanoTime();
          if (seen < arrivals.length) {
            arrivals[seen][k] = now;
            done[seen].countDown();
          }
          seen++;
        }
      }

      @Override
      public void onError(Throwable t) {
        if (!Fleet.this.closing) {
          failure.compareAndSet(null, t);
        }
      }

      @Override
      public void onComplete() {
        if (!Fleet.this.closing) {
          failure.compareAndSet(
              null, new IllegalStateException("GET stream " + k + " ended early"));
        }
      }
    }
  }

  static long remaining(long deadline) {
    return deadline - System.nanoTime();
  }

  /** Lets try-with-resources close an executor (ExecutorService is AutoCloseable only from 19 on; this keeps it explicit). */
  record ExecutorServiceCloser(ExecutorService executor) implements AutoCloseable {
    @Override
    public void close() {
      executor.shutdownNow();
    }
  }

  // ---------------------------------------------------------------- the child process

  /** A server JVM under test, steered over its stdin and stdout. */
  static final class Child implements AutoCloseable {
    private final Process process;
    private final BufferedReader in;
    private final Writer cmd;
    private final long deadline;
    final int port;

    private Child(Process p, long deadline) throws IOException {
      this.process = p;
      this.deadline = deadline;
      this.in =
          new BufferedReader(new InputStreamReader(p.getInputStream(), StandardCharsets.UTF_8));
      this.cmd = new java.io.OutputStreamWriter(p.getOutputStream(), StandardCharsets.UTF_8);
      this.port = Integer.parseInt(expect("PORT")[1]);
    }

    static Child start(
        String name,
        String target,
        String heap,
        int debounceMs,
        int maxSessions,
        @org.jspecify.annotations.Nullable String redisUri,
        @org.jspecify.annotations.Nullable String balancerHost,
        long deadline)
        throws IOException {
      String java = ProcessHandle.current().info().command().orElse("java");
      List<String> cmd =
          new ArrayList<>(List.of(java, "-Xms" + heap, "-Xmx" + heap, "-XX:+UseG1GC", "-Xss512k"));
      if (balancerHost != null) {
        cmd.add("-Dfanout.allowHost=" + balancerHost); // the Host header the balancer passes on
      }
      String extra = System.getProperty("fanout.childJvmArgs", "").trim(); // e.g. a JFR recording
      if (!extra.isEmpty()) {
        cmd.addAll(List.of(extra.split("\\s+")));
      }
      cmd.addAll(
          List.of(
              "-cp",
              System.getProperty("java.class.path"),
              FanoutHarness.class.getName(),
              "--child",
              target,
              Integer.toString(debounceMs),
              Integer.toString(maxSessions),
              Long.toString(Math.max(1, TimeUnit.NANOSECONDS.toSeconds(remaining(deadline))))));
      if (redisUri != null) {
        cmd.add(redisUri); // a node of the cluster on this Redis
      }
      Path log =
          Path.of(
              System.getProperty("fanout.logDir", System.getProperty("java.io.tmpdir")),
              "fanout-" + name + ".log");
      Process p = new ProcessBuilder(cmd).redirectError(log.toFile()).start();
      return new Child(p, deadline);
    }

    private String[] send(String line, String answer) throws IOException {
      cmd.write(line + "\n");
      cmd.flush();
      return expect(answer);
    }

    private String[] expect(String word) throws IOException {
      while (true) {
        if (remaining(deadline) <= 0) {
          throw new IllegalStateException("child timed out");
        }
        String l = in.readLine();
        if (l == null) {
          throw new IllegalStateException(
              "child JVM ended (see its log under " + System.getProperty("java.io.tmpdir") + ")");
        }
        String[] f = l.trim().split(" ");
        if (f[0].equals(word)) {
          return f;
        }
        if (f[0].equals("ERROR")) {
          throw new IllegalStateException("child: " + l);
        }
      }
    }

    /** Checks that the child's nanoTime is the driver's: its reading must fall between send and answer. */
    void checkClock() throws IOException {
      long worst = Long.MAX_VALUE;
      for (int i = 0; i < 5; i++) {
        long a = System.nanoTime();
        long c = Long.parseLong(send("clock", "CLOCK")[1]);
        long b = System.nanoTime();
        if (c < a || c > b) {
          throw new IllegalStateException(
              "the child's System.nanoTime is not the driver's ("
                  + a
                  + " <= "
                  + c
                  + " <= "
                  + b
                  + " fails)");
        }
        worst = Math.min(worst, b - a);
      }
    }

    /** Used heap after full collections (median of three readings). */
    long heap() throws IOException {
      return Long.parseLong(send("heap", "HEAP")[1]);
    }

    /** The child's process CPU time so far. */
    long cpu() throws IOException {
      return Long.parseLong(send("cpu", "CPU")[1]);
    }

    /** Triggers change {@code k}; returns the child's nanoTime at the trigger and how long the trigger call took. */
    long[] trigger(int k) throws IOException {
      String[] f = send("trigger " + k, "TRIGGERED");
      return new long[] {Long.parseLong(f[1]), Long.parseLong(f[2])};
    }

    void quit() throws IOException {
      send("quit", "BYE");
    }

    @Override
    public void close() throws Exception {
      try {
        cmd.close();
      } catch (IOException ignored) {
        // already gone
      }
      if (!process.waitFor(10, TimeUnit.SECONDS)) {
        process.destroyForcibly();
        process.waitFor(5, TimeUnit.SECONDS);
      }
    }
  }
}
