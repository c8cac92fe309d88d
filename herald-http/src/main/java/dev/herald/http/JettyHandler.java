package dev.herald.http;

import dev.herald.http.internal.Endpoint;
import org.eclipse.jetty.server.Handler;
import org.eclipse.jetty.server.Request;
import org.eclipse.jetty.server.Response;
import org.eclipse.jetty.util.Callback;

/**
 * The Jetty core handler: wraps each exchange and hands it to the {@link Endpoint}, which
 * answers every request itself (so this always returns true). Non-blocking; thread-safe.
 */
final class JettyHandler extends Handler.Abstract.NonBlocking {
  private final Endpoint endpoint;

  JettyHandler(Endpoint endpoint) {
    this.endpoint = endpoint;
  }

  @Override
  public boolean handle(Request request, Response response, Callback callback) {
    endpoint.handle(new JettyExchange(request, response, callback));
    return true;
  }
}
