package dev.herald.transport.stdio;

import dev.herald.internal.session.LazyLogger;
import dev.herald.transport.Transport;
import dev.herald.transport.TransportException;
import dev.herald.wire.EncodedMessage;
import dev.herald.wire.JsonRpcMessage;
import dev.herald.wire.RequestId;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.Consumer;
import org.jspecify.annotations.Nullable;

/**
 * The client side of stdio: starts the server as a subprocess and speaks MCP over its stdin and
 * stdout. The server's stderr is read line by line and handed to a consumer (by default Herald's
 * debug log); it is never treated as an error signal.
 *
 * <p>Closing follows the spec's shutdown order: close the server's stdin, wait for it to exit,
 * then SIGTERM, then SIGKILL, each after a grace period.
 *
 * {@snippet :
 * Transport transport = SubprocessTransport.builder("java", "-jar", "server.jar").build();
 * }
 */
public final class SubprocessTransport implements Transport {
  private static final System.Logger LOG = LazyLogger.of("dev.herald.transport.stdio");

  private final List<String> command;
  private final Map<String, String> environment;
  private final @Nullable Path directory;
  private final Consumer<String> stderr;
  private final Duration grace;
  private final int maxLineBytes;
  private final AtomicBoolean closed = new AtomicBoolean();
  private @Nullable Process process;
  private @Nullable StdioTransport stdio;

  private SubprocessTransport(Builder b) {
    this.command = List.copyOf(b.command);
    this.environment = Map.copyOf(b.environment);
    this.directory = b.directory;
    this.stderr = b.stderr;
    this.grace = b.grace;
    this.maxLineBytes = b.maxLineBytes;
  }

  /**
   * A builder for a server started with {@code command} (the program, then its arguments).
   *
   * @throws IllegalArgumentException if no program is named
   */
  public static Builder builder(String... command) {
    return new Builder(List.of(command));
  }

  /**
   * A builder for a server started with {@code command} (the program, then its arguments).
   *
   * @throws IllegalArgumentException if no program is named
   */
  public static Builder builder(List<String> command) {
    return new Builder(command);
  }

  /**
   * Starts the subprocess and begins reading its stdout.
   *
   * @throws TransportException when the command cannot be started
   */
  @Override
  public void start(Receiver receiver) {
    ProcessBuilder pb = new ProcessBuilder(command);
    pb.environment().putAll(environment);
    if (directory != null) {
      pb.directory(directory.toFile());
    }
    pb.redirectError(ProcessBuilder.Redirect.PIPE);
    Process p;
    try {
      p = pb.start();
    } catch (IOException e) {
      throw new TransportException("cannot start " + command.get(0) + ": " + e.getMessage(), e);
    }
    this.process = p;
    Thread.ofVirtual().name("herald-subprocess-stderr").start(() -> drainStderr(p));
    StdioTransport t =
        StdioTransport.forProcess(
            p.getInputStream(), p.getOutputStream(), maxLineBytes, "subprocess", () -> {});
    this.stdio = t;
    t.start(receiver);
  }

  private void drainStderr(Process p) {
    try (BufferedReader r =
        new BufferedReader(new InputStreamReader(p.getErrorStream(), StandardCharsets.UTF_8))) {
      String line;
      while ((line = r.readLine()) != null) {
        try {
          stderr.accept(line);
        } catch (RuntimeException e) {
          LOG.log(System.Logger.Level.DEBUG, "stderr consumer failed: {0}", e.getMessage());
        }
      }
    } catch (IOException ignored) {
      // the process is gone
    }
  }

  @Override
  public void send(JsonRpcMessage message, @Nullable RequestId relatedTo) {
    StdioTransport t = stdio;
    if (t == null) {
      throw new TransportException("subprocess not started");
    }
    t.send(message, relatedTo);
  }

  @Override
  public void send(EncodedMessage encoded, @Nullable RequestId relatedTo) {
    StdioTransport t = stdio;
    if (t == null) {
      throw new TransportException("subprocess not started");
    }
    t.send(encoded, relatedTo);
  }

  /** The subprocess, once started. */
  public @Nullable Process process() {
    return process;
  }

  /** Closes stdin, then SIGTERM, then SIGKILL, waiting {@code grace} between steps. Idempotent. */
  @Override
  public void close() {
    if (!closed.compareAndSet(false, true)) {
      return;
    }
    StdioTransport t = stdio;
    if (t != null) {
      t.close();
    }
    Process p = process;
    if (p == null) {
      return;
    }
    try {
      if (!p.waitFor(grace.toMillis(), TimeUnit.MILLISECONDS)) {
        p.destroy();
        if (!p.waitFor(grace.toMillis(), TimeUnit.MILLISECONDS)) {
          p.destroyForcibly();
          p.waitFor(grace.toMillis(), TimeUnit.MILLISECONDS);
        }
      }
    } catch (InterruptedException e) {
      p.destroyForcibly();
      Thread.currentThread().interrupt();
    }
  }

  /** Builds a {@link SubprocessTransport}. */
  public static final class Builder {
    private final List<String> command;
    private final Map<String, String> environment = new HashMap<>();
    private @Nullable Path directory;
    private Consumer<String> stderr =
        line -> LOG.log(System.Logger.Level.DEBUG, "[server stderr] {0}", line);
    private Duration grace = Duration.ofSeconds(2);
    private int maxLineBytes = StdioTransport.DEFAULT_MAX_LINE_BYTES;

    private Builder(List<String> command) {
      if (command == null || command.isEmpty() || command.get(0).isBlank()) {
        throw new IllegalArgumentException("command must name a program");
      }
      this.command = new ArrayList<>(command);
    }

    /**
     * An environment variable for the server, added to (or replacing one of) the variables this
     * process has (default: this process's environment unchanged).
     *
     * @throws NullPointerException if {@code key} or {@code value} is null
     */
    public Builder environment(String key, String value) {
      environment.put(Objects.requireNonNull(key), Objects.requireNonNull(value));
      return this;
    }

    /**
     * The server's working directory (default: this process's; {@code null} restores it). A
     * directory that does not exist makes {@link SubprocessTransport#start} fail.
     */
    public Builder directory(Path dir) {
      this.directory = dir;
      return this;
    }

    /** Where the server's stderr lines go (default: Herald's debug log). */
    public Builder stderr(Consumer<String> consumer) {
      this.stderr = Objects.requireNonNull(consumer);
      return this;
    }

    /** How long to wait at each shutdown step (default 2 s). */
    public Builder grace(Duration grace) {
      if (grace.isNegative()) {
        throw new IllegalArgumentException("grace must not be negative");
      }
      this.grace = grace;
      return this;
    }

    /**
     * The longest line accepted from the server's stdout, in bytes (default 4 MiB, {@link
     * StdioTransport#DEFAULT_MAX_LINE_BYTES}). A longer line is discarded as it streams in, never
     * buffered whole, and reported as an invalid message; the session goes on.
     *
     * <p>Checked when the transport starts: below 1024, {@link SubprocessTransport#start} throws
     * {@link IllegalArgumentException}.
     */
    public Builder maxLineBytes(int max) {
      this.maxLineBytes = max;
      return this;
    }

    /** The transport; the server is started by {@link SubprocessTransport#start}. */
    public SubprocessTransport build() {
      return new SubprocessTransport(this);
    }
  }
}
