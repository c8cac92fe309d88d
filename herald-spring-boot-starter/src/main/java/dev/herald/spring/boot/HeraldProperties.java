package dev.herald.spring.boot;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.jspecify.annotations.Nullable;
import org.springframework.boot.context.properties.ConfigurationProperties;

/**
 * The {@code herald.*} properties. A property left unset keeps Herald's default (given in each
 * setter's Javadoc), so an empty {@code application.properties} serves a working endpoint on
 * {@code /mcp}. Durations take Spring's forms ({@code 30s}, {@code PT30S}, {@code 500ms}).
 *
 * {@snippet lang=properties :
 * herald.path=/mcp
 * herald.name=orders
 * herald.version=1.4.0
 * herald.allowed-hosts=mcp.example.com:443
 * herald.max-sessions=2000
 * herald.event-store.max-age=10m
 * herald.redis.uri=redis://127.0.0.1:6379
 * }
 */
@ConfigurationProperties("herald")
public class HeraldProperties {
  private boolean enabled = true;
  private String path = "/mcp";
  private @Nullable String name;
  private @Nullable String version;
  private @Nullable String instructions;
  private List<String> allowedOrigins = new ArrayList<>();
  private List<String> allowedHosts = new ArrayList<>();
  private @Nullable Integer maxSessions;
  private @Nullable Integer maxSessionsPerClient;
  private @Nullable Duration sessionIdleTimeout;
  private @Nullable Duration requestBodyTimeout;
  private @Nullable Integer maxBodyBytes;
  private @Nullable Boolean legacySse;
  private boolean applicationJsonMapper = true;
  private Duration shutdownTimeout = Duration.ofSeconds(20);
  private final EventStore eventStore = new EventStore();
  private final Redis redis = new Redis();

  /** Whether the starter serves anything (default true). */
  public boolean isEnabled() {
    return enabled;
  }

  /** Whether the starter serves anything (default true). */
  public void setEnabled(boolean enabled) {
    this.enabled = enabled;
  }

  /** The endpoint's path (default {@code /mcp}); the legacy SSE paths sit beneath it. */
  public String getPath() {
    return path;
  }

  /** The endpoint's path (default {@code /mcp}); the legacy SSE paths sit beneath it. */
  public void setPath(String path) {
    this.path = path;
  }

  /** {@code serverInfo.name} (default: {@code spring.application.name}, else {@code herald}). */
  public @Nullable String getName() {
    return name;
  }

  /** {@code serverInfo.name} (default: {@code spring.application.name}, else {@code herald}). */
  public void setName(@Nullable String name) {
    this.name = name;
  }

  /** {@code serverInfo.version} (default {@code 0.0.0}). */
  public @Nullable String getVersion() {
    return version;
  }

  /** {@code serverInfo.version} (default {@code 0.0.0}). */
  public void setVersion(@Nullable String version) {
    this.version = version;
  }

  /** The {@code instructions} of the initialize result (default none). */
  public @Nullable String getInstructions() {
    return instructions;
  }

  /** The {@code instructions} of the initialize result (default none). */
  public void setInstructions(@Nullable String instructions) {
    this.instructions = instructions;
  }

  /** Origins accepted besides loopback ones, such as {@code https://app.example.com}. */
  public List<String> getAllowedOrigins() {
    return allowedOrigins;
  }

  /** Origins accepted besides loopback ones, such as {@code https://app.example.com}. */
  public void setAllowedOrigins(List<String> allowedOrigins) {
    this.allowedOrigins = allowedOrigins;
  }

  /** {@code Host} values accepted besides loopback ones, such as {@code mcp.example.com:443}. */
  public List<String> getAllowedHosts() {
    return allowedHosts;
  }

  /** {@code Host} values accepted besides loopback ones, such as {@code mcp.example.com:443}. */
  public void setAllowedHosts(List<String> allowedHosts) {
    this.allowedHosts = allowedHosts;
  }

  /** Open sessions at most, both transports (Herald's default: 1024). */
  public @Nullable Integer getMaxSessions() {
    return maxSessions;
  }

  /** Open sessions at most, both transports (Herald's default: 1024). */
  public void setMaxSessions(@Nullable Integer maxSessions) {
    this.maxSessions = maxSessions;
  }

  /** Open sessions at most per client address (Herald's default: 64). */
  public @Nullable Integer getMaxSessionsPerClient() {
    return maxSessionsPerClient;
  }

  /** Open sessions at most per client address (Herald's default: 64). */
  public void setMaxSessionsPerClient(@Nullable Integer maxSessionsPerClient) {
    this.maxSessionsPerClient = maxSessionsPerClient;
  }

  /** How long a session may stay idle before it is ended (Herald's default: 10 minutes). */
  public @Nullable Duration getSessionIdleTimeout() {
    return sessionIdleTimeout;
  }

