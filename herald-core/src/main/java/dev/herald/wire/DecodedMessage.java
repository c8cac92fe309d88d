package dev.herald.wire;

import java.util.List;
import org.jspecify.annotations.Nullable;

/** What the codec made of one frame of input: a message, a batch, or an error to answer with. */
public sealed interface DecodedMessage {

  /** A well-formed message. */
  record Valid(JsonRpcMessage message) implements DecodedMessage {}

  /**
   * Input that is not a valid message. {@code id} is the request id when it could be read, so the
   * error response can carry it; {@code answerable} is false when the input was a response or a
   * notification, which are never answered.
   */
  record Invalid(@Nullable RequestId id, JsonRpcMessage.ErrorObject error, boolean answerable)
      implements DecodedMessage {}

  /** A JSON-RPC batch (legal to receive only in 2025-03-26). */
  record Batch(List<DecodedMessage> items) implements DecodedMessage {}
}
