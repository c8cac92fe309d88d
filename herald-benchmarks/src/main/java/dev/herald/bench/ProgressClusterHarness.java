package dev.herald.bench;

import dev.herald.http.McpHttpServer;
import dev.herald.server.McpServer;
import dev.herald.session.ProgressReporter;
import dev.herald.wire.CallToolResult;
import dev.herald.wire.Tool;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.io.PrintStream;
import java.io.Writer;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import org.jspecify.annotations.Nullable;

/**
 * Progress notifications per second for a call whose stream is read on another node than the one
 * running its handler (docs/scale-out.md, "Resuming on another node"), next to the same call on one
 * node, with the Redis commands each notification costs.
 *
 * <p>Each Herald node is a child JVM ({@code --child}) serving one {@code progress} tool: it
 * reports progress 0 at once (so the POST switches to SSE and the client holds an event id), waits
 * for {@code go} on the child's stdin, reports 1..count ({@code progressInterval} zero: every one on
 * the wire), then answers. Three modes, one after the other in one run:
 *
 * <ul>
 *   <li>{@code one node}: one node, no Redis (the in-memory event store); the client reads the
 *       POST stream.
 *   <li>{@code cluster, same node}: two {@code RedisCluster} nodes on the given {@code redis-server};
 *       the call is POSTed to node A and its POST stream read there (every event stored in Redis
 *       first).
 *   <li>{@code cluster, across nodes}: the same two nodes; the call is POSTed to node A, the client
 *       drops the POST connection after progress 0 and resumes the stream on node B with {@code
 *       GET} and {@code Last-Event-ID}: B replays from Redis and follows A's live events over
 *       pub/sub. Then {@code go}.
 * </ul>
 *
 * Per call: the wall time from {@code go} to the response (notifications per second), the nodes'
 * process CPU per notification, and the difference of Redis's {@code INFO commandstats} around it
 * (commands inside scripts counted too) per notification, by command. The driver checks that every
 * notification arrived once, in order, before the response. Medians over the timed calls.
 *
 * <pre>
 * java -cp benchmarks.jar dev.herald.bench.ProgressClusterHarness --redis-uri redis://127.0.0.1:P
 *     [--count 2000] [--warmup 2] [--rounds 5] [--child-heap 512m] [--timeout-s 300]
 * </pre>
 *
 * Everything on 127.0.0.1; the children end with the driver's stdin or at the time limit.
 */
public final class ProgressClusterHarness {
  private static final String VERSION = CallsHarness.HANDSHAKE;
  private final PrintStream out = System.out;
  private final int count;
  private final int warmup;
  private final int rounds;
  private final String heap;
  private final String redisUri;
  private final long deadline;

  private ProgressClusterHarness(
      int count, int warmup, int rounds, String heap, String redisUri, long timeoutS) {
    this.count = count;
    this.warmup = warmup;
    this.rounds = rounds;
    this.heap = heap;
    this.redisUri = redisUri;
    this.deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(timeoutS);
  }

  public static void main(String[] args) throws Exception {
    if (args.length > 0 && args[0].equals("--child")) {
      child(Long.parseLong(args[1]), args.length > 2 ? args[2] : null);
      return;
    }
    int count = 2_000;
    int warmup = 2;
    int rounds = 5;
    String heap = "512m";
    String redis = null;
    long timeoutS = 300;
    for (int i = 0; i + 1 < args.length; i += 2) {
      String v = args[i + 1];
      switch (args[i]) {
        case "--count" -> count = Integer.parseInt(v);
        case "--warmup" -> warmup = Integer.parseInt(v);
        case "--rounds" -> rounds = Integer.parseInt(v);
        case "--child-heap" -> heap = v;
        case "--redis-uri" -> redis = v;
        case "--timeout-s" -> timeoutS = Long.parseLong(v);
        default -> throw new IllegalArgumentException("unknown option " + args[i]);
      }
    }
    if (redis == null || count < 1 || rounds < 1 || warmup < 0) {
      System.err.println(
          "usage: ProgressClusterHarness --redis-uri URI [--count N] [--warmup W] [--rounds R]"
              + " [--child-heap 512m] [--timeout-s S]");
      System.exit(2);
    }
    long limit = timeoutS;
    Thread.ofPlatform()
        .daemon()
        .start(() -> {
          try {
            Thread.sleep(TimeUnit.SECONDS.toMillis(limit) + 5_000);
            System.err.println("progress-cluster: hard timeout reached, exiting");
            Runtime.getRuntime().halt(3);
          } catch (InterruptedException e) {
            // not reached
          }
        });
    new ProgressClusterHarness(count, warmup, rounds, heap, redis, timeoutS).run();
    System.exit(0);
  }

