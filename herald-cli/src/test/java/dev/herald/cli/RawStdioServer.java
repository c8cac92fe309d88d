package dev.herald.cli;

import dev.herald.testing.HeraldJar;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;

/**
 * {@code herald serve --stdio} as a real subprocess driven line by line, for tests that write raw
 * JSON-RPC: what it writes to stdout arrives in {@link #lines()} as it comes, its stderr is kept
 * whole in {@link #stderr()}. {@link #close()} closes stdin, waits for the exit, and kills the
 * process if it does not go.
 */
final class RawStdioServer implements AutoCloseable {
  private final Process process;
  private final OutputStream stdin;
  private final BlockingQueue<String> lines = new LinkedBlockingQueue<>();
  private final StringBuffer stderr = new StringBuffer();

  private RawStdioServer(Process process) {
    this.process = process;
    this.stdin = process.getOutputStream();
  }

  /** Starts the server with these JVM arguments (a heap cap, say). */
  static RawStdioServer start(List<String> jvmArgs) throws IOException {
    RawStdioServer s =
        new RawStdioServer(
            new ProcessBuilder(HeraldJar.command(jvmArgs, "serve", "--stdio")).start());
    Thread.ofVirtual().start(s::readStdout);
    Thread.ofVirtual().start(s::readStderr);
    return s;
  }

  private void readStdout() {
    try (BufferedReader r =
        new BufferedReader(
            new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8))) {
      String line;
      while ((line = r.readLine()) != null) {
        lines.add(line);
      }
    } catch (IOException ignored) {
      // process gone
    }
  }

  private void readStderr() {
    try {
      stderr.append(new String(process.getErrorStream().readAllBytes(), StandardCharsets.UTF_8));
    } catch (IOException ignored) {
      // process gone
    }
  }

  Process process() {
    return process;
  }

  OutputStream stdin() {
    return stdin;
  }

  /** The lines the server wrote to stdout, in order, as they arrive. */
  BlockingQueue<String> lines() {
    return lines;
  }

  /** Everything the server wrote to stderr so far. */
  StringBuffer stderr() {
    return stderr;
  }

  /** Writes one line (a JSON-RPC message) to the server's stdin. */
  void send(String line) throws IOException {
    stdin.write((line + "\n").getBytes(StandardCharsets.UTF_8));
    stdin.flush();
  }

  @Override
  public void close() throws InterruptedException {
    if (process.isAlive()) {
      try {
        stdin.close();
      } catch (IOException ignored) {
        // already closed by the test
      }
      if (!process.waitFor(10, TimeUnit.SECONDS)) {
        process.destroyForcibly();
      }
    }
  }
}
