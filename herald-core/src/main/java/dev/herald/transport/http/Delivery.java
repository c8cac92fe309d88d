package dev.herald.transport.http;

import dev.herald.transport.Transport.Receiver;
import dev.herald.wire.DecodedMessage;
import dev.herald.wire.ErrorCodes;
import dev.herald.wire.JsonRpcMessage;
import dev.herald.wire.MessageCodec;
import dev.herald.wire.ProtocolVersion;
import dev.herald.wire.RequestId;
import java.util.Objects;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.locks.ReentrantLock;
import org.jspecify.annotations.Nullable;
import tools.jackson.databind.JsonNode;

/**
 * Everything that reaches the receiver, from every stream: frames one at a time under one lock,
 * local errors for requests whose exchange failed, and the one {@code onClose}.
 *
 * <p>Design note. Responses are noted on their way through: a request stays {@linkplain
 * #isAwaiting awaited} until its response passed (on any stream), which is what keeps its stream
 * resumed, and the {@code initialize} result teaches the connection its {@code
 * MCP-Protocol-Version} (MCP 2025-11-25 basic/transports §Protocol Version Header). Nothing is
 * delivered after {@code onClose}.
 */
final class Delivery {
  private final ConnectionStateMachine machine;
  private final ReentrantLock lock = new ReentrantLock();

  /** Requests posted whose response has not passed through yet (any stream). */
  private final Set<RequestId> awaiting = ConcurrentHashMap.newKeySet();

  /** Set once, by {@code start}. */
  private volatile @Nullable Receiver receiver;

  /** Guarded by {@link #lock}. */
  private boolean closeReported;

  Delivery(ConnectionStateMachine machine) {
    this.machine = machine;
  }

  void receiver(Receiver receiver) {
    this.receiver = receiver;
  }

  boolean hasReceiver() {
    return receiver != null;
  }

  /** A request is about to be posted: its response is awaited from now on. */
  void expect(@Nullable RequestId id) {
    if (id != null) {
      awaiting.add(id);
    }
  }

  /** A request that never left: nothing to await. */
  void forget(@Nullable RequestId id) {
    if (id != null) {
      awaiting.remove(id);
    }
  }

  /** Whether the response to {@code id} has yet to pass through. */
  boolean isAwaiting(RequestId id) {
    return awaiting.contains(id);
  }

  /** Hands one event's data to the receiver; priming events (blank data) are skipped. */
  void deliverEvent(byte[] data, int length) {
    for (int i = 0; i < length; i++) {
      byte b = data[i];
      if (b != ' ' && b != '\t' && b != '\n' && b != '\r') {
        deliver(MessageCodec.decode(data, 0, length));
        return;
      }
    }
  }

  /** Hands one frame to the receiver, under the delivery lock, unless the close was reported. */
  void deliver(DecodedMessage frame) {
    noteResponses(frame);
    Receiver r = Objects.requireNonNull(receiver);
    lock.lock();
    try {
      if (!closeReported) {
        r.onFrame(frame);
      }
    } finally {
      lock.unlock();
    }
  }

  /**
   * Delivers the JSON-RPC error a server explained an HTTP refusal of request {@code id} with (an
   * error with that id, or with none) as that request's error, untouched otherwise.
   *
   * @return false when {@code body} holds no such error
   */
  boolean deliverRefusal(RequestId id, byte[] body) {
    if (body.length > 0
        && MessageCodec.decode(body) instanceof DecodedMessage.Valid v
        && v.message() instanceof JsonRpcMessage.Error e
        && (e.id() == null || e.id().equals(id))) {
      deliver(new DecodedMessage.Valid(new JsonRpcMessage.Error(id, e.error())));
      return true;
    }
    return false;
  }

  /** Answers a request locally with an error, so its call fails and the session goes on. */
  void failRequest(RequestId id, String reason) {
    failRequest(id, reason, null);
  }

  /** As {@link #failRequest(RequestId, String)}, with the error's {@code data}. */
  void failRequest(RequestId id, String reason, @Nullable JsonNode data) {
    if (machine.isClosed() || !awaiting.contains(id)) {
      return;
    }
    deliver(
        new DecodedMessage.Valid(
            new JsonRpcMessage.Error(
                id, new JsonRpcMessage.ErrorObject(ErrorCodes.INTERNAL_ERROR, reason, data))));
  }

  /** Tells the receiver, once, that the transport ended ({@code cause} null: closed by the host). */
  void reportClose(@Nullable Throwable cause) {
    Receiver r = receiver;
    lock.lock();
    try {
      if (closeReported) {
        return;
      }
      closeReported = true;
    } finally {
      lock.unlock();
    }
    if (r != null) {
      r.onClose(cause);
    }
  }

  private void noteResponses(DecodedMessage frame) {
    switch (frame) {
      case DecodedMessage.Valid v -> {
        if (v.message() instanceof JsonRpcMessage.Response response && response.id() != null) {
          awaiting.remove(response.id());
          if (response instanceof JsonRpcMessage.Result result
              && result.id().equals(machine.session().initializeId())) {
            machine.initializeAnswered(result.id(), headerVersion(result.result()));
          }
        }
      }
      case DecodedMessage.Batch batch -> batch.items().forEach(this::noteResponses);
      case DecodedMessage.Invalid invalid -> {}
    }
  }

  /** The version the {@code initialize} result names, if it is one sent in {@code MCP-Protocol-Version}. */
  private static @Nullable String headerVersion(JsonNode result) {
    JsonNode v = result.get("protocolVersion");
    if (v != null && v.isString()) {
      return ProtocolVersion.parse(v.stringValue())
          .filter(ProtocolVersion::protocolVersionHeader)
          .map(ProtocolVersion::wire)
          .orElse(null);
    }
    return null;
  }
}
