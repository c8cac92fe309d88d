package dev.herald.internal.session;

import dev.herald.session.CancelledException;
import dev.herald.session.ProgressRecord;
import dev.herald.session.TimeoutException;
import dev.herald.wire.RequestId;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import tools.jackson.databind.JsonNode;

/**
 * A request this side sent and is waiting on. It ends exactly once: with the response, an error,
 * a cancellation or a timeout. The future completes only after the final progress render.
 *
 * <p>Thread-safe.
 */
public interface OutboundCall {
  RequestId id();

  /**
   * Completes with the raw result; fails with {@link dev.herald.wire.McpException} for an error
   * response, {@link CancelledException} (or its subtype {@link TimeoutException}) when cancelled,
   * or {@link dev.herald.transport.TransportException} when the connection ends.
   */
  CompletableFuture<JsonNode> result();

  /**
   * Cancels the call: sends {@code notifications/cancelled} once, frees everything and fails the
   * future. Returns false if the call had already ended. A response that arrives later is ignored.
   */
  boolean cancel(String reason);

  /** The call's progress record, when it asked for progress. */
  Optional<ProgressRecord> progressRecord();

  /**
   * The call's progress token when its result handed it on to work that outlives the call (a
   * task): still active, closed by whoever follows that work. Empty otherwise.
   */
  default Optional<ProgressLease> keptProgress() {
    return Optional.empty();
  }
}
