package dev.herald.bench;

import dev.herald.client.EraPreference;
import dev.herald.client.McpClient;
import dev.herald.client.TaskHandle;
import dev.herald.client.TaskListener;
import dev.herald.client.ToolCallHandle;
import dev.herald.session.CallOptions;
import dev.herald.transport.http.StreamableHttpClientTransport;
import dev.herald.wire.McpJson;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.ConcurrentSkipListMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.LongAdder;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

/**
 * A soak test of Herald's HTTP server (issue "Hardening": resources always given back): for
 * {@code --minutes}, {@code --workers} sessions at a time of Herald's own client over Streamable
 * HTTP (both eras) call tools, cancel calls, resume dropped streams ({@code Last-Event-ID}), run
 * tasks and cancel some, while raw HTTP workers send bad input (malformed JSON, wrong types, bad
 * headers, oversized bodies) and disconnect abruptly (reset GET and POST streams, half-closed
 * sockets, abandoned legacy streams, sessions never deleted). The server ({@link SoakServer}) runs
 * in a child JVM; its open file descriptors ({@code /proc/<pid>/fd}), live threads ({@code
 * /proc/<pid>/status}) and heap used after a full GC ({@code jcmd GC.run}, then {@code
 * GC.heap_info}) are sampled after a warm-up of the same load and a settle period, and again after
 * the load and the same settle period (longer than the server's 20 s session idle timeout). The
 * verdict passes when each end figure is back at its start level within the tolerance printed
 * beside it. Linux only (it reads {@code /proc}); talks to 127.0.0.1 only.
 *
 * <pre>
 * java -cp benchmarks.jar dev.herald.bench.SoakHarness [--minutes 10] [--workers 150]
 *     [--raw-workers 4] [--warmup-s 30] [--settle-s 45] [--child-heap 512m]
 * </pre>
 */
public final class SoakHarness {
  private SoakHarness() {}

  private static final String HANDSHAKE = "2025-11-25";

  /**
   * McpHttpServer's Jetty platform pool ({@code IoThreads.PLATFORM}): its threads' names and its
   * maximum size. With the default virtual I/O threads it stays empty: Jetty's threads are then
   * virtual and not among the platform threads counted here.
   */
  private static final String POOL = "herald-http-#";

  private static final int POOL_MAX = 64;
  private static final Map<String, LongAdder> COUNTS = new ConcurrentSkipListMap<>();
  private static final Map<String, String> FIRST_ERROR = new ConcurrentSkipListMap<>();

  /** One sample of the server process. */
  record Sample(
      long fds,
      long threads,
      long heapKb,
      Map<String, Integer> threadKinds,
      Map<String, Long> heraldInstances) {
    @Override
    public String toString() {
      return "fds " + fds + ", threads " + threads + ", heap after full GC " + heapKb + " KiB";
    }
  }

