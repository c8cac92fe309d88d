package dev.herald.client;

import dev.herald.transport.Transport;
import dev.herald.wire.DecodedMessage;
import dev.herald.wire.EncodedMessage;
import dev.herald.wire.JsonRpcMessage;
import dev.herald.wire.ProtocolVersion;
import dev.herald.wire.RequestId;
import org.jspecify.annotations.Nullable;

/**
 * The client's view of its transport: what it reads passes {@link Inbound} first, which takes the
 * frames the session engine must not see (MCP 2026-07-28 basic/patterns: servers send no requests
 * and clients send no responses, so a server's request is dropped unanswered; notifications of a
 * {@code subscriptions/listen} stream are demultiplexed by their {@code subscriptionId}). Everything
 * else is passed through unchanged, both ways.
 */
final class ModernWire implements Transport {
  /** Takes a frame off the reader before the engine sees it. Must not block or run user code. */
  interface Inbound {
    /** Whether the frame was taken (then the engine never sees it). */
    boolean take(JsonRpcMessage message);
  }

  private final Transport inner;
  private final Inbound inbound;

  ModernWire(Transport inner, Inbound inbound) {
    this.inner = inner;
    this.inbound = inbound;
  }

  /** The transport this one wraps. */
  Transport inner() {
    return inner;
  }

  @Override
  public void start(Receiver receiver) {
    inner.start(
        new Receiver() {
          @Override
          public void onFrame(DecodedMessage frame) {
            if (frame instanceof DecodedMessage.Valid v && inbound.take(v.message())) {
              return;
            }
            receiver.onFrame(frame);
          }

          @Override
          public void onClose(@Nullable Throwable cause) {
            receiver.onClose(cause);
          }
        });
  }

  @Override
  public void send(JsonRpcMessage message, @Nullable RequestId relatedTo) {
    inner.send(message, relatedTo);
  }

  @Override
  public void send(EncodedMessage encoded, @Nullable RequestId relatedTo) {
    inner.send(encoded, relatedTo);
  }

  @Override
  public boolean pollStream(RequestId request) {
    return inner.pollStream(request);
  }

  @Override
  public void requestCancelled(RequestId request) {
    inner.requestCancelled(request);
  }

  @Override
  public boolean useProtocolVersion(ProtocolVersion version) {
    return inner.useProtocolVersion(version);
  }

  @Override
  public java.util.Optional<String> sessionId() {
    return inner.sessionId();
  }

  @Override
  public void close() {
    inner.close();
  }

  @Override
  public String toString() {
    return inner.toString();
  }
}
