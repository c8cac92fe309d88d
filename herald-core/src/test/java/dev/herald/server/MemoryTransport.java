package dev.herald.server;

import dev.herald.transport.Transport;
import dev.herald.transport.TransportException;
import dev.herald.wire.DecodedMessage;
import dev.herald.wire.EncodedMessage;
import dev.herald.wire.JsonRpcMessage;
import dev.herald.wire.MessageCodec;
import dev.herald.wire.RequestId;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.atomic.AtomicBoolean;
import org.jspecify.annotations.Nullable;

/**
 * One end of an in-memory connection: every message is encoded to bytes and decoded again on the
 * other side (as on a real wire), delivered in order by one reader thread, and recorded. Closing
 * either end ends both.
 */
final class MemoryTransport implements Transport {
  private static final byte[] EOF = new byte[0];

  private final String name;
  private final LinkedBlockingQueue<byte[]> inbox = new LinkedBlockingQueue<>();
  private final AtomicBoolean closed = new AtomicBoolean();
  private @Nullable MemoryTransport peer;

  /** The shared bytes of every pre-encoded message this end sent, in send order (identity matters). */
  final List<byte[]> sentEncoded = new CopyOnWriteArrayList<>();

  /** Every message this end received, in arrival order. */
  final List<JsonRpcMessage> received = new CopyOnWriteArrayList<>();

  private MemoryTransport(String name) {
    this.name = name;
  }

  /** A connected pair: [0] for the client, [1] for the server. */
  static MemoryTransport[] pair() {
    MemoryTransport a = new MemoryTransport("client");
    MemoryTransport b = new MemoryTransport("server");
    a.peer = b;
    b.peer = a;
    return new MemoryTransport[] {a, b};
  }

  /** The other end of the pair. */
  MemoryTransport peer() {
    return java.util.Objects.requireNonNull(peer);
  }

  @Override
  public void start(Receiver receiver) {
    Thread.ofPlatform()
        .daemon()
        .name("memory-" + name)
        .start(() -> {
          try {
            while (true) {
              byte[] bytes = inbox.take();
              if (bytes == EOF) {
                break;
              }
              DecodedMessage frame = MessageCodec.decode(bytes);
              if (frame instanceof DecodedMessage.Valid v) {
                received.add(v.message());
              }
              receiver.onFrame(frame);
            }
          } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
          }
          receiver.onClose(null);
        });
  }

  @Override
  public void send(JsonRpcMessage message, @Nullable RequestId relatedTo) {
    if (closed.get()) {
      throw new TransportException(name + " transport closed");
    }
    peer.inbox.add(MessageCodec.encode(message));
  }

  @Override
  public void send(EncodedMessage encoded, @Nullable RequestId relatedTo) {
    if (closed.get()) {
      throw new TransportException(name + " transport closed");
    }
    sentEncoded.add(encoded.bytes());
    peer.inbox.add(encoded.bytes());
  }

  @Override
  public void close() {
    if (closed.compareAndSet(false, true)) {
      inbox.add(EOF);
      peer.closed.set(true);
      peer.inbox.add(EOF);
    }
  }

  /** The notifications received with this method, in order. */
  List<JsonRpcMessage.Notification> notifications(String method) {
    return received.stream()
        .filter(m -> m instanceof JsonRpcMessage.Notification n && n.method().equals(method))
        .map(m -> (JsonRpcMessage.Notification) m)
        .toList();
  }

  /** The requests received with this method, in order. */
  List<JsonRpcMessage.Request> requests(String method) {
    return received.stream()
        .filter(m -> m instanceof JsonRpcMessage.Request r && r.method().equals(method))
        .map(m -> (JsonRpcMessage.Request) m)
        .toList();
  }
}