  /** The medians of one mode. */
  record Result(String mode, double rate, double cpuMicros, double ops, String byCommand) {}

  private void run() throws Exception {
    out.printf(
        Locale.ROOT,
        "progress across nodes: one tools/call sending %d progress notifications; %d warm-up + %d"
            + " timed calls per mode; child heap %s; %s%n",
        count,
        warmup,
        rounds,
        heap,
        Runtime.version());
    List<Result> results = new ArrayList<>();
    try (HttpClient http =
        HttpClient.newBuilder()
            .version(HttpClient.Version.HTTP_1_1)
            .connectTimeout(Duration.ofSeconds(10))
            .build()) {
      try (Child one = Child.start("one", heap, null, deadline)) {
        results.add(mode(http, "one node", one, one, false, false));
        one.quit();
      }
      try (Child a = Child.start("a", heap, redisUri, deadline);
          Child b = Child.start("b", heap, redisUri, deadline)) {
        results.add(mode(http, "cluster, same node", a, b, false, true));
        results.add(mode(http, "cluster, across nodes", a, b, true, true));
        a.quit();
        b.quit();
      }
    }
    out.printf(
        Locale.ROOT,
        "%n| | notifications/s | node CPU per notification | Redis commands per notification |%n");
    out.printf(Locale.ROOT, "|---|---:|---:|---:|%n");
    for (Result r : results) {
      out.printf(
          Locale.ROOT,
          "| %s | %,.0f | %.1f us | %s |%n",
          r.mode,
          r.rate,
          r.cpuMicros,
          r.mode.startsWith("one")
              ? "none"
              : String.format(Locale.ROOT, "%.2f (%s)", r.ops, r.byCommand));
    }
    Result base = results.get(0);
    for (Result r : results.subList(1, results.size())) {
      out.printf(
          Locale.ROOT,
          "%s: %.2fx the notifications/s of one node, %.1fx its CPU per notification%n",
          r.mode,
          r.rate / base.rate,
          r.cpuMicros / base.cpuMicros);
    }
  }

