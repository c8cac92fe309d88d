package dev.herald.cli;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.TimeUnit;
import java.util.function.Predicate;
import java.util.stream.Collectors;

/**
 * A real pseudo-terminal: a detached tmux session of fixed size on a private server socket,
 * running one command under bash, which then prints {@code EXIT=<code>}. bash traps SIGINT with a
 * handler (not an ignore, which children would inherit), so Ctrl-C reaches the command while the
 * shell survives to report the exit code.
 */
final class Tmux implements AutoCloseable {
  static final String TMUX = "/usr/bin/tmux";
  private final String socket = "herald-it-" + UUID.randomUUID().toString().substring(0, 8);
  private final Path script;

  Tmux(List<String> command) throws IOException, InterruptedException {
    script = Files.createTempFile("herald-tmux", ".sh");
    String line = command.stream().map(Tmux::quote).collect(Collectors.joining(" "));
    Files.writeString(
        script, "trap : INT\n" + line + "\necho \"EXIT=$?\"\nsleep 60\n", StandardCharsets.UTF_8);
    tmux("new-session", "-d", "-s", "t", "-x", "120", "-y", "30", "bash --norc " + script);
  }

  static boolean available() {
    return Files.isExecutable(Path.of(TMUX));
  }

  /** The visible screen, trailing blank lines removed. */
  String capture() throws IOException, InterruptedException {
    return tmux("capture-pane", "-p", "-t", "t").stripTrailing();
  }

  void sendKeys(String keys) throws IOException, InterruptedException {
    tmux("send-keys", "-t", "t", keys);
  }

  /** Captures every {@code pollMs} until {@code done} holds for a capture, at most {@code timeoutMs}; returns all captures. */
  List<String> captureUntil(Predicate<String> done, long pollMs, long timeoutMs)
      throws IOException, InterruptedException {
    List<String> captures = new java.util.ArrayList<>();
    long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(timeoutMs);
    while (System.nanoTime() < deadline) {
      String screen = capture();
      captures.add(screen);
      if (done.test(screen)) {
        return captures;
      }
      Thread.sleep(pollMs);
    }
    throw new AssertionError(
        "the terminal never showed what was expected; last screen:\n"
            + (captures.isEmpty() ? "" : captures.get(captures.size() - 1)));
  }

  private String tmux(String... args) throws IOException, InterruptedException {
    List<String> cmd = new java.util.ArrayList<>(List.of(TMUX, "-L", socket));
    cmd.addAll(List.of(args));
    Process p = new ProcessBuilder(cmd).redirectErrorStream(true).start();
    String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    if (!p.waitFor(10, TimeUnit.SECONDS) || p.exitValue() != 0) {
      throw new IOException("tmux " + String.join(" ", args) + " failed: " + out);
    }
    return out;
  }

  private static String quote(String s) {
    return "'" + s.replace("'", "'\\''") + "'";
  }

  @Override
  public void close() throws Exception {
    try {
      tmux("kill-server");
    } catch (IOException alreadyGone) {
      // the session ended on its own
    }
    Files.deleteIfExists(script);
  }
}
