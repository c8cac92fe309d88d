package dev.herald.spring.boot;

import dev.herald.http.servlet.McpServlet;
import java.time.Duration;

/** Applies the endpoint's {@code herald.*} properties to a servlet builder; unset ones are left. */
final class ServletSettings {
  private ServletSettings() {}

  static final long DEFAULT_BYTES_PER_STREAM = 1L << 20;
  static final long DEFAULT_BYTES_PER_SERVER = 64L << 20;
  static final Duration DEFAULT_MAX_AGE = Duration.ofMinutes(5);

  static void apply(HeraldProperties p, McpServlet.Builder b) {
    if (!p.getAllowedOrigins().isEmpty()) {
      b.allowedOrigins(p.getAllowedOrigins().toArray(String[]::new));
    }
    if (!p.getAllowedHosts().isEmpty()) {
      b.allowedHosts(p.getAllowedHosts().toArray(String[]::new));
    }
    Integer maxSessions = p.getMaxSessions();
    if (maxSessions != null) {
      b.maxSessions(maxSessions);
    }
    Integer perClient = p.getMaxSessionsPerClient();
    if (perClient != null) {
      b.maxSessionsPerClient(perClient);
    }
    Duration idle = p.getSessionIdleTimeout();
    if (idle != null) {
      b.sessionIdleTimeout(idle);
    }
    Duration body = p.getRequestBodyTimeout();
    if (body != null) {
      b.requestBodyTimeout(body);
    }
    Integer maxBody = p.getMaxBodyBytes();
    if (maxBody != null) {
      b.maxBodyBytes(maxBody);
    }
    Boolean legacy = p.getLegacySse();
    if (legacy != null) {
      b.legacySse(legacy);
    }
    HeraldProperties.EventStore events = p.getEventStore();
    Long perStream = events.getBytesPerStream();
    Long perServer = events.getBytesPerServer();
    Duration maxAge = events.getMaxAge();
    if (perStream != null || perServer != null || maxAge != null) {
      b.eventStoreLimits(
          perStream == null ? DEFAULT_BYTES_PER_STREAM : perStream,
          perServer == null ? DEFAULT_BYTES_PER_SERVER : perServer,
          maxAge == null ? DEFAULT_MAX_AGE : maxAge);
    }
  }
}
