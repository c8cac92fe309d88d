package dev.herald.bench;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.Writer;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;

/**
 * Calls per second and server CPU per call for {@code tools/call} over Streamable HTTP, in the two
 * protocol eras on the same server in the same run: handshake-era calls (one {@code initialize}
 * per worker, then calls on its {@code Mcp-Session-Id}, MCP 2025-11-25) next to stateless
 * 2026-07-28 calls (no session: each POST carries its protocol version, client capabilities and
 * client info in {@code _meta} and the {@code MCP-Protocol-Version}, {@code Mcp-Method} and {@code
 * Mcp-Name} headers). The server ({@link CallsServer}) runs in a child JVM so that its process CPU
 * time ({@code OperatingSystemMXBean.getProcessCpuTime}) is its own; the driver sends plain
 * JSON-RPC with {@code java.net.http}, so what is measured is the server's work.
 *
 * <p>Per era: {@code --warmup} calls, then {@code --calls} timed calls from {@code --workers}
 * concurrent senders; each answer must be HTTP 200 with the echoed text in a JSON-RPC result, else
 * the era's row names the first failure instead of numbers. The runs alternate (handshake,
 * stateless, ...) {@code --rounds} times and each row reports the best round. Everything is bounded
 * by {@code --timeout-s} (default 600 s; a round cut short by it is reported as such) and talks to
 * 127.0.0.1 only.
 *
 * <pre>
 * java -cp benchmarks.jar dev.herald.bench.CallsHarness [--calls 10000] [--warmup 2000]
 *     [--workers 8] [--rounds 3] [--child-heap 512m] [--timeout-s 600]
 * </pre>
 */
public final class CallsHarness {
  private CallsHarness() {}

  static final String MODERN = "2026-07-28";
  static final String HANDSHAKE = "2025-11-25";

  /** One era's best round: calls, wall nanoseconds, server CPU nanoseconds, or why it failed. */
  record Row(String era, long calls, long wallNanos, long cpuNanos, String failure) {
    double callsPerSecond() {
      return calls * 1e9 / wallNanos;
    }

    double cpuMicrosPerCall() {
      return cpuNanos / 1e3 / calls;
    }

    boolean ok() {
      return failure.isEmpty();
    }

    String render() {
      if (!ok()) {
        return String.format(Locale.ROOT, "%-22s  n/a: %s", era, failure);
      }
      return String.format(
          Locale.ROOT,
          "%-22s  %10.0f calls/s  %8.1f us server CPU/call  (%d calls in %.2f s)",
          era,
          callsPerSecond(),
          cpuMicrosPerCall(),
          calls,
          wallNanos / 1e9);
    }
  }

  public static void main(String[] args) throws Exception {
    if (args.length > 0 && args[0].equals("--child")) {
      CallsServer.main(java.util.Arrays.copyOfRange(args, 1, args.length));
      return;
    }
    int calls = 10_000;
    int warmup = 2_000;
    int workers = 8;
    int rounds = 3;
    String heap = "512m";
    long timeoutS = 600;
    for (int i = 0; i < args.length; i += 2) {
      String v = args[i + 1];
      switch (args[i]) {
        case "--calls" -> calls = Integer.parseInt(v);
        case "--warmup" -> warmup = Integer.parseInt(v);
        case "--workers" -> workers = Integer.parseInt(v);
        case "--rounds" -> rounds = Integer.parseInt(v);
        case "--child-heap" -> heap = v;
        case "--timeout-s" -> timeoutS = Long.parseLong(v);
        default -> throw new IllegalArgumentException("unknown option " + args[i]);
      }
    }
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(timeoutS);
    try (Child child = Child.start(heap, deadline);
        HttpClient http =
            HttpClient.newBuilder()
                .version(HttpClient.Version.HTTP_1_1)
                .connectTimeout(Duration.ofSeconds(5))
                .build()) {
      URI uri = URI.create("http://127.0.0.1:" + child.port + "/mcp");
      System.out.printf(
          Locale.ROOT,
          "tools/call over Streamable HTTP, one Herald server (dual-era), %d workers, %d calls after %d warm-up, best of %d%n",
          workers,
          calls,
          warmup,
          rounds);
      Row handshake = null;
      Row modern = null;
      for (int r = 0; r < rounds && System.nanoTime() < deadline; r++) {
        handshake = best(handshake, run(http, uri, child, false, workers, warmup, calls, deadline));
        modern = best(modern, run(http, uri, child, true, workers, warmup, calls, deadline));
      }
      if (handshake == null || modern == null) {
        throw new IllegalStateException("no round finished within --timeout-s");
      }
      System.out.println(handshake.render());
      System.out.println(modern.render());
      if (handshake.ok() && modern.ok()) {
        System.out.printf(
            Locale.ROOT,
            "stateless / handshake: %.2fx calls/s, %.2fx server CPU per call%n",
            modern.callsPerSecond() / handshake.callsPerSecond(),
            modern.cpuMicrosPerCall() / handshake.cpuMicrosPerCall());
      } else {
        System.out.println("stateless / handshake: n/a (an era failed; see its row)");
      }
      child.quit();
    }
  }

