package dev.herald.interop;

import dev.herald.testing.HeraldJar;
import dev.herald.transport.stdio.SubprocessTransport;
import java.io.File;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;

/**
 * The official Java SDK 2.2.0's 2026-07-28 peers ({@code io.modelcontextprotocol.modern}) from the
 * module {@code herald-interop-jsdk22}, each in a JVM of its own: this module's tests hold the SDK
 * 2.1.0 on their classpath, and two versions of one artifact cannot share one. The build copies
 * that module's runtime classpath to its {@code target/lib}.
 */
final class Jsdk22Peer {
  private Jsdk22Peer() {}

  static Path target() {
    return Path.of(System.getProperty("herald.interop.jsdk22", "../herald-interop-jsdk22/target"))
        .toAbsolutePath()
        .normalize();
  }

  static String classpath() {
    Path target = target();
    List<String> cp = new ArrayList<>();
    try (Stream<Path> own = Files.list(target);
        Stream<Path> lib = Files.list(target.resolve("lib"))) {
      own.filter(p -> p.getFileName().toString().matches("herald-interop-jsdk22-.*\\.jar"))
          .forEach(p -> cp.add(p.toString()));
      lib.filter(p -> p.toString().endsWith(".jar")).sorted().forEach(p -> cp.add(p.toString()));
    } catch (IOException e) {
      throw new UncheckedIOException(
          "herald-interop-jsdk22 not built in " + target + " (run through Maven verify)", e);
    }
    if (cp.size() < 2) {
      throw new IllegalStateException("herald-interop-jsdk22 not packaged in " + target);
    }
    return String.join(File.pathSeparator, cp);
  }

  /** {@code java -cp <peer classpath> dev.herald.interop.jsdk22.<main> args...}. */
  static List<String> command(String main, List<String> args) {
    List<String> cmd =
        new ArrayList<>(
            List.of(
                HeraldJar.java(),
                "-XX:+UseSerialGC",
                "-XX:TieredStopAtLevel=1",
                "-cp",
                classpath(),
                "dev.herald.interop.jsdk22." + main));
    cmd.addAll(args);
    return cmd;
  }

  static PeerProcess.HttpServer httpServer() throws Exception {
    return PeerProcess.httpServer(
        "jsdk22-http", command("ModernServerMain", List.of("--http", "0")), target());
  }

  static SubprocessTransport stdioServer() {
    return SubprocessTransport.builder(command("ModernServerMain", List.of()))
        .stderr(line -> System.err.println("[jsdk22-server] " + line))
        .build();
  }

  /** Runs the SDK's modern client script against {@code target} (a URL, or {@code --} and a command). */
  static tools.jackson.databind.JsonNode runClient(List<String> target) throws Exception {
    return PeerProcess.runClient(command("ModernClientMain", target), target());
  }
}