  /**
   * One mode: the calls, one after the other, in one session made on {@code a}. With {@code
   * across}, each call's stream is resumed on {@code b}.
   */
  private Result mode(HttpClient http, String mode, Child a, Child b, boolean across, boolean redis)
      throws Exception {
    URI ua = URI.create("http://127.0.0.1:" + a.port + "/mcp");
    URI ub = URI.create("http://127.0.0.1:" + b.port + "/mcp");
    String session = initialize(http, ua);
    double[] rate = new double[rounds];
    double[] cpu = new double[rounds];
    double[] ops = new double[rounds];
    List<Map<String, Long>> byCommand = new ArrayList<>();
    for (int r = 0; r < warmup + rounds; r++) {
      int id = r + 1;
      HttpResponse<InputStream> post =
          http.send(
              post(
                      ua,
                      "{\"jsonrpc\":\"2.0\",\"id\":"
                          + id
                          + ",\"method\":\"tools/call\",\"params\":{\"name\":\"progress\","
                          + "\"arguments\":{\"count\":"
                          + count
                          + "},\"_meta\":{\"progressToken\":\"tok-"
                          + id
                          + "\"}}}")
                  .header("Mcp-Session-Id", session)
                  .header("MCP-Protocol-Version", VERSION)
                  .build(),
              HttpResponse.BodyHandlers.ofInputStream());
      if (post.statusCode() != 200) {
        throw new IOException("tools/call answered HTTP " + post.statusCode());
      }
      BufferedReader stream =
          new BufferedReader(new InputStreamReader(post.body(), StandardCharsets.UTF_8), 1 << 16);
      String lastId = startedAt(stream);
      if (across) {
        stream.close(); // drops the POST connection: the stream lives on, to be resumed on b
        HttpResponse<InputStream> get =
            http.send(
                HttpRequest.newBuilder(ub)
                    .timeout(Duration.ofMinutes(2))
                    .header("Accept", "text/event-stream")
                    .header("Mcp-Session-Id", session)
                    .header("MCP-Protocol-Version", VERSION)
                    .header("Last-Event-ID", lastId)
                    .GET()
                    .build(),
                HttpResponse.BodyHandlers.ofInputStream());
        if (get.statusCode() != 200) {
          throw new IOException("resuming on node b answered HTTP " + get.statusCode());
        }
        stream =
            new BufferedReader(new InputStreamReader(get.body(), StandardCharsets.UTF_8), 1 << 16);
      }
      Map<String, Long> ops0 = redis ? commandStats() : Map.of();
      long c0 = a.cpu() + (a == b ? 0 : b.cpu());
      long t0 = System.nanoTime();
      a.go();
      readToResponse(stream, id);
      long t1 = System.nanoTime();
      stream.close();
      long c1 = a.cpu() + (a == b ? 0 : b.cpu());
      Map<String, Long> delta = redis ? minus(commandStats(), ops0) : Map.of();
      long total = delta.values().stream().mapToLong(Long::longValue).sum();
      out.printf(
          Locale.ROOT,
          "[%s] %s %d: %,.0f notifications/s, node CPU %.1f us/notification%s%n",
          mode,
          r < warmup ? "warm-up" : "call",
          r < warmup ? r + 1 : r - warmup + 1,
          count * 1e9 / (t1 - t0),
          (c1 - c0) / 1e3 / count,
          redis
              ? String.format(
                  Locale.ROOT,
                  ", Redis %.2f commands/notification %s",
                  (double) total / count,
                  delta)
              : "");
      if (r >= warmup) {
        int k = r - warmup;
        rate[k] = count * 1e9 / (t1 - t0);
        cpu[k] = (c1 - c0) / 1e3 / count;
        ops[k] = (double) total / count;
        byCommand.add(delta);
      }
    }
    delete(http, ua, session);
    StringBuilder per = new StringBuilder();
    if (redis) {
      Map<String, Long> mid = byCommand.get(medianIndex(ops));
      for (Map.Entry<String, Long> e : mid.entrySet()) {
        if ((double) e.getValue() / count >= 0.01) {
          per.append(per.length() == 0 ? "" : ", ")
              .append(
                  String.format(Locale.ROOT, "%s %.2f", e.getKey(), (double) e.getValue() / count));
        }
      }
    }
    return new Result(mode, median(rate), median(cpu), median(ops), per.toString());
  }

  /** Reads up to the first progress notification (progress 0); returns the last event id seen. */
  private static String startedAt(BufferedReader in) throws IOException {
    String lastId = null;
    for (String line; (line = in.readLine()) != null; ) {
      if (line.startsWith("id: ")) {
        lastId = line.substring(4);
      } else if (line.startsWith("data: {") && line.contains("notifications/progress")) {
        if (lastId == null) {
          throw new IOException("progress 0 came without an event id");
        }
        return lastId;
      }
    }
    throw new IOException("the stream ended before progress 0");
  }