  private static Row best(Row so, Row next) {
    if (so == null || (!so.ok() && next.ok())) {
      return next;
    }
    return next.ok() && next.callsPerSecond() > so.callsPerSecond() ? next : so;
  }

  /** One era's round: warm-up calls, then the timed calls, the child's CPU read around them. */
  static Row run(
      HttpClient http,
      URI uri,
      Child child,
      boolean stateless,
      int workers,
      int warmup,
      int calls,
      long deadline)
      throws Exception {
    String era = stateless ? "stateless " + MODERN : "handshake " + HANDSHAKE;
    List<Caller> callers = new ArrayList<>();
    try {
      for (int w = 0; w < workers; w++) {
        callers.add(stateless ? Caller.stateless(http, uri) : Caller.handshake(http, uri));
      }
      burst(callers, warmup, deadline);
      long cpu0 = child.cpu();
      long t0 = System.nanoTime();
      burst(callers, calls, deadline);
      long wall = System.nanoTime() - t0;
      long cpu = child.cpu() - cpu0;
      return new Row(era, calls, wall, cpu, "");
    } catch (CallFailed | BurstTimedOut | IOException e) {
      return new Row(era, 0, 1, 0, e.getMessage() != null ? e.getMessage() : e.toString());
    } finally {
      for (Caller c : callers) {
        c.close();
      }
    }
  }

  /** {@code total} calls shared by the callers, each on its own thread; fails on the first bad answer. */
  static void burst(List<Caller> callers, int total, long deadline) throws Exception {
    AtomicLong left = new AtomicLong(total);
    AtomicReference<Exception> failed = new AtomicReference<>();
    List<Thread> threads = new ArrayList<>();
    for (Caller c : callers) {
      threads.add(
          Thread.ofPlatform()
              .start(() -> {
                try {
                  while (left.getAndDecrement() > 0
                      && failed.get() == null
                      && System.nanoTime() < deadline) {
                    c.call();
                  }
                } catch (Exception e) {
                  failed.compareAndSet(null, e);
                }
              }));
    }
    for (Thread t : threads) {
      t.join(Math.max(1, TimeUnit.NANOSECONDS.toMillis(deadline - System.nanoTime())));
    }
    if (failed.get() != null) {
      throw failed.get();
    }
    if (System.nanoTime() >= deadline) {
      throw new BurstTimedOut();
    }
  }

  /** The run's time limit ran out during a burst. */
  static final class BurstTimedOut extends Exception {
    private static final long serialVersionUID = 1L;

    BurstTimedOut() {
      super("--timeout-s reached before the calls were done");
    }
  }

  /** A call that was not answered with the tool's result. */
  static final class CallFailed extends Exception {
    private static final long serialVersionUID = 1L;

    CallFailed(String message) {
      super(message);
    }
  }

  /** One sender: a handshake-era session, or none (stateless 2026-07-28). */
  static final class Caller {
    private final HttpClient http;
    private final URI uri;
    private final boolean stateless;
    private final String sessionId;
    private long nextId = 1;

    private Caller(HttpClient http, URI uri, boolean stateless, String sessionId) {
      this.http = http;
      this.uri = uri;
      this.stateless = stateless;
      this.sessionId = sessionId;
    }

    static Caller stateless(HttpClient http, URI uri) {
      return new Caller(http, uri, true, "");
    }

    static Caller handshake(HttpClient http, URI uri) throws Exception {
      HttpResponse<String> init =
          http.send(
              post(uri, "")
                  .POST(
                      HttpRequest.BodyPublishers.ofString(
                          "{\"jsonrpc\":\"2.0\",\"id\":0,\"method\":\"initialize\",\"params\":{\"protocolVersion\":\""
                              + HANDSHAKE
                              + "\",\"capabilities\":{},\"clientInfo\":{\"name\":\"calls-bench\",\"version\":\"1\"}}}"))
                  .build(),
              HttpResponse.BodyHandlers.ofString());
      String sid = init.headers().firstValue("Mcp-Session-Id").orElse("");
      if (init.statusCode() != 200 || sid.isEmpty()) {
        throw new CallFailed(
            "initialize answered HTTP " + init.statusCode() + ": " + brief(init.body()));
      }
      HttpResponse<String> initialized =
          http.send(
              post(uri, HANDSHAKE)
                  .header("Mcp-Session-Id", sid)
                  .POST(
                      HttpRequest.BodyPublishers.ofString(
                          "{\"jsonrpc\":\"2.0\",\"method\":\"notifications/initialized\"}"))
                  .build(),
              HttpResponse.BodyHandlers.ofString());
      if (initialized.statusCode() / 100 != 2) {
        throw new CallFailed("notifications/initialized answered HTTP " + initialized.statusCode());
      }
      return new Caller(http, uri, false, sid);
    }

