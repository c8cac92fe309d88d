package dev.herald.interop;

import static org.assertj.core.api.Assertions.assertThat;

import dev.herald.wire.McpJson;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import tools.jackson.databind.JsonNode;

/**
 * A peer run as a subprocess: an HTTP server that prints {@code listening on PORT} to stderr and
 * stops when its stdin closes (or is destroyed), or a client script that prints one JSON report.
 */
final class PeerProcess {
  private PeerProcess() {}

  /** A peer's Streamable HTTP server on 127.0.0.1: the subprocess and its endpoint. */
  record HttpServer(Process process, URI uri) implements AutoCloseable {
    @Override
    public void close() throws InterruptedException {
      try {
        process.getOutputStream().close();
      } catch (IOException ignored) {
        // the process is gone already
      }
      if (!process.waitFor(3, TimeUnit.SECONDS)) {
        process.destroy();
        if (!process.waitFor(5, TimeUnit.SECONDS)) {
          process.destroyForcibly();
        }
      }
    }
  }

  /** Starts {@code command} (which ends in {@code --http 0}) and waits for its port. */
  static HttpServer httpServer(String name, List<String> command, Path dir) throws IOException {
    Process p = new ProcessBuilder(command).directory(dir.toFile()).start();
    BufferedReader err =
        new BufferedReader(new InputStreamReader(p.getErrorStream(), StandardCharsets.UTF_8));
    String line = err.readLine();
    while (line != null && !line.startsWith("listening on ")) {
      System.err.println("[" + name + "] " + line);
      line = err.readLine();
    }
    if (line == null) {
      p.destroyForcibly();
      throw new IllegalStateException(name + " HTTP server did not start");
    }
    Thread.ofVirtual()
        .start(() -> err.lines().forEach(l -> System.err.println("[" + name + "] " + l)));
    String port = line.substring("listening on ".length()).trim();
    return new HttpServer(p, URI.create("http://127.0.0.1:" + port + "/mcp"));
  }

  /** Runs a peer client script to its end and returns the JSON report on its last stdout line. */
  static JsonNode runClient(List<String> command, Path dir) throws Exception {
    Process p =
        new ProcessBuilder(command)
            .directory(dir.toFile())
            .redirectError(ProcessBuilder.Redirect.INHERIT)
            .start();
    byte[] out = p.getInputStream().readAllBytes();
    assertThat(p.waitFor(60, TimeUnit.SECONDS)).as("the peer client ended").isTrue();
    String text = new String(out, StandardCharsets.UTF_8).trim();
    assertThat(text).as("the peer client's report").isNotEmpty();
    return McpJson.mapper().readTree(text.substring(text.lastIndexOf('\n') + 1));
  }
}
