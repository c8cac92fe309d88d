package dev.herald.client;

import dev.herald.wire.CreateMessageParams;
import dev.herald.wire.CreateMessageResult;

/**
 * Answers the server's {@code sampling/createMessage}: the host runs its model (after whatever
 * review it asks of the user) and returns the result. Runs on the request's own virtual thread;
 * the context's cancellation trips when the server cancels the request. Throw
 * {@link dev.herald.wire.McpException} to refuse (for example -1 "User rejected sampling request").
 */
@FunctionalInterface
public interface SamplingHandler {
  CreateMessageResult createMessage(CreateMessageParams params, ClientRequestContext context)
      throws Exception;
}
