package dev.herald.peerbench;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.OutputStreamWriter;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A child JVM: a server under test ({@link ServerMain}, steered over its stdin and stdout) or the
 * SDK 2.2.0's 2026-07-28 server (herald-interop-jsdk22's {@code ModernServerMain}, which cannot be
 * steered: its process CPU is read from outside, {@link Cpu#processNanos(ProcessHandle)}). Its stderr goes to a log file under {@code target/peer-bench-logs}.
 */
final class Child implements AutoCloseable {
  private final String name;
  private final Process process;
  private final BufferedReader in;
  private final Writer cmd;
  private final long deadline;
  private final boolean steered;
  final int port;

  private Child(String name, Process p, long deadline, boolean steered, int port)
      throws IOException {
    this.name = name;
    this.process = p;
    this.deadline = deadline;
    this.steered = steered;
    this.in = new BufferedReader(new InputStreamReader(p.getInputStream(), StandardCharsets.UTF_8));
    this.cmd = new OutputStreamWriter(p.getOutputStream(), StandardCharsets.UTF_8);
    this.port = steered ? Integer.parseInt(expect("PORT")[1]) : port;
  }

  static List<String> jvm(String heap) {
    String java = ProcessHandle.current().info().command().orElse("java");
    List<String> cmd = new ArrayList<>(List.of(java, "-Xms" + heap, "-Xmx" + heap, "-XX:+UseG1GC"));
    String extra = System.getProperty("peer.childJvmArgs", "").trim(); // e.g. a JFR recording
    if (!extra.isEmpty()) {
      cmd.addAll(List.of(extra.split("\\s+", -1)));
    }
    return cmd;
  }

  /** A {@link ServerMain} of {@code kind} on its role's class path. */
  static Child server(Classpaths cp, String kind, String heap, int maxSessions, long deadline)
      throws IOException {
    List<String> cmd = jvm(heap);
    cmd.addAll(
        List.of(
            "-cp",
            cp.forRole(kind),
            ServerMain.class.getName(),
            kind,
            Integer.toString(maxSessions),
            Long.toString(secondsLeft(deadline))));
    Process p = new ProcessBuilder(cmd).redirectError(log(cp, "server-" + kind).toFile()).start();
    return new Child("server " + kind, p, deadline, true, 0);
  }

  /** herald-interop-jsdk22's {@code ModernServerMain --http 0}, the SDK 2.2.0's modern server. */
  static Child jsdk22(Classpaths cp, String heap, long deadline) throws Exception {
    List<String> cmd = jvm(heap);
    cmd.addAll(
        List.of(
            "-cp",
            cp.forRole("jsdk22"),
            "dev.herald.interop.jsdk22.ModernServerMain",
            "--http",
            "0"));
    Path log = log(cp, "server-jsdk22");
    Process p = new ProcessBuilder(cmd).redirectError(log.toFile()).start();
    Pattern listening = Pattern.compile("listening on (\\d+)");
    long until = Math.min(deadline, System.nanoTime() + TimeUnit.SECONDS.toNanos(60));
    while (System.nanoTime() < until && p.isAlive()) {
      Matcher m = listening.matcher(Files.readString(log));
      if (m.find()) {
        return new Child("server jsdk22", p, deadline, false, Integer.parseInt(m.group(1)));
      }
      Thread.sleep(50);
    }
    p.destroyForcibly();
    throw new IllegalStateException("the SDK 2.2.0 server did not start (see " + log + ")");
  }

  static Path log(Classpaths cp, String what) throws IOException {
    Path dir = cp.target().resolve("peer-bench-logs");
    Files.createDirectories(dir);
    return dir.resolve(what + ".log");
  }

  static long secondsLeft(long deadline) {
    return Math.max(1, TimeUnit.NANOSECONDS.toSeconds(deadline - System.nanoTime()));
  }

  String[] send(String line, String answer) throws IOException {
    if (!steered) {
      throw new IllegalStateException(name + " cannot be steered");
    }
    cmd.write(line + "\n");
    cmd.flush();
    return expect(answer);
  }

  private String[] expect(String word) throws IOException {
    while (true) {
      if (System.nanoTime() > deadline) {
        throw new IllegalStateException(name + ": time bound reached");
      }
      String l = in.readLine();
      if (l == null) {
        throw new IllegalStateException(name + ": the child JVM ended (see its log)");
      }
      String[] f = l.trim().split(" ", -1);
      if (f[0].equals(word)) {
        return f;
      }
      if (f[0].equals("ERROR")) {
        throw new IllegalStateException(name + ": " + l);
      }
    }
  }

  /** The child's process CPU time so far, in nanoseconds. */
  long cpu() throws IOException {
    if (!steered) {
      return Cpu.processNanos(process.toHandle());
    }
    return Long.parseLong(send("cpu", "CPU")[1]);
  }

  /** Used heap after full collections (median of three readings). */
  long heap() throws IOException {
    return Long.parseLong(send("heap", "HEAP")[1]);
  }

  /**
   * With {@code -Dpeer.histo=DIR}, writes the child's live class histogram ({@code jcmd
   * GC.class_histogram}, which collects first) to {@code DIR/<name>-<label>.txt}; else nothing.
   */
  void histogram(String label) throws IOException, InterruptedException {
    String dir = System.getProperty("peer.histo", "");
    if (dir.isEmpty()) {
      return;
    }
    Path jcmd = Path.of(System.getProperty("java.home"), "bin", "jcmd");
    Path out = Path.of(dir).resolve(name.replace(' ', '-') + "-" + label + ".txt");
    Files.createDirectories(out.getParent());
    new ProcessBuilder(jcmd.toString(), Long.toString(process.pid()), "GC.class_histogram")
        .redirectErrorStream(true)
        .redirectOutput(out.toFile())
        .start()
        .waitFor(120, TimeUnit.SECONDS);
  }

  /** Checks that the child's nanoTime is the driver's (CLOCK_MONOTONIC on Linux). */
  void checkClock() throws IOException {
    for (int i = 0; i < 3; i++) {
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
                + ")");
      }
    }
  }

  /** Triggers list change {@code k}; returns the child's nanoTime at the trigger. */
  long trigger(int k) throws IOException {
    return triggerTimed(k)[0];
  }

  /**
   * Triggers list change {@code k}; returns the child's nanoTime at the trigger, how long the
   * trigger's call took there (ns), and the calling thread's CPU (ns), allocation (bytes) and user-mode
   * CPU (ns) during the call: for Herald and the ceiling, the fan-out's own thread and loop.
   */
  long[] triggerTimed(int k) throws IOException {
    String[] f = send("trigger " + k, "TRIGGERED");
    return new long[] {
      Long.parseLong(f[1]),
      Long.parseLong(f[2]),
      Long.parseLong(f[3]),
      Long.parseLong(f[4]),
      Long.parseLong(f[5])
    };
  }

  /** The child's collections and JIT time so far ({@link Pauses}). */
  Pauses pauses() throws IOException {
    return Pauses.parse(send("gc", "GC"));
  }

  @Override
  public void close() throws Exception {
    if (steered && process.isAlive()) {
      try {
        send("quit", "BYE");
      } catch (IOException | IllegalStateException e) {
        // ending it below
      }
    }
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
