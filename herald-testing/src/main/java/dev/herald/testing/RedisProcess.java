package dev.herald.testing;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.jspecify.annotations.Nullable;

/**
 * A real {@code redis-server} (Debian's package; {@code .ci/run} installs it) listening on
 * 127.0.0.1 on a free port, with no persistence, in its own temporary directory. {@link #stop}
 * kills it hard (like a crash); {@link #start} on the same object brings it back on the same port
 * (a Redis restart). {@link #close} stops it and removes its directory.
 *
 * {@snippet :
 * try (RedisProcess redis = RedisProcess.start()) {
 *   RedisClient client = RedisClient.create(redis.uri());
 * }
 * }
 */
public final class RedisProcess implements AutoCloseable {
  private static final Duration START_TIMEOUT = Duration.ofSeconds(30);

  private final int port;
  private final Path dir;
  private volatile @Nullable Process process;

  private RedisProcess(int port, Path dir) {
    this.port = port;
    this.dir = dir;
  }

  /**
   * Starts a new server on a free port and waits until it answers {@code PING}.
   *
   * @throws IllegalStateException if {@code redis-server} is not installed or does not start
   */
  public static RedisProcess start() {
    try {
      RedisProcess redis = new RedisProcess(freePort(), Files.createTempDirectory("herald-redis"));
      redis.restart();
      return redis;
    } catch (IOException e) {
      throw new IllegalStateException("cannot prepare a redis-server", e);
    }
  }

  /** Whether {@code redis-server} can be run here. */
  public static boolean installed() {
    return executable() != null;
  }

  /** {@code redis://127.0.0.1:<port>}. */
  public String uri() {
    return "redis://127.0.0.1:" + port;
  }

  public int port() {
    return port;
  }

  /** Whether the server process is running. */
  public boolean running() {
    Process p = process;
    return p != null && p.isAlive();
  }

  /** Kills the server at once (SIGKILL: nothing is flushed, like a crash) and waits for its end. */
  public void stop() {
    Process p = process;
    if (p == null) {
      return;
    }
    p.destroyForcibly();
    try {
      p.waitFor(START_TIMEOUT.toSeconds(), TimeUnit.SECONDS);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }

  /**
   * Starts the server again on the same port (empty: there is no persistence) and waits until it
   * answers {@code PING}. Does nothing to a server that runs.
   */
  public void restart() {
    if (running()) {
      return;
    }
    String exe = executable();
    if (exe == null) {
      throw new IllegalStateException(
          "redis-server is not installed (apt-get install redis-server)");
    }
    List<String> cmd = new ArrayList<>();
    cmd.add(exe);
    for (String arg :
        new String[] {
          "--bind", "127.0.0.1",
          "--port", Integer.toString(port),
          "--save", "",
          "--appendonly", "no",
          "--protected-mode", "yes",
          "--dir", dir.toString(),
          "--logfile", dir.resolve("redis.log").toString(),
          "--daemonize", "no"
        }) {
      cmd.add(arg);
    }
    Process started;
    try {
      started =
          new ProcessBuilder(cmd)
              .redirectErrorStream(true)
              .redirectOutput(ProcessBuilder.Redirect.DISCARD)
              .start();
    } catch (IOException e) {
      throw new IllegalStateException("cannot start redis-server", e);
    }
    process = started;
    long deadline = System.nanoTime() + START_TIMEOUT.toNanos();
    while (!pong()) {
      if (!started.isAlive()) {
        throw new IllegalStateException(
            "redis-server exited with "
                + started.exitValue()
                + "; see "
                + dir.resolve("redis.log"));
      }
      if (System.nanoTime() - deadline > 0) {
        stop();
        throw new IllegalStateException("redis-server did not answer PING within " + START_TIMEOUT);
      }
      try {
        Thread.sleep(20); // polling a condition: the server answering PING
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        throw new IllegalStateException("interrupted while starting redis-server", e);
      }
    }
  }

  /** Stops the server and removes its directory. */
  @Override
  public void close() {
    stop();
    try (var files = Files.walk(dir)) {
      files.sorted(java.util.Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
    } catch (IOException e) {
      // best effort: a temporary directory
    }
  }

  private boolean pong() {
    try (Socket s = new Socket()) {
      s.connect(new InetSocketAddress(InetAddress.getLoopbackAddress(), port), 500);
      s.setSoTimeout(1000);
      OutputStream out = s.getOutputStream();
      out.write("PING\r\n".getBytes(StandardCharsets.US_ASCII));
      out.flush();
      InputStream in = s.getInputStream();
      byte[] buf = new byte[16];
      int n = in.read(buf);
      return n > 0 && new String(buf, 0, n, StandardCharsets.US_ASCII).startsWith("+PONG");
    } catch (IOException e) {
      return false;
    }
  }

  private static @Nullable String executable() {
    for (String dir : new String[] {"/usr/bin", "/usr/local/bin", "/usr/sbin"}) {
      Path p = Path.of(dir, "redis-server");
      if (Files.isExecutable(p)) {
        return p.toString();
      }
    }
    return null;
  }

  /** A port that was free a moment ago, on 127.0.0.1. */
  public static int freePort() {
    try (ServerSocket s = new ServerSocket()) {
      s.setReuseAddress(true);
      s.bind(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0));
      return s.getLocalPort();
    } catch (IOException e) {
      throw new IllegalStateException("no free port", e);
    }
  }
}
