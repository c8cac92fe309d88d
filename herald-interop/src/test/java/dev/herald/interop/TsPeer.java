package dev.herald.interop;

import dev.herald.transport.stdio.SubprocessTransport;
import java.nio.file.Files;
import java.nio.file.Path;

/** The TypeScript SDK peer scripts in {@code interop/ts}, installed by {@code scripts/test}. */
final class TsPeer {
  private TsPeer() {}

  static Path dir() {
    Path dir = Path.of(System.getProperty("herald.interop.ts", "../interop/ts")).toAbsolutePath().normalize();
    if (!Files.isDirectory(dir.resolve("node_modules/@modelcontextprotocol/sdk"))) {
      throw new IllegalStateException("TypeScript SDK not installed in " + dir + ": run `npm ci --prefix interop/ts` (scripts/test does)");
    }
    return dir;
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
