package dev.herald.server;

import dev.herald.transport.Transport;
import dev.herald.transport.TransportException;
import dev.herald.wire.EncodedMessage;
import dev.herald.wire.JsonRpcMessage;
import dev.herald.wire.RequestId;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import org.jspecify.annotations.Nullable;

/**
 * The server's end of an in-memory wire: records every message the server sends with its {@code
 * relatedTo} (so a test sees which request's stream it would ride on Streamable HTTP), and can hold
 * pre-encoded writes (notifications) back, as a slow reader would, until {@link #release}.
 */
final class RecordingEnd implements Transport {
  /** One message the server sent, and the request it said the message belongs to. */
  record Sent(JsonRpcMessage message, @Nullable RequestId relatedTo) {}

  final List<Sent> sent = new CopyOnWriteArrayList<>();
  private final Transport inner;
  private volatile @Nullable CountDownLatch hold;

  RecordingEnd(Transport inner) {
    this.inner = inner;
  }

  /** From now on every notification write blocks until {@link #release}. */
  void hold() {
    hold = new CountDownLatch(1);
  }

  void release() {
    CountDownLatch h = hold;
    hold = null;
    if (h != null) {
      h.countDown();
    }
  }

  @Override
  public void start(Receiver receiver) {
    inner.start(receiver);
  }

  @Override
  public void send(JsonRpcMessage message, @Nullable RequestId relatedTo) {
    sent.add(new Sent(message, relatedTo));
    inner.send(message, relatedTo);
  }

  @Override
  public void send(EncodedMessage encoded, @Nullable RequestId relatedTo) {
    CountDownLatch h = hold;
    if (h != null) {
      try {
        h.await();
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        throw new TransportException("interrupted while held");
      }
    }
    sent.add(new Sent(encoded.message(), relatedTo));
    inner.send(encoded, relatedTo);
  }

  @Override
  public void close() {
    release();
    inner.close();
  }
}