  public static void main(String[] args) throws Exception {
    double minutes = 10;
    int workers = 150;
    int rawWorkers = 4;
    int warmupS = 30;
    int settleS = 45;
    String heap = "512m";
    for (int i = 0; i < args.length; i++) {
      switch (args[i]) {
        case "--minutes" -> minutes = Double.parseDouble(args[++i]);
        case "--workers" -> workers = Integer.parseInt(args[++i]);
        case "--raw-workers" -> rawWorkers = Integer.parseInt(args[++i]);
        case "--warmup-s" -> warmupS = Integer.parseInt(args[++i]);
        case "--settle-s" -> settleS = Integer.parseInt(args[++i]);
        case "--child-heap" -> heap = args[++i];
        default -> throw new IllegalArgumentException("unknown option " + args[i]);
      }
    }
    String java = ProcessHandle.current().info().command().orElse("java");
    Path jcmd = Path.of(java).resolveSibling("jcmd");
    Path log = Files.createTempFile("herald-soak-server", ".log");
    Process child =
        new ProcessBuilder(
                java,
                "-Xms" + heap,
                "-Xmx" + heap,
                "-XX:+UseG1GC",
                "-cp",
                System.getProperty("java.class.path"),
                SoakServer.class.getName())
            .redirectError(log.toFile())
            .start();
    try {
      BufferedReader out =
          new BufferedReader(new InputStreamReader(child.getInputStream(), StandardCharsets.UTF_8));
      String line = out.readLine();
      if (line == null || !line.startsWith("PORT ")) {
        throw new IllegalStateException("server did not start: " + line + "; see " + log);
      }
      int port = Integer.parseInt(line.substring(5).trim());
      long pid = child.pid();
      System.out.printf(
          Locale.ROOT,
          "soak: server pid %d on port %d (log %s); %d client workers, %d raw workers%n",
          pid,
          port,
          log,
          workers,
          rawWorkers);

      System.out.printf(Locale.ROOT, "soak: warm-up %d s%n", warmupS);
      load(port, workers, rawWorkers, Duration.ofSeconds(warmupS));
      System.out.printf(Locale.ROOT, "soak: settle %d s%n", settleS);
      Thread.sleep(settleS * 1000L); // the server's idle timeouts run out: a measured wait
      Sample start = sample(pid, jcmd);
      System.out.println("soak: start " + start);
      COUNTS.clear();
      FIRST_ERROR.clear();

      long loadMillis = Math.round(minutes * 60_000);
      System.out.printf(Locale.ROOT, "soak: load for %.1f min%n", minutes);
      long t0 = System.nanoTime();
      load(port, workers, rawWorkers, Duration.ofMillis(loadMillis));
      System.out.printf(
          Locale.ROOT,
          "soak: load ran %.1f s; settle %d s%n",
          (System.nanoTime() - t0) / 1e9,
          settleS);
      Thread.sleep(settleS * 1000L);
      Sample end = sample(pid, jcmd);
      System.out.println("soak: end   " + end);

      System.out.println();
      System.out.println("operations during the load:");
      COUNTS.forEach((k, v) -> System.out.printf(Locale.ROOT, "  %-44s %,d%n", k, v.sum()));
      if (!FIRST_ERROR.isEmpty()) {
        System.out.println("first message of each client-side failure kind:");
        FIRST_ERROR.forEach((k, v) -> System.out.printf(Locale.ROOT, "  %s: %s%n", k, v));
      }
      long fdTol = 8;
      long threadTol = 8;
      long heapTolKb = Math.max(8 * 1024, start.heapKb() / 10);
      // Jetty's pool lets at most one idle thread go per idle timeout (60 s), so after a burst
      // its threads come back slowly; they are bounded by its maximum and judged by it.
      int poolStart = start.threadKinds().getOrDefault(POOL, 0);
      int poolEnd = end.threadKinds().getOrDefault(POOL, 0);
      boolean fdsOk = end.fds() <= start.fds() + fdTol;
      boolean threadsOk = end.threads() - poolEnd <= start.threads() - poolStart + threadTol;
      boolean poolOk = poolEnd <= POOL_MAX;
      boolean heapOk = end.heapKb() <= start.heapKb() + heapTolKb;
      System.out.println();
      System.out.printf(
          Locale.ROOT, "%-34s %10s %10s %14s%n", "figure", "start", "end", "tolerance");
      row("open file descriptors", start.fds(), end.fds(), "+" + fdTol, fdsOk);
      row("live threads (all)", start.threads(), end.threads(), "", true);
      row(
          "  outside the HTTP thread pool",
          start.threads() - poolStart,
          end.threads() - poolEnd,
          "+" + threadTol,
          threadsOk);
      row("  in the HTTP thread pool", poolStart, poolEnd, "max " + POOL_MAX, poolOk);
      row("heap after full GC (KiB)", start.heapKb(), end.heapKb(), "+" + heapTolKb, heapOk);
      if (!start.threadKinds().equals(end.threadKinds())) {
        System.out.println("platform threads by name (start -> end), where they differ:");
        java.util.Set<String> names = new java.util.TreeSet<>(start.threadKinds().keySet());
        names.addAll(end.threadKinds().keySet());
        for (String n : names) {
          int a = start.threadKinds().getOrDefault(n, 0);
          int b = end.threadKinds().getOrDefault(n, 0);
          if (a != b) {
            System.out.printf(Locale.ROOT, "  %-40s %4d -> %4d%n", n, a, b);
          }
        }
      }
      System.out.println(
          "Herald objects live after a full GC, where the count grew by 10 or more:");
      end.heraldInstances()
          .forEach((cls, n) -> {
            long was = start.heraldInstances().getOrDefault(cls, 0L);
            if (n - was >= 10) {
              System.out.printf(Locale.ROOT, "  %-60s %8d -> %8d%n", cls, was, n);
            }
          });
      boolean pass = fdsOk && threadsOk && poolOk && heapOk && child.isAlive();
      System.out.println(
          pass
              ? "soak: PASS (descriptors, threads and heap back at their starting level)"
              : "soak: FAIL");
      System.exit(pass ? 0 : 1);
    } finally {
      child.getOutputStream().close();
      if (!child.waitFor(20, TimeUnit.SECONDS)) {
        child.destroyForcibly();
      }
    }
  }

