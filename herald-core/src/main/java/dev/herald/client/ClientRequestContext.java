package dev.herald.client;

import dev.herald.session.CancellationToken;
import dev.herald.session.ProgressReporter;
import dev.herald.wire.RequestId;

/**
 * What a client-side handler (sampling, elicitation) can use while serving a server's request:
 * its id, its cancellation, and progress back to the server when the server asked for it.
 */
public interface ClientRequestContext {
  RequestId requestId();

  CancellationToken cancellation();

  ProgressReporter progress();
}
