package dev.herald.http;

import dev.herald.http.internal.EndpointConfig;
import dev.herald.server.McpServer;
import dev.herald.session.Scheduler;
import dev.herald.session.Ticker;
import java.time.Duration;

/**
 * The settings every Streamable HTTP endpoint shares, whoever hosts it: Herald's own Jetty server
 * ({@link McpHttpServer.Builder}) or a servlet container ({@code McpServlet.Builder}). Setters
 * validate at once and name the problem. Not thread-safe.
 *
 * @param <B> the concrete builder, returned by every setter
 */
public abstract class EndpointBuilder<B extends EndpointBuilder<B>> {
  /** The validated settings being built; hosts add their own (address, port, path). */
  @SuppressWarnings("exports") // a known leak of an internal type: the builder's own API hides it next
  protected final EndpointConfig.Builder config = EndpointConfig.builder();

  protected EndpointBuilder() {}

  /** This builder, typed as the concrete one. */
  protected abstract B self();

public final B server(McpServer server) {
    config.server(server);
    return self();
  }

public final B legacySse(boolean enabled, String ssePath, String postPath) {
    config.legacySse(enabled, ssePath, postPath);
    return self();
  }

public final B legacySse(boolean enabled) {
    config.legacySse(enabled);
    return self();
  }

public final B allowedOrigins(String... origins) {
    config.allowedOrigins(origins);
    return self();
  }

public final B allowedHosts(String... hosts) {
    config.allowedHosts(hosts);
    return self();
  }

public final B maxSessions(int max) {
    config.maxSessions(max);
    return self();
  }

public final B sessionIdleTimeout(Duration timeout) {
    config.sessionIdleTimeout(timeout);
    return self();
  }

public final B maxBodyBytes(int max) {
    config.maxBodyBytes(max);
    return self();
  }

public final B eventStore(EventStore store) {
    config.eventStore(store);
    return self();
  }

public final B streamQueueLimit(int events, long bytes) {
    config.streamQueueLimit(events, bytes);
    return self();
  }

public final B ssePollingInterval(Duration interval) {
    config.ssePollingInterval(interval);
    return self();
  }

public final B sseRetry(Duration retry) {
    config.sseRetry(retry);
    return self();
  }

public final B sseKeepAlive(Duration interval) {
    config.sseKeepAlive(interval);
    return self();
  }

public final B ticker(Ticker ticker) {
    config.ticker(ticker);
    return self();
  }

public final B scheduler(Scheduler scheduler) {
    config.scheduler(scheduler);
    return self();
  }
}