  /** Reads progress 1..count in order, then the response to {@code id}. */
  private void readToResponse(BufferedReader in, int id) throws IOException {
    int seen = 0;
    for (String line; (line = in.readLine()) != null; ) {
      if (!line.startsWith("data: {")) {
        continue;
      }
      if (line.contains("notifications/progress")) {
        int at = line.indexOf("\"progress\":");
        int end = at + 11;
        while (end < line.length()
            && (Character.isDigit(line.charAt(end)) || line.charAt(end) == '.')) {
          end++;
        }
        int p = (int) Double.parseDouble(line.substring(at + 11, end));
        if (p == 0 && seen == 0) {
          continue; // progress 0 again (replayed on the node that resumed the stream)
        }
        if (p != seen + 1) {
          throw new IOException("progress out of order after " + seen + ": " + line);
        }
        seen = p;
      } else if (line.contains("\"id\":" + id) && line.contains("\"result\"")) {
        if (seen != count) {
          throw new IOException("the response came after " + seen + " of " + count);
        }
        return;
      }
    }
    throw new IOException("the stream ended after " + seen + " of " + count + " notifications");
  }

  /** Commands Redis has run so far, by command. */
  private Map<String, Long> commandStats() throws IOException, InterruptedException {
    return RedisCommandStats.read(redisUri);
  }

  /** {@code now - before} by command, less the {@code INFO} that read {@code before}. */
  private static Map<String, Long> minus(Map<String, Long> now, Map<String, Long> before) {
    Map<String, Long> d = new TreeMap<>();
    for (Map.Entry<String, Long> e : now.entrySet()) {
      long n =
          e.getValue() - before.getOrDefault(e.getKey(), 0L) - (e.getKey().equals("info") ? 1 : 0);
      if (n > 0) {
        d.put(e.getKey(), n);
      }
    }
    return d;
  }

  private static double median(double[] v) {
    double[] s = v.clone();
    Arrays.sort(s);
    return s[s.length / 2];
  }

  private static int medianIndex(double[] v) {
    double m = median(v);
    for (int i = 0; i < v.length; i++) {
      if (v[i] == m) {
        return i;
      }
    }
    return 0;
  }

  private static HttpRequest.Builder post(URI uri, String body) {
    return HandshakeHttp.post(uri, body, Duration.ofMinutes(2));
  }

  private static String initialize(HttpClient http, URI uri) throws Exception {
    return HandshakeHttp.initialize(http, uri, "progress-cluster-bench", Duration.ofMinutes(2));
  }

  private static void delete(HttpClient http, URI uri, String session) throws Exception {
    http.send(
        HttpRequest.newBuilder(uri)
            .timeout(Duration.ofSeconds(30))
            .header("Mcp-Session-Id", session)
            .header("MCP-Protocol-Version", VERSION)
            .DELETE()
            .build(),
        HttpResponse.BodyHandlers.discarding());
  }

  /** A node in its own JVM, steered over stdin: {@code cpu}, {@code go}, {@code quit}. */
  static final class Child implements AutoCloseable {
    private final Process process;
    private final BufferedReader in;
    private final Writer cmd;
    final int port;

    private Child(Process p) throws IOException {
      this.process = p;
      this.in =
          new BufferedReader(new InputStreamReader(p.getInputStream(), StandardCharsets.UTF_8));
      this.cmd = new java.io.OutputStreamWriter(p.getOutputStream(), StandardCharsets.UTF_8);
      this.port = Integer.parseInt(expect("PORT").substring(5));
    }