  /** How long a session may stay idle before it is ended (Herald's default: 10 minutes). */
  public void setSessionIdleTimeout(@Nullable Duration sessionIdleTimeout) {
    this.sessionIdleTimeout = sessionIdleTimeout;
  }

  /** How long a request body may take to arrive (Herald's default: 30 seconds). */
  public @Nullable Duration getRequestBodyTimeout() {
    return requestBodyTimeout;
  }

  /** How long a request body may take to arrive (Herald's default: 30 seconds). */
  public void setRequestBodyTimeout(@Nullable Duration requestBodyTimeout) {
    this.requestBodyTimeout = requestBodyTimeout;
  }

  /** The largest request body accepted, in bytes (Herald's default: 4 MiB). */
  public @Nullable Integer getMaxBodyBytes() {
    return maxBodyBytes;
  }

  /** The largest request body accepted, in bytes (Herald's default: 4 MiB). */
  public void setMaxBodyBytes(@Nullable Integer maxBodyBytes) {
    this.maxBodyBytes = maxBodyBytes;
  }

  /**
   * Whether the application's Jackson 3 {@code JsonMapper} bean, when it has exactly one, binds
   * the annotated tools' arguments and writes their results (default true); false keeps Herald's
   * own mapper for them.
   */
  public boolean isApplicationJsonMapper() {
    return applicationJsonMapper;
  }

  /** See {@link #isApplicationJsonMapper()}. */
  public void setApplicationJsonMapper(boolean applicationJsonMapper) {
    this.applicationJsonMapper = applicationJsonMapper;
  }

  /** Whether the 2024-11-05 HTTP+SSE transport is served beneath the path (default true). */
  public @Nullable Boolean getLegacySse() {
    return legacySse;
  }

  /** Whether the 2024-11-05 HTTP+SSE transport is served beneath the path (default true). */
  public void setLegacySse(@Nullable Boolean legacySse) {
    this.legacySse = legacySse;
  }

  /**
   * How long, when the application stops, calls in progress may run on before they are cancelled
   * (default 20 seconds; keep it under {@code spring.lifecycle.timeout-per-shutdown-phase}).
   */
  public Duration getShutdownTimeout() {
    return shutdownTimeout;
  }

  /**
   * How long, when the application stops, calls in progress may run on before they are cancelled
   * (default 20 seconds; keep it under {@code spring.lifecycle.timeout-per-shutdown-phase}).
   */
  public void setShutdownTimeout(Duration shutdownTimeout) {
    this.shutdownTimeout = shutdownTimeout;
  }

  /** {@code herald.event-store.*}: the bounds of the in-memory SSE event store. */
  public EventStore getEventStore() {
    return eventStore;
  }

  /** {@code herald.redis.*}: the Redis cluster (used when herald-redis is on the class path). */
  public Redis getRedis() {
    return redis;
  }

  /**
   * The bounds of the in-memory event store that lets a client resume a stream with {@code
   * Last-Event-ID} (MCP 2025-11-25 basic/transports, "Resumability and Redelivery"). Setting any
   * of them sets all three, the others taking Herald's defaults.
   */
  public static class EventStore {
    private @Nullable Long bytesPerStream;
    private @Nullable Long bytesPerServer;
    private @Nullable Duration maxAge;

    /** Bytes of events kept per stream (Herald's default: 1 MiB). */
    public @Nullable Long getBytesPerStream() {
      return bytesPerStream;
    }

    /** Bytes of events kept per stream (Herald's default: 1 MiB). */
    public void setBytesPerStream(@Nullable Long bytesPerStream) {
      this.bytesPerStream = bytesPerStream;
    }

    /** Bytes of events kept for every stream together (Herald's default: 64 MiB). */
    public @Nullable Long getBytesPerServer() {
      return bytesPerServer;
    }

    /** Bytes of events kept for every stream together (Herald's default: 64 MiB). */
    public void setBytesPerServer(@Nullable Long bytesPerServer) {
      this.bytesPerServer = bytesPerServer;
    }

    /** The age after which an event is forgotten (Herald's default: 5 minutes). */
    public @Nullable Duration getMaxAge() {
      return maxAge;
    }

    /** The age after which an event is forgotten (Herald's default: 5 minutes). */
    public void setMaxAge(@Nullable Duration maxAge) {
      this.maxAge = maxAge;
    }
  }

  /**
   * The Redis that makes this application one node of a Herald cluster (any node serves any
   * session; MCP 2025-11-25 basic/transports, "Session Management"). Needs herald-redis on the
   * class path.
   */
  public static class Redis {
    private @Nullable String uri;

    /** {@code redis://host:port}; unset means a single node. */
    public @Nullable String getUri() {
      return uri;
    }

    /** {@code redis://host:port}; unset means a single node. */
    public void setUri(@Nullable String uri) {
      this.uri = uri;
    }
  }
}
