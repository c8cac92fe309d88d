package dev.herald.interop;

import dev.herald.transport.stdio.SubprocessTransport;
import java.nio.file.Files;
import java.nio.file.Path;

/** The TypeScript SDK peer scripts in {@code interop/ts}, installed by {@code scripts/test}. */
final class TsPeer {
  private TsPeer() {}

  static Path dir() {
    Path dir =
        Path.of(System.getProperty("herald.interop.ts", "../interop/ts"))
            .toAbsolutePath()
            .normalize();
    if (!Files.isDirectory(dir.resolve("node_modules/@modelcontextprotocol/sdk"))) {
      throw new IllegalStateException(
          "TypeScript SDK not installed in "
              + dir
              + ": run `npm ci --prefix interop/ts` (scripts/test does)");
    }
    return dir;
  }

  /** The TypeScript server over Streamable HTTP on 127.0.0.1: a subprocess and its URL. */
  record HttpServer(Process process, java.net.URI uri) implements AutoCloseable {
    @Override
    public void close() throws InterruptedException {
      process.destroy();
      if (!process.waitFor(5, java.util.concurrent.TimeUnit.SECONDS)) {
        process.destroyForcibly();
      }
    }
  }

  static HttpServer httpServer() throws Exception {
    Path dir = dir();
    Process p =
        new ProcessBuilder("node", dir.resolve("server.mjs").toString(), "--http", "0")
            .directory(dir.toFile())
            .start();
    var err =
        new java.io.BufferedReader(
            new java.io.InputStreamReader(
                p.getErrorStream(), java.nio.charset.StandardCharsets.UTF_8));
    String line = err.readLine();
    if (line == null || !line.startsWith("listening on ")) {
      p.destroyForcibly();
      throw new IllegalStateException("TypeScript HTTP server did not start: " + line);
    }
    Thread.ofVirtual().start(() -> err.lines().forEach(l -> System.err.println("[ts-http] " + l)));
    return new HttpServer(
        p,
        java.net.URI.create(
            "http://127.0.0.1:" + line.substring("listening on ".length()).trim() + "/mcp"));
  }

  /** The TypeScript server over stdio, as a subprocess. */
  static SubprocessTransport stdioServer() {
    Path dir = dir();
    return SubprocessTransport.builder("node", dir.resolve("server.mjs").toString())
        .directory(dir)
        .stderr(line -> System.err.println("[ts-server] " + line))
        .build();
  }
}
