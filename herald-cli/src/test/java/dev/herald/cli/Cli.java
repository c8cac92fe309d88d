package dev.herald.cli;

import dev.herald.testing.HeraldJar;
import java.io.File;
import java.io.IOException;
import java.net.URISyntaxException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

/** Runs the {@code herald} client commands as real subprocesses against real stdio servers. */
final class Cli {
  private Cli() {}

  /** What a finished command left: its exit code and both streams. */
  record Run(int exit, String out, String err) {
    List<String> errLines() {
      return err.lines().filter(l -> !l.isBlank()).toList();
    }
  }

  /** {@code herald serve --stdio} as a server command line, tagged with {@code marker} for pgrep. */
  static List<String> demoServer(String marker) {
    return HeraldJar.command(
        List.of("-Xmx96m", "-Dherald.it.marker=" + marker), "serve", "--stdio");
  }

  /** The test-only {@link TestServer}, with extra JVM arguments. */
  static List<String> testServer(String... jvmArgs) {
    return testMain(TestServer.class, jvmArgs);
  }

  /** A test class's {@code main} as a stdio server command line, with extra JVM arguments. */
  static List<String> testMain(Class<?> main, String... jvmArgs) {
    List<String> cmd =
        new ArrayList<>(
            List.of(HeraldJar.java(), "-XX:+UseSerialGC", "-XX:TieredStopAtLevel=1", "-Xmx96m"));
    cmd.addAll(List.of(jvmArgs));
    cmd.add("-cp");
    cmd.add(
        HeraldJar.path()
            + File.pathSeparator
            + testClasses()
            + File.pathSeparator
            + codeSource(dev.herald.http.matrix.EraMatrix.class));
    cmd.add(main.getName());
    return cmd;
  }

  static Path testClasses() {
    return codeSource(TestServer.class);
  }

  /** Where a class was loaded from (a folder or a jar). */
  private static Path codeSource(Class<?> type) {
    try {
      return Path.of(type.getProtectionDomain().getCodeSource().getLocation().toURI());
    } catch (URISyntaxException e) {
      throw new IllegalStateException(e);
    }
  }

  /** {@code herald <args...> -- <server...>} as one command line. */
  static List<String> herald(List<String> args, List<String> server) {
    List<String> cmd =
        new ArrayList<>(HeraldJar.command(List.of("-Xmx128m"), args.toArray(String[]::new)));
    if (!server.isEmpty()) {
      cmd.add("--");
      cmd.addAll(server);
    }
    return cmd;
  }

  /**
   * Runs a command with pipes (no terminal) and waits for it, at most 120 s: a safety net for a
   * hung command, generous because each run starts two JVMs and the machine may be busy.
   */
  static Run run(List<String> cmd) throws IOException, InterruptedException {
    Process p = new ProcessBuilder(cmd).start();
    p.getOutputStream().close();
    CompletableFuture<String> out = read(p.getInputStream());
    CompletableFuture<String> err = read(p.getErrorStream());
    if (!p.waitFor(120, TimeUnit.SECONDS)) {
      p.descendants().forEach(ProcessHandle::destroyForcibly);
      p.destroyForcibly();
      throw new AssertionError("timed out: " + String.join(" ", cmd));
    }
    return new Run(p.exitValue(), out.join(), err.join());
  }

  private static CompletableFuture<String> read(java.io.InputStream in) {
    return CompletableFuture.supplyAsync(
        () -> {
          try (in) {
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
          } catch (IOException e) {
            return "";
          }
        },
        r -> Thread.ofVirtual().start(r));
  }

  /** Whether any process's command line holds {@code marker} (the JVM property a test server was tagged with). */
  static boolean anyProcessWith(String marker) {
    return ProcessHandle.allProcesses()
        .anyMatch(h -> h.info().commandLine().map(c -> c.contains(marker)).orElse(false));
  }
}
