package dev.herald.wire;

import java.util.Objects;

/**
 * A message together with its encoding ({@link MessageCodec#encode}), made once and handed to any
 * number of transports: a notification fanned out to many sessions is encoded once, never once
 * per session or per stream (docs/architecture.md, "Performance we design for").
 *
 * <p>The bytes are shared, not copied: whoever holds an {@code EncodedMessage} (transports, event
 * stores, write queues) must treat {@link #bytes()} as read-only. Immutable and thread-safe under
 * that rule.
 */
public final class EncodedMessage {
  private final JsonRpcMessage message;
  private final byte[] bytes;

  private EncodedMessage(JsonRpcMessage message, byte[] bytes) {
    this.message = message;
    this.bytes = bytes;
  }

  /** Encodes {@code message} once. */
  public static EncodedMessage of(JsonRpcMessage message) {
    Objects.requireNonNull(message, "message");
    return new EncodedMessage(message, MessageCodec.encode(message));
  }

  /** The message. */
  public JsonRpcMessage message() {
    return message;
  }

  /** Its UTF-8 JSON encoding, no trailing newline. Shared: never modify it. */
  public byte[] bytes() {
    return bytes;
  }

  @Override
  public String toString() {
    return "EncodedMessage[" + bytes.length + " bytes, " + message + "]";
  }
}
