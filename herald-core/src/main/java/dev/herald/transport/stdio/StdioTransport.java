package dev.herald.transport.stdio;

import dev.herald.internal.session.LazyLogger;
import dev.herald.transport.Transport;
import dev.herald.transport.TransportException;
import dev.herald.wire.DecodedMessage;
import dev.herald.wire.EncodedMessage;
import dev.herald.wire.ErrorCodes;
import dev.herald.wire.JsonRpcMessage;
import dev.herald.wire.McpJson;
import dev.herald.wire.MessageCodec;
import dev.herald.wire.RequestId;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.util.Objects;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.locks.ReentrantLock;
import org.jspecify.annotations.Nullable;

/**
 * The stdio transport (MCP basic/transports §stdio): one JSON-RPC message per line, UTF-8, no
 * embedded newlines. Works over any pair of streams: a server's {@code System.in}/{@code
 * System.out}, or a subprocess's pipes ({@link SubprocessTransport}).
 *
 * <p>Reading: one platform thread reads lines into a buffer bounded by {@code maxLineBytes}; a
 * longer line is discarded as it streams in (never buffered whole) and reported as an invalid
 * frame, so the session answers it with an error and goes on. Blank lines are skipped; a trailing
 * CR is dropped. End of input is reported to the receiver; the output stays open until
 * {@link #close()}, so requests already read can still be answered.
 *
 * <p>Writing: {@link #send} encodes once and writes the line under a lock, then flushes. Nothing
 * but MCP messages is ever written to the output; Herald logs go to stderr.
 */
public final class StdioTransport implements Transport {
  /** Default longest line accepted: 4 MiB. */
  public static final int DEFAULT_MAX_LINE_BYTES = 4 * 1024 * 1024;

  private static final System.Logger LOG = LazyLogger.of("dev.herald.transport.stdio");

  private final InputStream in;
  private final OutputStream out;
  private final int maxLineBytes;
  private final String name;
  private final @Nullable Runnable onClosed;
  private final ReentrantLock writeLock = new ReentrantLock();
  private final AtomicBoolean started = new AtomicBoolean();
  private final AtomicBoolean closed = new AtomicBoolean();

  /**
   * This process's own stdio server: once its first line (the {@code initialize} answer) is out,
   * the JSON mapper is built on a daemon thread, so the host's next request does not wait for it
   * (nothing before the first answer builds it: docs/benchmarks.md, "Cold start").
   */
  private final boolean warmAfterFirstLine;

  private boolean firstLineOut;
  private volatile @Nullable Receiver receiver;

  private StdioTransport(
      InputStream in,
      OutputStream out,
      int maxLineBytes,
      String name,
      @Nullable Runnable onClosed,
      boolean warmAfterFirstLine) {
    this.in = Objects.requireNonNull(in, "in");
    this.out = Objects.requireNonNull(out, "out");
    if (maxLineBytes < 1024) {
      throw new IllegalArgumentException("maxLineBytes must be at least 1024, was " + maxLineBytes);
    }
    this.maxLineBytes = maxLineBytes;
    this.name = name;
    this.onClosed = onClosed;
    this.warmAfterFirstLine = warmAfterFirstLine;
  }

  /** A transport over the given streams with the default line limit. */
  public static StdioTransport of(InputStream in, OutputStream out) {
    return new StdioTransport(in, out, DEFAULT_MAX_LINE_BYTES, "stdio", null, false);
  }

  /** A transport over the given streams with a line limit. */
  public static StdioTransport of(InputStream in, OutputStream out, int maxLineBytes) {
    return new StdioTransport(in, out, maxLineBytes, "stdio", null, false);
  }

  /** The server side of stdio: this process's standard input and output. */
  public static StdioTransport ofSystem() {
    return new StdioTransport(System.in, System.out, DEFAULT_MAX_LINE_BYTES, "stdio", null, true);
  }

  static StdioTransport forProcess(
      InputStream in, OutputStream out, int maxLineBytes, String name, Runnable onClosed) {
    return new StdioTransport(in, out, maxLineBytes, name, onClosed, false);
  }

  @Override
  public void start(Receiver receiver) {
    if (!started.compareAndSet(false, true)) {
      throw new IllegalStateException("transport already started");
    }
    this.receiver = Objects.requireNonNull(receiver, "receiver");
    Thread reader = new Thread(this::readLoop, "herald-" + name + "-reader");
    reader.setDaemon(true);
    reader.start();
  }