    private static HttpRequest.Builder post(URI uri, String version) {
      HttpRequest.Builder b =
          HttpRequest.newBuilder(uri)
              .timeout(Duration.ofSeconds(30))
              .header("Content-Type", "application/json")
              .header("Accept", "application/json, text/event-stream");
      return version.isEmpty() ? b : b.header("MCP-Protocol-Version", version);
    }

    void call() throws Exception {
      long id = nextId++;
      String text = "hello " + id;
      HttpRequest.Builder b;
      String meta = "";
      if (stateless) {
        b = post(uri, MODERN).header("Mcp-Method", "tools/call").header("Mcp-Name", "echo");
        meta =
            ",\"_meta\":{\"io.modelcontextprotocol/protocolVersion\":\""
                + MODERN
                + "\",\"io.modelcontextprotocol/clientCapabilities\":{},"
                + "\"io.modelcontextprotocol/clientInfo\":{\"name\":\"calls-bench\",\"version\":\"1\"}}";
      } else {
        b = post(uri, HANDSHAKE).header("Mcp-Session-Id", sessionId);
      }
      String body =
          "{\"jsonrpc\":\"2.0\",\"id\":"
              + id
              + ",\"method\":\"tools/call\",\"params\":{\"name\":\"echo\",\"arguments\":{\"text\":\""
              + text
              + "\"}"
              + meta
              + "}}";
      HttpResponse<String> r =
          http.send(
              b.POST(HttpRequest.BodyPublishers.ofString(body)).build(),
              HttpResponse.BodyHandlers.ofString());
      String answer = r.body();
      if (r.statusCode() != 200 || !answer.contains("\"result\"") || !answer.contains(text)) {
        throw new CallFailed("tools/call answered HTTP " + r.statusCode() + ": " + brief(answer));
      }
    }

    void close() {
      if (stateless || sessionId.isEmpty()) {
        return;
      }
      try {
        http.send(
            HttpRequest.newBuilder(uri)
                .timeout(Duration.ofSeconds(5))
                .header("Mcp-Session-Id", sessionId)
                .header("MCP-Protocol-Version", HANDSHAKE)
                .DELETE()
                .build(),
            HttpResponse.BodyHandlers.discarding());
      } catch (IOException | InterruptedException ignored) {
        // the session ends with the server anyway
      }
    }
  }

  static String brief(String body) {
    String s = body.replaceAll("\\s+", " ").trim();
    return s.length() > 200 ? s.substring(0, 200) + "..." : s;
  }

  /** The server JVM, steered over its stdin and stdout. */
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
      this.port = Integer.parseInt(expect("PORT")[1]);
    }

    static Child start(String heap, long deadline) throws IOException {
      String java = ProcessHandle.current().info().command().orElse("java");
      List<String> cmd =
          List.of(
              java,
              "-Xms" + heap,
              "-Xmx" + heap,
              "-XX:+UseG1GC",
              "-cp",
              System.getProperty("java.class.path"),
              CallsHarness.class.getName(),
              "--child",
              Long.toString(
                  Math.max(1, TimeUnit.NANOSECONDS.toSeconds(deadline - System.nanoTime()))));
      Path log =
          Path.of(
              System.getProperty("calls.logDir", System.getProperty("java.io.tmpdir")),
              "calls-server.log");
      return new Child(new ProcessBuilder(cmd).redirectError(log.toFile()).start());
    }

    private String[] expect(String word) throws IOException {
      while (true) {
        String l = in.readLine();
        if (l == null) {
          throw new IllegalStateException("the server JVM ended (see calls-server.log)");
        }
        String[] f = l.trim().split(" ");
        if (f[0].equals(word)) {
          return f;
        }
        if (f[0].equals("ERROR")) {
          throw new IllegalStateException("server: " + l);
        }
      }
    }

    long cpu() throws IOException {
      cmd.write("cpu\n");
      cmd.flush();
      return Long.parseLong(expect("CPU")[1]);
    }

    void quit() throws IOException {
      cmd.write("quit\n");
      cmd.flush();
      expect("BYE");
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
