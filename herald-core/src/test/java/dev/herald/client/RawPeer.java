package dev.herald.client;

import dev.herald.transport.InMemoryTransport;
import dev.herald.transport.Transport;
import dev.herald.wire.DecodedMessage;
import dev.herald.wire.JsonRpcMessage;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import org.jspecify.annotations.Nullable;

/**
 * A raw peer on the server end of an in-memory pair, for client tests: it records every message it
 * receives and answers each request with what {@link #answer} returns (nothing for {@code null}).
 */
abstract class RawPeer implements Transport.Receiver {
  final InMemoryTransport.Pair wire = InMemoryTransport.pair();
  final List<JsonRpcMessage> received = new CopyOnWriteArrayList<>();

  /** Starts reading the server end; a subclass calls it last in its constructor. */
  final void start() {
    wire.server().start(this);
  }

  /** The end the client connects to. */
  final InMemoryTransport clientEnd() {
    return wire.client();
  }

  final void send(JsonRpcMessage message) {
    wire.server().send(message, null);
  }

  /** The answer to {@code request}; {@code null}: no answer. */
  abstract @Nullable JsonRpcMessage answer(JsonRpcMessage.Request request);

  /** The requests received with this method, in order. */
  final List<JsonRpcMessage.Request> requests(String method) {
    return received.stream()
        .filter(m -> m instanceof JsonRpcMessage.Request r && r.method().equals(method))
        .map(m -> (JsonRpcMessage.Request) m)
        .toList();
  }

  /** The notifications received with this method, in order. */
  final List<JsonRpcMessage.Notification> notifications(String method) {
    return received.stream()
        .filter(m -> m instanceof JsonRpcMessage.Notification n && n.method().equals(method))
        .map(m -> (JsonRpcMessage.Notification) m)
        .toList();
  }

  @Override
  public final void onFrame(DecodedMessage frame) {
    if (!(frame instanceof DecodedMessage.Valid v)) {
      return;
    }
    received.add(v.message());
    if (!(v.message() instanceof JsonRpcMessage.Request r)) {
      return;
    }
    JsonRpcMessage reply = answer(r);
    if (reply != null) {
      send(reply);
    }
  }

  @Override
  public void onClose(@Nullable Throwable cause) {}
}
