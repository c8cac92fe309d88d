package dev.herald.transport;

import dev.herald.wire.EncodedMessage;
import dev.herald.wire.JsonRpcMessage;
import dev.herald.wire.MessageCodec;
import dev.herald.wire.RequestId;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.atomic.AtomicBoolean;
import org.jspecify.annotations.Nullable;

/**
 * One end of a connected pair of in-process transports, for tests that need no socket.
 *
 * <p>Every message goes through the real codec: {@link #send} encodes it with {@link
 * MessageCodec#encode} and the other end decodes the bytes with {@link MessageCodec#decode}, so
 * a test exercises exactly what a byte stream would carry. Each end also records what it sent, as
 * encoded strings ({@link #sent()}), and accepts raw frames as if the peer had sent them ({@link
 * #inject(String)}), for assertions on the wire and for malformed-input tests.
 *
 * {@snippet :
 * InMemoryTransport.Pair pair = InMemoryTransport.pair();
 * ServerSession session = server.connect(pair.server());       // server: an McpServer
 * try (McpClient client = McpClient.builder().connect(pair.client())) {
 *   client.callTool("echo", arguments);
 *   pair.server().inject("{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":}"); // a broken frame for the server
 *   List<String> wire = pair.server().sent();                       // what the server answered
 * }
 * }
 *
 * <p>Threading: each end has one reader, a daemon platform thread started by {@link #start}, that
 * drains a queue and calls the {@link Transport.Receiver} one frame at a time, in arrival order.
 * {@link #send} and {@link #inject} may be called from any thread; frames from one thread arrive
 * in the order sent.
 *
 * <p>Closing: {@link #close()} on either end closes both. The end that was closed drops the frames
 * it had not yet read; the other end still reads what was sent before the close. Each end's
 * receiver then gets {@code onClose(null)} exactly once (if it was started). After the close,
 * {@link #send} and {@link #inject} throw {@link TransportException}.
 *
 * <p>The record of sent frames grows without bound: this transport is for tests, not traffic.
 */
public final class InMemoryTransport implements Transport {
  private static final Object END = new Object();

  private final String name;
  private final LinkedBlockingQueue<Object> inbox = new LinkedBlockingQueue<>();
  private final CopyOnWriteArrayList<String> sent = new CopyOnWriteArrayList<>();
  private final AtomicBoolean started = new AtomicBoolean();
  private final AtomicBoolean closed = new AtomicBoolean();
  private @Nullable InMemoryTransport peer; // set once by pair(), before either end is shared

  /** The two connected ends. Which one plays which role is up to the test. */
  public record Pair(InMemoryTransport client, InMemoryTransport server) {}

  private InMemoryTransport(String name) {
    this.name = name;
  }

  /** Creates two connected ends: what one sends, the other reads. */
  public static Pair pair() {
    InMemoryTransport client = new InMemoryTransport("client");
    InMemoryTransport server = new InMemoryTransport("server");
    client.peer = server;
    server.peer = client;
    return new Pair(client, server);
  }

  /**
   * Starts this end's reader thread.
   *
   * @throws IllegalStateException if already started
   */
  @Override
  public void start(Receiver receiver) {
    Objects.requireNonNull(receiver, "receiver");
    if (!started.compareAndSet(false, true)) {
      throw new IllegalStateException("transport already started");
    }
    Thread.ofPlatform().daemon().name("herald-in-memory-" + name).start(() -> read(receiver));
  }

  private void read(Receiver receiver) {
    while (true) {
      Object next;
      try {
        next = inbox.take();
      } catch (InterruptedException e) {
        receiver.onClose(e);
        return;
      }
      if (next == END) {
        receiver.onClose(null);
        return;
      }
      try {
        receiver.onFrame(MessageCodec.decode((byte[]) next));
      } catch (RuntimeException e) {
        System.getLogger("dev.herald.transport")
            .log(System.Logger.Level.WARNING, "in-memory receiver failed on a frame", e);
      }
    }
  }

  /**
   * Encodes {@code message}, records it, and queues the bytes for the other end.
   *
   * @throws TransportException if the pair is closed
   */
  @Override
  public void send(JsonRpcMessage message, @Nullable RequestId relatedTo) {
    Objects.requireNonNull(message, "message");
    if (closed.get()) {
      throw new TransportException("in-memory transport closed");
    }
    push(MessageCodec.encode(message));
  }

  /** Records and queues the pre-encoded bytes (the peer only reads them). */
  @Override
  public void send(EncodedMessage encoded, @Nullable RequestId relatedTo) {
    Objects.requireNonNull(encoded, "encoded");
    if (closed.get()) {
      throw new TransportException("in-memory transport closed");
    }
    push(encoded.bytes());
  }

  private void push(byte[] bytes) {
    sent.add(new String(bytes, StandardCharsets.UTF_8));
    peer().inbox.add(bytes);
  }

  /**
   * Queues a raw frame for this end to read, as if the peer had sent it. It is decoded like any
   * other frame, so malformed JSON reaches the receiver as {@code DecodedMessage.Invalid}.
   *
   * @throws TransportException if the pair is closed
   */
  public void inject(byte[] frame) {
    Objects.requireNonNull(frame, "frame");
    if (closed.get()) {
      throw new TransportException("in-memory transport closed");
    }
    inbox.add(frame.clone());
  }

  /** Same as {@link #inject(byte[])} with the UTF-8 bytes of {@code frame}. */
  public void inject(String frame) {
    inject(frame.getBytes(StandardCharsets.UTF_8));
  }

  /** What this end has sent so far, encoded, in send order. A snapshot. */
  public List<String> sent() {
    return List.copyOf(sent);
  }

  /** Forgets what this end has sent so far. */
  public void clearSent() {
    sent.clear();
  }

  public boolean isClosed() {
    return closed.get();
  }

  /** Closes both ends. Idempotent. */
  @Override
  public void close() {
    shutdown(true);
  }

  private void shutdown(boolean local) {
    if (!closed.compareAndSet(false, true)) {
      return;
    }
    if (local) {
      inbox.clear();
    }
    inbox.add(END);
    peer().shutdown(false);
  }

  private InMemoryTransport peer() {
    return Objects.requireNonNull(peer, "unpaired transport");
  }

  @Override
  public String toString() {
    return "InMemoryTransport[" + name + (closed.get() ? ", closed" : "") + "]";
  }
}