  private static void row(String name, long start, long end, String tol, boolean ok) {
    System.out.printf(
        Locale.ROOT, "%-34s %10d %10d %14s  %s%n", name, start, end, tol, ok ? "ok" : "NOT BACK");
  }

  // ---------------------------------------------------------------- sampling

  static Sample sample(long pid, Path jcmd) throws IOException, InterruptedException {
    run(jcmd.toString(), Long.toString(pid), "GC.run");
    run(jcmd.toString(), Long.toString(pid), "GC.run");
    String info = run(jcmd.toString(), Long.toString(pid), "GC.heap_info");
    Matcher m = Pattern.compile("used (\\d+)K").matcher(info);
    if (!m.find()) {
      throw new IllegalStateException("no heap figure in: " + info);
    }
    long heapKb = Long.parseLong(m.group(1));
    long fds;
    try (Stream<Path> s = Files.list(Path.of("/proc/" + pid + "/fd"))) {
      fds = s.count();
    }
    long threads =
        Files.readAllLines(Path.of("/proc/" + pid + "/status")).stream()
            .filter(l -> l.startsWith("Threads:"))
            .mapToLong(l -> Long.parseLong(l.substring(8).trim()))
            .findFirst()
            .orElse(-1);
    Map<String, Integer> kinds = new java.util.TreeMap<>();
    for (String l : run(jcmd.toString(), Long.toString(pid), "Thread.print").lines().toList()) {
      if (l.startsWith("\"")) {
        String name = l.substring(1, Math.max(1, l.indexOf('"', 1))).replaceAll("[0-9]+", "#");
        kinds.merge(name, 1, Integer::sum);
      }
    }
    Map<String, Long> instances = new java.util.TreeMap<>();
    Pattern row = Pattern.compile("^\\s*\\d+:\\s+(\\d+)\\s+\\d+\\s+(dev\\.herald\\S*)");
    for (String l :
        run(jcmd.toString(), Long.toString(pid), "GC.class_histogram").lines().toList()) {
      Matcher h = row.matcher(l);
      if (h.find()) {
        instances.merge(h.group(2), Long.parseLong(h.group(1)), Long::sum);
      }
    }
    return new Sample(fds, threads, heapKb, kinds, instances);
  }

  private static String run(String... cmd) throws IOException, InterruptedException {
    Process p = new ProcessBuilder(cmd).redirectErrorStream(true).start();
    String text = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    if (p.waitFor() != 0) {
      throw new IllegalStateException(String.join(" ", cmd) + " failed: " + text);
    }
    return text;
  }

  // ---------------------------------------------------------------- load

  private static void count(String what) {
    COUNTS.computeIfAbsent(what, k -> new LongAdder()).increment();
  }

  private static void failed(String kind, Throwable e) {
    String key = kind + " " + e.getClass().getSimpleName();
    count("failed: " + key);
    FIRST_ERROR.putIfAbsent(key, String.valueOf(e.getMessage()));
  }

