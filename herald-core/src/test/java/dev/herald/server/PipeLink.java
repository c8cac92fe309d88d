package dev.herald.server;

import dev.herald.client.McpClient;
import dev.herald.internal.session.SessionEngine;
import dev.herald.transport.Transport;
import dev.herald.transport.stdio.StdioTransport;
import dev.herald.wire.JsonRpcMessage;
import dev.herald.wire.McpJson;
import dev.herald.wire.McpMethods;
import dev.herald.wire.RequestId;
import java.io.IOException;
import java.io.OutputStream;
import java.io.PipedInputStream;
import java.io.PipedOutputStream;
import java.io.UncheckedIOException;
import java.util.List;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.atomic.AtomicInteger;
import org.jspecify.annotations.Nullable;

/**
 * A server session and a client connected by two in-process pipes, each end a real {@link
 * StdioTransport}. The server's end records every message it sends, so tests can count writes
 * exactly.
 */
final class PipeLink implements AutoCloseable {
  final ServerSession session;
  final McpClient client;
  final Recording sent;

  private PipeLink(ServerSession session, McpClient client, Recording sent) {
    this.session = session;
    this.client = client;
    this.sent = sent;
  }

  /** Connects a client built by {@code client} to {@code server}. */
  static PipeLink connect(McpServer server, McpClient.Builder client) throws InterruptedException {
    Transport[] ends = pair();
    Recording recording = new Recording(ends[0]);
    ServerSession session = server.connect(recording);
    // these tests are about the handshake-era session
    McpClient c = client.eras(dev.herald.client.EraPreference.HANDSHAKE_ONLY).connect(ends[1]);
    c.ping(); // the server has now read notifications/initialized: the session is operating
    return new PipeLink(session, c, recording);
  }

  /** Connects a default client. */
  static PipeLink connect(McpServer server) throws InterruptedException {
    return connect(server, McpClient.builder());
  }

  /** Two connected transports: [server end, client end]. */
  static Transport[] pair() {
    try {
      PipedInputStream serverIn = new PipedInputStream(1 << 20);
      PipedOutputStream clientOut = new PipedOutputStream(serverIn);
      PipedInputStream clientIn = new PipedInputStream(1 << 20);
      PipedOutputStream serverOut = new PipedOutputStream(clientIn);
      return new Transport[] {
        StdioTransport.of(serverIn, new Pumped(serverOut)),
        StdioTransport.of(clientIn, new Pumped(clientOut))
      };
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /**
   * A peer that answers {@code initialize} but never sends {@code notifications/initialized}, so
   * its session stays INITIALIZING. Counts the list changes it receives.
   */
  static RawPeer initializingOnly(McpServer server) throws Exception {
    Transport[] ends = pair();
    Recording recording = new Recording(ends[0]);
    ServerSession session = server.connect(recording);
    AtomicInteger listChanged = new AtomicInteger();
    SessionEngine engine =
        SessionEngine.builder()
            .name("raw")
            .transport(ends[1])
            .requests(call -> McpJson.object())
            .onNotification(McpMethods.TOOLS_LIST_CHANGED, p -> listChanged.incrementAndGet())
            .build();
    engine.start();
    engine
        .request(
            McpMethods.INITIALIZE,
            Json.parse(
                "{'protocolVersion':'2025-11-25','capabilities':{},'clientInfo':{'name':'raw','version':'1'}}"))
        .result()
        .get();
    return new RawPeer(session, engine, recording, listChanged);
  }

  /** A hand-driven peer: its session, its engine, what the server sent it. */
  record RawPeer(
      ServerSession session, SessionEngine engine, Recording sent, AtomicInteger listChanged)
      implements AutoCloseable {
    @Override
    public void close() {
      engine.close();
    }
  }

  /** Methods of the notifications the server sent, in order. */
  List<String> notificationsSent() {
    return sent.messages.stream()
        .filter(m -> m instanceof JsonRpcMessage.Notification)
        .map(m -> ((JsonRpcMessage.Notification) m).method())
        .toList();
  }

  long sentCount(String method) {
    return sent.count(method);
  }

  @Override
  public void close() {
    client.close();
    session.close();
  }

  /** Records what the server sends, then sends it. */
  static final class Recording implements Transport {
    private final Transport delegate;
    final CopyOnWriteArrayList<JsonRpcMessage> messages = new CopyOnWriteArrayList<>();

    /** Notifications with this method sent so far. */
    long count(String method) {
      return messages.stream()
          .filter(m -> m instanceof JsonRpcMessage.Notification n && n.method().equals(method))
          .count();
    }

    Recording(Transport delegate) {
      this.delegate = delegate;
    }

    @Override
    public void start(Receiver receiver) {
      delegate.start(receiver);
    }

    @Override
    public void send(JsonRpcMessage message, @Nullable RequestId relatedTo) {
      delegate.send(message, relatedTo);
      messages.add(message);
    }

    @Override
    public void close() {
      delegate.close();
    }
  }

  /**
   * Writes to a pipe from one long-lived thread. {@link PipedInputStream} declares the pipe
   * broken when the last thread that wrote to it has ended, and Herald writes from short-lived
   * virtual threads; funnelling every write through this pump keeps the writer alive.
   */
  static final class Pumped extends OutputStream {
    private static final byte[] EOF = new byte[0];
    private final BlockingQueue<byte[]> queue = new LinkedBlockingQueue<>();

    Pumped(PipedOutputStream out) {
      Thread t =
          new Thread(
              () -> {
                try {
                  while (true) {
                    byte[] chunk = queue.take();
                    if (chunk == EOF) {
                      break;
                    }
                    out.write(chunk);
                    out.flush();
                  }
                } catch (IOException | InterruptedException e) {
                  // the reader went away: drop the rest
                } finally {
                  try {
                    out.close();
                  } catch (IOException ignored) {
                    // nothing to do
                  }
                }
              },
              "pipe-pump");
      t.setDaemon(true);
      t.start();
    }

    @Override
    public void write(int b) {
      queue.add(new byte[] {(byte) b});
    }

    @Override
    public void write(byte[] b, int off, int len) {
      byte[] copy = new byte[len];
      System.arraycopy(b, off, copy, 0, len);
      queue.add(copy);
    }

    @Override
    public void close() {
      queue.add(EOF);
    }
  }
}