    static Child start(String name, String heap, @Nullable String redis, long deadline)
        throws IOException {
      String java = ProcessHandle.current().info().command().orElse("java");
      List<String> c = new ArrayList<>(List.of(java, "-Xms" + heap, "-Xmx" + heap, "-XX:+UseG1GC"));
      String extra = System.getProperty("progress.childJvmArgs", "").trim();
      if (!extra.isEmpty()) {
        c.addAll(List.of(extra.split("\\s+")));
      }
      c.addAll(
          List.of(
              "-cp",
              System.getProperty("java.class.path"),
              ProgressClusterHarness.class.getName(),
              "--child",
              Long.toString(
                  Math.max(1, TimeUnit.NANOSECONDS.toSeconds(deadline - System.nanoTime())))));
      if (redis != null) {
        c.add(redis);
      }
      Path log =
          Path.of(
              System.getProperty("progress.logDir", System.getProperty("java.io.tmpdir")),
              "progress-cluster-" + name + ".log");
      return new Child(new ProcessBuilder(c).redirectError(log.toFile()).start());
    }

    long cpu() throws IOException {
      return Long.parseLong(send("cpu", "CPU").substring(4));
    }

    void go() throws IOException {
      send("go", "GO");
    }

    void quit() throws IOException {
      send("quit", "BYE");
    }

    private String send(String line, String answer) throws IOException {
      cmd.write(line + "\n");
      cmd.flush();
      return expect(answer);
    }

    private String expect(String word) throws IOException {
      for (String line; (line = in.readLine()) != null; ) {
        if (line.startsWith(word)) {
          return line;
        }
        if (line.startsWith("ERROR")) {
          throw new IOException("child: " + line);
        }
      }
      throw new IOException("child ended before " + word);
    }

    @Override
    public void close() {
      try {
        cmd.close();
        process.waitFor(10, TimeUnit.SECONDS);
      } catch (IOException | InterruptedException e) {
        // destroyed below
      }
      process.destroyForcibly();
    }
  }

  /** The node: Herald with the {@code progress} tool, alone or a member of the cluster on {@code redis}. */
  static void child(long limitSeconds, @Nullable String redis) throws Exception {
    Thread.ofPlatform()
        .daemon()
        .start(() -> {
          try {
            Thread.sleep(limitSeconds * 1000 + 2_000);
            System.err.println("progress-cluster child: time limit reached");
            Runtime.getRuntime().halt(3);
          } catch (InterruptedException ignored) {
            // not reached
          }
        });
    Semaphore go = new Semaphore(0);
    McpServer mcp =
        McpServer.builder()
            .info("progress-cluster-bench", "1")
            .progressInterval(Duration.ZERO)
            .tool(
                Tool.builder("progress")
                    .description("Reports progress 0, waits for go, then reports 1..count")
                    .build(),
                call -> {
                  int n = call.arguments().path("count").asInt(0);
                  ProgressReporter p = call.context().progress();
                  Double total = (double) n;
                  p.report(0, total, null);
                  if (!go.tryAcquire(120, TimeUnit.SECONDS)) {
                    return CallToolResult.error("no go within 120 s");
                  }
                  for (int i = 1; i <= n; i++) {
                    p.report(i, total, null);
                  }
                  return CallToolResult.text("sent " + n);
                })
            .build();
    dev.herald.redis.@Nullable RedisCluster cluster =
        redis == null ? null : dev.herald.redis.RedisCluster.connect(URI.create(redis));
    McpHttpServer.Builder b =
        McpHttpServer.builder().server(mcp).streamQueueLimit(20_000, 64L << 20);
    if (cluster != null) {
      b.cluster(cluster);
    }
    McpHttpServer http = b.build().start();
    PrintStream o = System.out;
    o.println("PORT " + http.port());
    o.flush();
    BufferedReader in =
        new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8));
    for (String line; (line = in.readLine()) != null; ) {
      switch (line.trim()) {
        case "cpu" -> o.println("CPU " + FanoutServer.processCpu());
        case "go" -> {
          go.release();
          o.println("GO");
        }
        case "quit" -> {
          o.println("BYE");
          o.flush();
          http.close();
          if (cluster != null) {
            cluster.close();
          }
          System.exit(0);
        }
        default -> o.println("ERROR unknown command " + line);
      }
      o.flush();
    }
    http.close();
    if (cluster != null) {
      cluster.close();
    }
    System.exit(0);
  }
}
