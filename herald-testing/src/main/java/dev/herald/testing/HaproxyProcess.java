package dev.herald.testing;

import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * A real HAProxy (Debian's package; {@code .ci/run} installs it) on 127.0.0.1 in front of
 * several HTTP servers on 127.0.0.1: round robin over every request, no stickiness, a health check
 * every 500 ms (a server is out after two failed checks), and a request that found its server gone
 * dispatched again to another. Standing streams may stay idle for ten minutes. Its configuration
 * and log are in its own temporary directory; {@link #close} stops it and removes the directory.
 *
 * {@snippet :
 * try (HaproxyProcess lb = HaproxyProcess.start(lbPort, List.of(port0, port1, port2), 2048)) {
 *   URI mcp = lb.uri("/mcp");
 * }
 * }
 */
public final class HaproxyProcess implements AutoCloseable {
  private static final String EXECUTABLE = "/usr/sbin/haproxy";
  private static final Duration START_TIMEOUT = Duration.ofSeconds(30);

  private final int port;
  private final Path dir;
  private final Process process;

  private HaproxyProcess(int port, Path dir, Process process) {
    this.port = port;
    this.dir = dir;
    this.process = process;
  }

  /** Whether HAProxy can be run here. */
  public static boolean installed() {
    return Files.isExecutable(Path.of(EXECUTABLE));
  }

  /**
   * Starts HAProxy on {@code 127.0.0.1:port} in front of the servers on {@code 127.0.0.1} at
   * {@code backends}, accepting up to {@code maxConnections} client connections at once, and waits
   * until it accepts connections.
   *
   * @throws IllegalStateException if HAProxy is not installed or does not start
   */
  public static HaproxyProcess start(int port, List<Integer> backends, int maxConnections) {
    if (!installed()) {
      throw new IllegalStateException("haproxy is not installed (apt-get install haproxy)");
    }
    try {
      Path dir = Files.createTempDirectory("herald-haproxy");
      StringBuilder cfg =
          new StringBuilder(
              """
              global
                maxconn %d
              defaults
                mode http
                option http-server-close
                timeout connect 5s
                timeout client 120s
                timeout server 120s
                timeout tunnel 10m
                timeout http-request 30s
              frontend mcp
                bind 127.0.0.1:%d
                maxconn %d
                default_backend nodes
              backend nodes
                balance roundrobin
                option redispatch
                retries 3
                default-server check inter 500ms fall 2 rise 2
              """
                  .formatted(maxConnections + 64, port, maxConnections));
      for (int i = 0; i < backends.size(); i++) {
        cfg.append("  server n").append(i).append(" 127.0.0.1:").append(backends.get(i));
        cfg.append('\n');
      }
      Path config = dir.resolve("haproxy.cfg");
      Files.writeString(config, cfg.toString());
      Process p =
          new ProcessBuilder(EXECUTABLE, "-f", config.toString(), "-db")
              .redirectErrorStream(true)
              .redirectOutput(dir.resolve("haproxy.log").toFile())
              .start();
      HaproxyProcess lb = new HaproxyProcess(port, dir, p);
      lb.awaitListening();
      return lb;
    } catch (IOException e) {
      throw new IllegalStateException("cannot start haproxy", e);
    }
  }

  /** {@code http://127.0.0.1:<port><path>}. */
  public URI uri(String path) {
    return URI.create("http://127.0.0.1:" + port + path);
  }

  public int port() {
    return port;
  }

  /** HAProxy's own output (configuration warnings, servers going up and down). */
  public Path log() {
    return dir.resolve("haproxy.log");
  }

  private void awaitListening() {
    long deadline = System.nanoTime() + START_TIMEOUT.toNanos();
    while (!listening()) {
      if (!process.isAlive()) {
        throw new IllegalStateException(
            "haproxy exited with " + process.exitValue() + "; see " + log());
      }
      if (System.nanoTime() - deadline > 0) {
        close();
        throw new IllegalStateException("haproxy did not listen within " + START_TIMEOUT);
      }
      try {
        Thread.sleep(20); // polling a condition: the port accepting connections
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        throw new IllegalStateException("interrupted while starting haproxy", e);
      }
    }
  }

  private boolean listening() {
    try (Socket s = new Socket()) {
      s.connect(new InetSocketAddress(InetAddress.getLoopbackAddress(), port), 500);
      return true;
    } catch (IOException e) {
      return false;
    }
  }

  /** Stops HAProxy and removes its directory. */
  @Override
  public void close() {
    process.destroyForcibly();
    try {
      process.waitFor(START_TIMEOUT.toSeconds(), TimeUnit.SECONDS);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
    try (var files = Files.walk(dir)) {
      files.sorted(java.util.Comparator.reverseOrder()).forEach(f -> f.toFile().delete());
    } catch (IOException e) {
      // best effort: a temporary directory
    }
  }
}