  private static void load(int port, int workers, int rawWorkers, Duration length)
      throws InterruptedException {
    long deadline = System.nanoTime() + length.toNanos();
    URI uri = URI.create("http://127.0.0.1:" + port + "/mcp");
    List<Thread> threads = new ArrayList<>();
    for (int i = 0; i < workers; i++) {
      long seed = i;
      threads.add(Thread.ofVirtual().start(() -> clientWorker(uri, new Random(seed), deadline)));
    }
    try (HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(10)).build()) {
      for (int i = 0; i < rawWorkers; i++) {
        long seed = 1000L + i;
        threads.add(
            Thread.ofVirtual().start(() -> rawWorker(http, port, new Random(seed), deadline)));
      }
      for (Thread t : threads) {
        t.join(Duration.ofMinutes(2).plus(length));
      }
    }
  }

  private static boolean before(long deadline) {
    return System.nanoTime() - deadline < 0;
  }

  private static void clientWorker(URI uri, Random rnd, long deadline) {
    CallOptions opts = CallOptions.builder().timeout(Duration.ofSeconds(60)).build();
    while (before(deadline)) {
      boolean handshake = rnd.nextInt(3) != 0;
      try (McpClient c =
          McpClient.builder()
              .eras(handshake ? EraPreference.HANDSHAKE_ONLY : EraPreference.LATEST)
              .taskTtl(Duration.ofSeconds(5))
              .connect(() -> new StreamableHttpClientTransport(uri))) {
        count(handshake ? "sessions (2025-11-25)" : "clients (2026-07-28, stateless)");
        int actions = 5 + rnd.nextInt(15);
        for (int a = 0; a < actions && before(deadline); a++) {
          int r = rnd.nextInt(100);
          try {
            if (r < 35) {
              String text = "hi " + a;
              String got = c.callTool("echo", McpJson.object().put("text", text), opts).firstText();
              count(text.equals(got) ? "calls answered" : "calls answered WRONG");
            } else if (r < 50) {
              ToolCallHandle h = c.callToolAsync("slow", McpJson.object().put("steps", 50), opts);
              Thread.sleep(20 + rnd.nextInt(200));
              h.cancel("soak");
              try {
                h.await();
                count("cancels (answered first)");
              } catch (RuntimeException e) {
                count("cancels");
              }
            } else if (r < 60) {
              String got = c.callTool("reconnect", null, opts).firstText();
              count(
                  "reconnected".equals(got) ? "resumptions (Last-Event-ID)" : "resumptions WRONG");
            } else if (r < 68) {
              c.callTool("chatty", null, opts);
              count("chatty calls");
            } else if (r < 78) {
              TaskHandle t =
                  c.callToolAsTask(
                      "job", McpJson.object().put("seconds", 1), opts, TaskListener.NONE);
              if (rnd.nextBoolean()) {
                Thread.sleep(rnd.nextInt(300));
                t.cancel("soak");
                try {
                  t.await();
                  count("task cancels (done first)");
                } catch (RuntimeException e) {
                  count("task cancels");
                }
              } else {
                t.await();
                count("tasks completed");
              }
            } else if (r < 90) {
              c.listTools();
              count("tools/list");
            } else {
              c.ping();
              count("pings");
            }
          } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return;
          } catch (RuntimeException e) {
            failed("call", e);
          }
          Thread.sleep(10 + rnd.nextInt(90));
        }
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        return;
      } catch (RuntimeException e) {
        failed("session", e);
        sleepQuietly(100);
      }
    }
  }

  private static void sleepQuietly(long ms) {
    try {
      Thread.sleep(ms);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }

  // ---------------------------------------------------------------- raw HTTP

  private static final String INIT =
      "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"initialize\",\"params\":{\"protocolVersion\":\""
          + HANDSHAKE
          + "\",\"capabilities\":{},\"clientInfo\":{\"name\":\"soak\",\"version\":\"1\"}}}";

  private static void rawWorker(HttpClient http, int port, Random rnd, long deadline) {
    URI uri = URI.create("http://127.0.0.1:" + port + "/mcp");
    while (before(deadline)) {
      int r = rnd.nextInt(11);
      try {
        switch (r) {
          case 0 -> status(http, "malformed JSON", post(uri, "{\"jsonrpc\":\"2.0\",\"id\":1,"));
          case 1 ->
              status(
                  http,
                  "wrong types (protocolVersion: 5)",
                  post(uri, INIT.replace("\"" + HANDSHAKE + "\"", "5")));
          case 2 -> status(http, "bad Accept", post(uri, INIT).setHeader("Accept", "text/plain"));
          case 3 ->
              status(
                  http,
                  "bad Content-Type",
                  post(uri, INIT).setHeader("Content-Type", "text/plain"));
          case 4 ->
              status(
                  http,
                  "unknown Mcp-Session-Id",
                  post(uri, "{\"jsonrpc\":\"2.0\",\"id\":2,\"method\":\"tools/list\"}")
                      .header("Mcp-Session-Id", "nope-" + rnd.nextInt())
                      .header("MCP-Protocol-Version", HANDSHAKE));
          case 5 -> {
            byte[] big = new byte[5 * 1024 * 1024];
            java.util.Arrays.fill(big, (byte) ' ');
            big[0] = '[';
            big[big.length - 1] = ']';
            status(
                http,
                "oversized body (5 MiB)",
                HttpRequest.newBuilder(uri)
                    .header("Content-Type", "application/json")
                    .header("Accept", "application/json, text/event-stream")
                    .POST(HttpRequest.BodyPublishers.ofByteArray(big)));
          }
          case 6 -> abandonedStandingStream(http, uri, port, rnd);
          case 7 -> resetMidCall(http, uri, port);
          case 8 -> halfClosed(port, rnd);
          case 9 -> abandonedLegacyStream(port);
          default ->
              status(
                  http,
                  "bad MCP-Protocol-Version",
                  post(uri, "{\"jsonrpc\":\"2.0\",\"id\":2,\"method\":\"ping\"}")
                      .header("MCP-Protocol-Version", "1999-01-01"));
        }
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        return;
      } catch (IOException | RuntimeException e) {
        failed("raw", e);
      }
      sleepQuietly(20 + rnd.nextInt(80));
    }
  }

  private static HttpRequest.Builder post(URI uri, String body) {
    return HttpRequest.newBuilder(uri)
        .timeout(Duration.ofSeconds(30))
        .header("Content-Type", "application/json")
        .header("Accept", "application/json, text/event-stream")
        .POST(HttpRequest.BodyPublishers.ofString(body));
  }

  private static void status(HttpClient http, String what, HttpRequest.Builder b)
      throws IOException, InterruptedException {
    int code = http.send(b.build(), HttpResponse.BodyHandlers.discarding()).statusCode();
    count("bad input: " + what + " -> " + code);
  }

  /** A handshake-era session over java.net.http; returns its id. */
  private static String session(HttpClient http, URI uri) throws IOException, InterruptedException {
    HttpResponse<String> init =
        http.send(post(uri, INIT).build(), HttpResponse.BodyHandlers.ofString());
    String id =
        init.headers()
            .firstValue("Mcp-Session-Id")
            .orElseThrow(() -> new IllegalStateException("initialize: " + init.statusCode()));
    http.send(
        post(uri, "{\"jsonrpc\":\"2.0\",\"method\":\"notifications/initialized\"}")
            .header("Mcp-Session-Id", id)
            .header("MCP-Protocol-Version", HANDSHAKE)
            .build(),
        HttpResponse.BodyHandlers.discarding());
    return id;
  }

  private static void delete(HttpClient http, URI uri, String id)
      throws IOException, InterruptedException {
    http.send(
        HttpRequest.newBuilder(uri)
            .header("Mcp-Session-Id", id)
            .header("MCP-Protocol-Version", HANDSHAKE)
            .DELETE()
            .build(),
        HttpResponse.BodyHandlers.discarding());
  }

  private static Socket connect(int port) throws IOException {
    Socket s = new Socket();
    s.connect(new InetSocketAddress(java.net.InetAddress.getLoopbackAddress(), port), 10_000);
    s.setSoTimeout(10_000);
    return s;
  }

  private static void readHead(InputStream in) throws IOException {
    int matched = 0;
    for (int b; (b = in.read()) >= 0; ) {
      matched = (b == '\r' || b == '\n') ? matched + 1 : 0;
      if (matched == 4) {
        return;
      }
    }
  }

  private static void reset(Socket s) throws IOException {
    s.setSoLinger(true, 0);
    s.close();
  }

  /** A GET stream reset by the client; the session is deleted half the time, else abandoned. */
  private static void abandonedStandingStream(HttpClient http, URI uri, int port, Random rnd)
      throws IOException, InterruptedException {
    String id = session(http, uri);
    try (Socket s = connect(port)) {
      OutputStream out = s.getOutputStream();
      out.write(
          ("GET /mcp HTTP/1.1\r\nHost: 127.0.0.1:"
                  + port
                  + "\r\nAccept: text/event-stream\r\nMcp-Session-Id: "
                  + id
                  + "\r\nMCP-Protocol-Version: "
                  + HANDSHAKE
                  + "\r\n\r\n")
              .getBytes(StandardCharsets.US_ASCII));
      out.flush();
      readHead(s.getInputStream());
      reset(s);
    }
    if (rnd.nextBoolean()) {
      delete(http, uri, id);
      count("abrupt: GET stream reset, session deleted");
    } else {
      count("abrupt: GET stream reset, session abandoned");
    }
  }

  /** A POST of a working call whose connection is reset once its SSE stream started. */
  private static void resetMidCall(HttpClient http, URI uri, int port)
      throws IOException, InterruptedException {
    String id = session(http, uri);
    String body =
        "{\"jsonrpc\":\"2.0\",\"id\":2,\"method\":\"tools/call\",\"params\":{\"name\":\"slow\","
            + "\"arguments\":{\"steps\":40},\"_meta\":{\"progressToken\":\"p\"}}}";
    try (Socket s = connect(port)) {
      OutputStream out = s.getOutputStream();
      out.write(
          ("POST /mcp HTTP/1.1\r\nHost: 127.0.0.1:"
                  + port
                  + "\r\nContent-Type: application/json\r\nAccept: application/json, text/event-stream"
                  + "\r\nMcp-Session-Id: "
                  + id
                  + "\r\nMCP-Protocol-Version: "
                  + HANDSHAKE
                  + "\r\nContent-Length: "
                  + body.getBytes(StandardCharsets.UTF_8).length
                  + "\r\n\r\n"
                  + body)
              .getBytes(StandardCharsets.UTF_8));
      out.flush();
      readHead(s.getInputStream());
      reset(s);
    }
    count("abrupt: POST stream reset mid-call (session abandoned)");
  }

  /** A GET whose client half-closes its side and lingers before going. */
  private static void halfClosed(int port, Random rnd) throws IOException {
    try (Socket s = connect(port)) {
      s.getOutputStream()
          .write(
              ("GET /sse HTTP/1.1\r\nHost: 127.0.0.1:"
                      + port
                      + "\r\nAccept: text/event-stream\r\n\r\n")
                  .getBytes(StandardCharsets.US_ASCII));
      s.getOutputStream().flush();
      readHead(s.getInputStream());
      s.shutdownOutput();
      sleepQuietly(200 + rnd.nextInt(1000));
    }
    count("abrupt: legacy stream half-closed, then closed");
  }

  /** A legacy HTTP+SSE stream whose client goes away with a reset after the endpoint event. */
  private static void abandonedLegacyStream(int port) throws IOException {
    try (Socket s = connect(port)) {
      s.getOutputStream()
          .write(
              ("GET /sse HTTP/1.1\r\nHost: 127.0.0.1:"
                      + port
                      + "\r\nAccept: text/event-stream\r\n\r\n")
                  .getBytes(StandardCharsets.US_ASCII));
      s.getOutputStream().flush();
      readHead(s.getInputStream());
      reset(s);
    }
    count("abrupt: legacy stream reset");
  }
}