  private void readLoop() {
    Receiver r = Objects.requireNonNull(receiver);
    Throwable failure = null;
    byte[] chunk = new byte[64 * 1024];
    byte[] line = new byte[8 * 1024];
    int len = 0;
    boolean discarding = false;
    try {
      int n;
      while ((n = in.read(chunk)) != -1) {
        int start = 0;
        for (int i = 0; i < n; i++) {
          if (chunk[i] != '\n') {
            continue;
          }
          if (!discarding) {
            int piece = i - start;
            if (len + piece > maxLineBytes) {
              discarding = true;
            } else {
              line = append(line, len, chunk, start, piece);
              len += piece;
              deliver(r, line, len);
            }
          }
          if (discarding) {
            reportOversized(r);
            discarding = false;
          }
          len = 0;
          start = i + 1;
        }
        if (!discarding && start < n) {
          int piece = n - start;
          if (len + piece > maxLineBytes) {
            discarding = true;
            len = 0;
            line = new byte[8 * 1024]; // give the large buffer back
          } else {
            line = append(line, len, chunk, start, piece);
            len += piece;
          }
        }
      }
      if (discarding) {
        reportOversized(r);
      } else if (len > 0) {
        deliver(r, line, len);
      }
    } catch (IOException e) {
      if (!closed.get()) {
        failure = e;
      }
    } catch (RuntimeException | Error e) {
      failure = e;
      LOG.log(System.Logger.Level.ERROR, "stdio reader failed", e);
    }
    // End of input is not the end of output: the session may still answer what it is handling.
    // The session closes the transport (and so the output) when it is done.
    r.onClose(failure);
  }

  private static byte[] append(byte[] line, int len, byte[] src, int from, int count) {
    if (len + count > line.length) {
      int size = Math.max(line.length * 2, len + count);
      line = java.util.Arrays.copyOf(line, size);
    }
    System.arraycopy(src, from, line, len, count);
    return line;
  }

  private void deliver(Receiver r, byte[] line, int len) {
    int end = len;
    if (end > 0 && line[end - 1] == '\r') {
      end--;
    }
    int begin = 0;
    while (begin < end && (line[begin] == ' ' || line[begin] == '\t')) {
      begin++;
    }
    if (begin == end) {
      return;
    }
    r.onFrame(MessageCodec.decode(line, begin, end - begin));
  }

  private void reportOversized(Receiver r) {
    LOG.log(
        System.Logger.Level.WARNING,
        "[{0}] discarded a line longer than {1} bytes",
        name,
        maxLineBytes);
    r.onFrame(
        new DecodedMessage.Invalid(
            null,
            new JsonRpcMessage.ErrorObject(
                ErrorCodes.INVALID_REQUEST,
                "Invalid request: message longer than " + maxLineBytes + " bytes",
                null),
            true));
  }

  @Override
  public void send(JsonRpcMessage message, @Nullable RequestId relatedTo) {
    writeLine(MessageCodec.encode(message));
  }

  /** Writes the shared bytes as they are (encoded once for every session told). */
  @Override
  public void send(EncodedMessage encoded, @Nullable RequestId relatedTo) {
    writeLine(encoded.bytes());
  }

  private void writeLine(byte[] bytes) {
    writeLock.lock();
    try {
      if (closed.get()) {
        throw new TransportException("stdio transport closed");
      }
      out.write(bytes);
      out.write('\n');
      out.flush();
      if (warmAfterFirstLine && !firstLineOut) {
        firstLineOut = true;
        Thread warm = new Thread(McpJson::mapper, "herald-json-warm-up");
        warm.setDaemon(true);
        warm.start();
      }
    } catch (IOException e) {
      closeInternal();
      throw new TransportException("stdio write failed: " + e.getMessage(), e);
    } finally {
      writeLock.unlock();
    }
  }

  @Override
  public void close() {
    closeInternal();
  }

  private void closeInternal() {
    if (!closed.compareAndSet(false, true)) {
      return;
    }
    writeLock.lock();
    try {
      out.flush();
    } catch (IOException ignored) {
      // the peer is gone
    } finally {
      try {
        out.close();
      } catch (IOException ignored) {
        // nothing more to do
      }
      writeLock.unlock();
    }
    if (onClosed != null) {
      onClosed.run();
    }
  }

  public boolean isClosed() {
    return closed.get();
  }
}
