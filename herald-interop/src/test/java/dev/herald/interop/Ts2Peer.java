package dev.herald.interop;

import dev.herald.transport.stdio.SubprocessTransport;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * The TypeScript SDK v2 (2.4.0, the 2026-07-28 era) peer scripts in {@code interop/ts2}, installed
 * by {@code scripts/test}: {@code server.mjs} (stdio, or Streamable HTTP with {@code --http}) and
 * {@code client.mjs} (a fixed script over the demo fixture's names).
 */
final class Ts2Peer {
  private Ts2Peer() {}

  static Path dir() {
    Path dir =
        Path.of(System.getProperty("herald.interop.ts2", "../interop/ts2"))
            .toAbsolutePath()
            .normalize();
    if (!Files.isDirectory(dir.resolve("node_modules/@modelcontextprotocol/server"))
        || !Files.isDirectory(dir.resolve("node_modules/@modelcontextprotocol/client"))) {
      throw new IllegalStateException(
          "TypeScript SDK v2 not installed in "
              + dir
              + ": run `npm ci --prefix interop/ts2` (scripts/test does)");
    }
    return dir;
  }

  /**
   * The {@code node} to run the v2 SDK with: {@code -Dherald.interop.node} if set, else the Node 22
   * pinned in {@code interop/conformance} (installed by {@code npm ci --prefix interop/conformance})
   * when present, else {@code node} on the PATH (a fresh machine's distribution node may be older
   * than the SDK supports).
   */
  static String node() {
    String configured = System.getProperty("herald.interop.node");
    if (configured != null && !configured.isBlank()) {
      return configured;
    }
    Path pinned =
        Path.of(
                System.getProperty("herald.interop.conformance", "../interop/conformance"),
                "node_modules",
                ".bin",
                "node")
            .toAbsolutePath()
            .normalize();
    return Files.isExecutable(pinned) ? pinned.toString() : "node";
  }

  static PeerProcess.HttpServer httpServer() throws Exception {
    Path dir = dir();
    return PeerProcess.httpServer(
        "ts2-http", List.of(node(), dir.resolve("server.mjs").toString(), "--http", "0"), dir);
  }

  static SubprocessTransport stdioServer() {
    Path dir = dir();
    return SubprocessTransport.builder(node(), dir.resolve("server.mjs").toString())
        .directory(dir)
        .stderr(line -> System.err.println("[ts2-server] " + line))
        .build();
  }

  /** Runs {@code client.mjs --era <era>} against {@code target} (a URL, or {@code --} and a command). */
  static tools.jackson.databind.JsonNode runClient(String era, List<String> target)
      throws Exception {
    Path dir = dir();
    List<String> cmd =
        new ArrayList<>(List.of(node(), dir.resolve("client.mjs").toString(), "--era", era));
    cmd.addAll(target);
    return PeerProcess.runClient(cmd, dir);
  }
}
