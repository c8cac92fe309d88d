package dev.herald.wire;

import java.util.Objects;
import java.util.function.Supplier;
import org.jspecify.annotations.Nullable;

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
  private volatile @Nullable JsonRpcMessage message;
  private final @Nullable Supplier<JsonRpcMessage.Notification> make;
  private final byte[] bytes;

  private EncodedMessage(
      @Nullable JsonRpcMessage message,
      @Nullable Supplier<JsonRpcMessage.Notification> make,
      byte[] bytes) {
    this.message = message;
    this.make = make;
    this.bytes = bytes;
  }

  /** Encodes {@code message} once. */
  public static EncodedMessage of(JsonRpcMessage message) {
    Objects.requireNonNull(message, "message");
    return new EncodedMessage(message, null, MessageCodec.encode(message));
  }

  /**
   * A notification already encoded by a specialised writer (the progress hot path, {@link
   * MessageCodec#progress}), whose message object is built only if a transport asks for it:
   * transports that write bytes never do. {@code message} must build exactly the notification
   * {@code bytes} encode.
   */
  public static EncodedMessage notification(
      byte[] bytes, Supplier<JsonRpcMessage.Notification> message) {
    return new EncodedMessage(
        null, Objects.requireNonNull(message, "message"), Objects.requireNonNull(bytes, "bytes"));
  }

  /** The message (built on first use for {@link #notification}). */
  public JsonRpcMessage message() {
    JsonRpcMessage m = message;
    if (m == null) {
      m = Objects.requireNonNull(make).get();
      message = m; // a race builds an equal message twice: harmless
    }
    return m;
  }

  /** Whether the message is a notification; known without building it. */
  public boolean isNotification() {
    return make != null || message instanceof JsonRpcMessage.Notification;
  }

  /** Its UTF-8 JSON encoding, no trailing newline. Shared: never modify it. */
  public byte[] bytes() {
    return bytes;
  }

  @Override
  public String toString() {
    return "EncodedMessage[" + bytes.length + " bytes, " + message() + "]";
  }
}
