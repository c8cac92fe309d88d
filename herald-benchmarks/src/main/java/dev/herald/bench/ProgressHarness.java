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
import java.util.concurrent.TimeUnit;

/**
 * Server CPU per progress notification over Streamable HTTP: one {@code tools/call} whose handler
 * reports {@code --count} progress notifications (every one on the wire: {@code progressInterval}
 * zero) on the call's POST SSE stream, then answers. The Herald server runs in a child JVM, so its
 * process CPU time ({@code OperatingSystemMXBean.getProcessCpuTime}, read over stdin before and
 * after each call) is its own; the driver reads the stream with {@code java.net.http} and checks
 * that every notification arrived, in order, before the response.
 *
 * <p>Per round: {@code --calls-per-round} calls (10; the OS reports CPU time in 10 ms steps), one
 * after the other; {@code --warmup} rounds first, then {@code --rounds} timed ones; the
 * medians of notifications per second (wall time of the call) and server CPU per notification are
 * printed. The child's stream queue holds a whole call ({@code streamQueueLimit(20_000, 64 MB)}):
 * with the default 1,024 events a driver that falls behind on a busy machine would see its stream
 * ended as a slow reader's. {@code --jfr <file>} starts the child with a flight recording (method samples every
 * 10 ms, allocation samples) of the timed rounds' process, dumped at exit.
 *
 * <pre>
 * java -cp benchmarks.jar dev.herald.bench.ProgressHarness [--count 10000] [--warmup 20]
 *     [--rounds 20] [--calls-per-round 10] [--child-heap 512m] [--jfr file.jfr] [--timeout-s 300]
 * </pre>
 */
public final class ProgressHarness {
  private ProgressHarness() {}

  public static void main(String[] args) throws Exception {
    if (args.length > 0 && args[0].equals("--child")) {
      child(Long.parseLong(args[1]));
      return;
    }
    int count = 10_000;
    int warmup = 20;
    int rounds = 20;
    int perRound = 10;
    String heap = "512m";
    String jfr = null;
    long timeoutS = 300;
    for (int i = 0; i < args.length; i += 2) {
      String v = args[i + 1];
      switch (args[i]) {
        case "--count" -> count = Integer.parseInt(v);
        case "--warmup" -> warmup = Integer.parseInt(v);
        case "--rounds" -> rounds = Integer.parseInt(v);
        case "--calls-per-round" -> perRound = Integer.parseInt(v);
        case "--child-heap" -> heap = v;
        case "--jfr" -> jfr = v;
        case "--timeout-s" -> timeoutS = Long.parseLong(v);
        default -> throw new IllegalArgumentException("unknown option " + args[i]);
      }
    }
    List<String> cmd = new ArrayList<>();
    cmd.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
    cmd.addAll(List.of("-Xms" + heap, "-Xmx" + heap, "-XX:+UseG1GC"));
    if (jfr != null) {
      cmd.add("-XX:StartFlightRecording=settings=profile,filename=" + jfr + ",dumponexit=true");
    }
    cmd.addAll(
        List.of(
            "-cp",
            System.getProperty("java.class.path"),
            ProgressHarness.class.getName(),
            "--child",
            Long.toString(timeoutS)));
    Process p = new ProcessBuilder(cmd).redirectError(ProcessBuilder.Redirect.INHERIT).start();
    try (HttpClient http =
        HttpClient.newBuilder()
            .version(HttpClient.Version.HTTP_1_1)
            .connectTimeout(Duration.ofSeconds(5))
            .build()) {
      BufferedReader childOut =
          new BufferedReader(new InputStreamReader(p.getInputStream(), StandardCharsets.UTF_8));
      Writer childIn = new java.io.OutputStreamWriter(p.getOutputStream(), StandardCharsets.UTF_8);
      String portLine = childOut.readLine();
      while (portLine != null && !portLine.startsWith("PORT ")) {
        portLine = childOut.readLine(); // the JVM's own lines (a flight recording starting)
      }
      if (portLine == null || !portLine.startsWith("PORT ")) {
        throw new IOException("child did not start: " + portLine);
      }
      URI uri = URI.create("http://127.0.0.1:" + portLine.substring(5) + "/mcp");
      String session = initialize(http, uri);
      System.out.printf(
          Locale.ROOT,
          "progress over Streamable HTTP: one tools/call sending %d notifications on its POST stream; %d warm-up + %d timed rounds of %d calls (CPU read per round)%n",
          count,
          warmup,
          rounds,
          perRound);
      double[] rate = new double[rounds];
      double[] cpu = new double[rounds];
      for (int r = 0; r < warmup + rounds; r++) {
        long c0 = cpu(childIn, childOut);
        long t0 = System.nanoTime();
        for (int k = 0; k < perRound; k++) {
          call(http, uri, session, r * perRound + k, count);
        }
        long t1 = System.nanoTime();
        long c1 = cpu(childIn, childOut);
        if (r >= warmup) {
          rate[r - warmup] = (double) count * perRound * 1e9 / (t1 - t0);
          cpu[r - warmup] = (c1 - c0) / 1e3 / count / perRound;
        }
      }
      System.out.printf(
          Locale.ROOT,
          "herald   %10.0f notifications/s   %6.3f us server CPU/notification   (medians; CPU min %.3f max %.3f)%n",
          median(rate),
          median(cpu),
          Arrays.stream(cpu).min().orElse(0),
          Arrays.stream(cpu).max().orElse(0));
      childIn.write("quit\n");
      childIn.flush();
      p.waitFor(30, TimeUnit.SECONDS);
    } finally {
      p.destroy();
    }
  }

