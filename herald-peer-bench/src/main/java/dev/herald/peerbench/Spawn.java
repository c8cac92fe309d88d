package dev.herald.peerbench;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * A short-lived child process: started, optionally sent one line on stdin at once, and read on
 * stdout until a line containing {@code expect}; then stopped (stdin closed, then destroyed if it
 * does not end within two seconds). Bounded by a deadline.
 */
final class Spawn {
  private Spawn() {}

  /**
   * The line that matched, the nanoseconds from just before the start to reading it, and the
   * child's CPU time by then (user and system, all threads; -1 if the OS does not say).
   */
  record Outcome(String line, long nanos, long cpuNanos) {}

  static Outcome run(List<String> cmd, Path log, String input, String expect, long deadline)
      throws IOException, InterruptedException, TimeoutException {
    return run(cmd, Map.of(), log, input, expect, deadline, 2, 3);
  }

  /**
   * As {@link #run(List, Path, String, String, long)}, with {@code env} added to the child's
   * environment, {@code selfExitS} seconds for it to end by itself once stdin is closed and {@code
   * stopWaitS} after it is asked to stop ({@code SIGTERM}): a training run that writes a class-data
   * archive as it exits needs that time.
   */
  static Outcome run(
      List<String> cmd,
      Map<String, String> env,
      Path log,
      String input,
      String expect,
      long deadline,
      long selfExitS,
      long stopWaitS)
      throws IOException, InterruptedException, TimeoutException {
    long t0 = System.nanoTime();
    ProcessBuilder pb =
        new ProcessBuilder(cmd).redirectError(ProcessBuilder.Redirect.appendTo(log.toFile()));
    pb.environment().putAll(env);
    Process p = pb.start();
    try {
      OutputStream stdin = p.getOutputStream();
      if (input != null) {
        stdin.write((input + "\n").getBytes(StandardCharsets.UTF_8));
        stdin.flush();
      }
      CompletableFuture<Outcome> found = new CompletableFuture<>();
      Thread.ofPlatform()
          .daemon()
          .name("spawn-stdout")
          .start(() -> {
            try (BufferedReader out =
                new BufferedReader(
                    new InputStreamReader(p.getInputStream(), StandardCharsets.UTF_8))) {
              for (String l = out.readLine(); l != null; l = out.readLine()) {
                if (l.contains(expect)) {
                  long wall = System.nanoTime() - t0;
                  long cpu =
                      p.toHandle().info().totalCpuDuration().map(d -> d.toNanos()).orElse(-1L);
                  found.complete(new Outcome(l, wall, cpu));
                  return;
                }
              }
              found.completeExceptionally(
                  new IOException("ended (exit " + p.waitFor() + ") before printing " + expect));
            } catch (IOException | InterruptedException e) {
              found.completeExceptionally(e);
            }
          });
      try {
        return found.get(Math.max(1, deadline - System.nanoTime()), TimeUnit.NANOSECONDS);
      } catch (ExecutionException e) {
        throw new IOException(cmd.get(cmd.size() - 1) + ": " + e.getCause().getMessage(), e);
      }
    } finally {
      try {
        p.getOutputStream().close();
      } catch (IOException ignored) {
        // gone already
      }
      if (!p.waitFor(selfExitS, TimeUnit.SECONDS)) {
        p.destroy();
        if (!p.waitFor(stopWaitS, TimeUnit.SECONDS)) {
          p.destroyForcibly();
          p.waitFor(5, TimeUnit.SECONDS);
        }
      }
    }
  }
}