  private static double median(double[] v) {
    double[] s = v.clone();
    Arrays.sort(s);
    return s.length == 0 ? 0 : s[s.length / 2];
  }

  private static long cpu(Writer in, BufferedReader out) throws IOException {
    in.write("cpu\n");
    in.flush();
    String line = out.readLine();
    if (line == null || !line.startsWith("CPU ")) {
      throw new IOException("child: " + line);
    }
    return Long.parseLong(line.substring(4));
  }

  private static HttpRequest.Builder post(URI uri, String body) {
    return HandshakeHttp.post(uri, body, Duration.ofSeconds(60));
  }

  private static String initialize(HttpClient http, URI uri) throws Exception {
    return HandshakeHttp.initialize(http, uri, "progress-bench", Duration.ofSeconds(60));
  }

  /** One call; checks every notification arrived in order and the response came last. */
  private static void call(HttpClient http, URI uri, String session, int r, int count)
      throws Exception {
    HttpResponse<InputStream> resp =
        http.send(
            post(
                    uri,
                    "{\"jsonrpc\":\"2.0\",\"id\":"
                        + (r + 1)
                        + ",\"method\":\"tools/call\",\"params\":{\"name\":\"progress\",\"arguments\":{\"count\":"
                        + count
                        + "},\"_meta\":{\"progressToken\":\"tok-"
                        + r
                        + "\"}}}")
                .header("Mcp-Session-Id", session)
                .header("MCP-Protocol-Version", CallsHarness.HANDSHAKE)
                .build(),
            HttpResponse.BodyHandlers.ofInputStream());
    if (resp.statusCode() != 200) {
      throw new IOException("tools/call answered HTTP " + resp.statusCode());
    }
    int seen = 0;
    boolean answered = false;
    try (BufferedReader in =
        new BufferedReader(new InputStreamReader(resp.body(), StandardCharsets.UTF_8), 1 << 16)) {
      for (String line; (line = in.readLine()) != null; ) {
        if (!line.startsWith("data: {")) {
          continue;
        }
        if (line.contains("notifications/progress")) {
          seen++;
          int at = line.indexOf("\"progress\":");
          int end = at + 11;
          while (end < line.length()
              && (Character.isDigit(line.charAt(end)) || line.charAt(end) == '.')) {
            end++;
          }
          if ((int) Double.parseDouble(line.substring(at + 11, end)) != seen) {
            throw new IOException("progress out of order at " + seen + ": " + line);
          }
        } else if (line.contains("\"result\"")) {
          answered = true;
          break;
        }
      }
    }
    if (!answered || seen != count) {
      throw new IOException(
          "call " + r + ": " + seen + " of " + count + " notifications, answered " + answered);
    }
  }

  /** The child: Herald with a {@code progress} tool on Streamable HTTP; {@code cpu}, {@code quit}. */
  static void child(long limitSeconds) throws Exception {
    Thread.ofPlatform()
        .daemon()
        .start(() -> {
          try {
            Thread.sleep(limitSeconds * 1000 + 2_000);
            System.err.println("progress child: time limit reached");
            Runtime.getRuntime().halt(3);
          } catch (InterruptedException ignored) {
            // not reached
          }
        });
    McpServer mcp =
        McpServer.builder()
            .info("progress-bench", "1")
            .progressInterval(Duration.ZERO)
            .tool(
                Tool.builder("progress").description("Sends count progress notifications").build(),
                call -> {
                  int n = call.arguments().path("count").asInt(0);
                  ProgressReporter p = call.context().progress();
                  Double total = (double) n;
                  for (int i = 1; i <= n; i++) {
                    p.report(i, total, null);
                  }
                  return CallToolResult.text("sent " + n);
                })
            .build();
    // A queue that holds a whole call: the driver shares two cores with the server and may fall
    // behind by more than the default 1,024 events, which would end the stream (slow reader).
    McpHttpServer http =
        McpHttpServer.builder().server(mcp).streamQueueLimit(20_000, 64L << 20).build().start();
    ChildServer.serve(http);
  }
}
