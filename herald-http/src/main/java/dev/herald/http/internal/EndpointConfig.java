package dev.herald.http.internal;

import dev.herald.http.EventStore;
import dev.herald.server.McpServer;
import dev.herald.session.Scheduler;
import dev.herald.session.Ticker;
import java.time.Duration;
import java.util.LinkedHashSet;
import java.util.Locale;
import java.util.Objects;
import java.util.Set;
import org.jspecify.annotations.Nullable;

/**
 * The settings every front (Jetty server, servlet) shares, validated in one place so that both
 * public builders say the same thing about the same mistake. Immutable once built.
 */
public final class EndpointConfig {
  final McpServer mcp;
  final String path;
  final boolean legacy;
  final String legacySsePath;
  final String legacyPostPath;
  final Set<String> extraOrigins;
  final Set<String> extraHosts;
  final Set<String> ownNames;
  final int maxSessions;
  final int maxSessionsPerClient;
  final long bodyTimeoutNanos;
  final long idleTimeoutNanos;
  final int maxBodyBytes;
  final EventStore eventStore;
  final int queueFrames;
  final long queueBytes;
  final long pollAfterNanos;
  final byte[] retryField;
  final String retryText;
  final long keepAliveNanos;
  final int keepAliveFailures;
  final long statelessStreamAfterNanos;
  final Ticker ticker;
  final Scheduler scheduler;

  /** The cluster this node belongs to (docs/scale-out.md), or null. */
  final @Nullable ClusterSeam cluster;

  /** The endpoint as a protected resource (docs/authorization.md), or null when open. */
  final dev.herald.auth.@Nullable ProtectedResource authorization;

  private EndpointConfig(Builder b, McpServer mcp) {
    this.mcp = mcp;
    this.path = b.path;
    this.legacy = b.legacySse;
    this.legacySsePath = b.legacySsePath;
    this.legacyPostPath = b.legacyPostPath;
    this.extraOrigins = lower(b.origins);
    this.extraHosts = lower(b.hosts);
    this.ownNames = lower(b.ownNames);
    this.maxSessions = b.maxSessions;
    this.maxSessionsPerClient = b.maxSessionsPerClient;
    this.bodyTimeoutNanos = b.bodyTimeout.toNanos();
    this.idleTimeoutNanos = b.sessionIdleTimeout.toNanos();
    this.maxBodyBytes = b.maxBodyBytes;
    @Nullable EventStore shared = b.cluster == null ? null : b.cluster.eventStore();
    this.eventStore =
        b.eventStore != null
            ? b.eventStore
            : shared != null
                ? shared
                : EventStore.inMemory(
                    512, b.storeBytesPerStream, b.storeBytesPerServer, b.storeMaxAge);
    this.queueFrames = b.queueFrames;
    this.queueBytes = b.queueBytes;
    this.pollAfterNanos = b.pollingInterval.toNanos();
    this.retryText = "retry: " + b.retry.toMillis() + "\n";
    this.retryField = HttpExchanges.ascii(retryText + "\n");
    this.keepAliveNanos = b.keepAlive.toNanos();
    this.keepAliveFailures = b.keepAliveFailures;
    this.statelessStreamAfterNanos = b.statelessStreamAfter.toNanos();
    this.ticker = b.ticker;
    this.scheduler = b.scheduler;
    this.cluster = b.cluster;
    this.authorization = b.authorization;
  }

  private static Set<String> lower(Set<String> s) {
    Set<String> out = new LinkedHashSet<>();
    s.forEach(v -> out.add(v.toLowerCase(Locale.ROOT)));
    return Set.copyOf(out);
  }

  public static Builder builder() {
    return new Builder();
  }

  public String path() {
    return path;
  }

  public String legacySsePath() {
    return legacySsePath;
  }

  public boolean legacy() {
    return legacy;
  }

  public long keepAliveNanos() {
    return keepAliveNanos;
  }

  public long idleTimeoutNanos() {
    return idleTimeoutNanos;
  }

  /** How long a request body may take to arrive, in nanoseconds. */
  public long bodyTimeoutNanos() {
    return bodyTimeoutNanos;
  }

  /** The mutable half: each setter validates at once and names the problem. Not thread-safe. */
  public static final class Builder {
    private @Nullable McpServer server;
    private String path = "/mcp";
    private boolean legacySse = true;
    private String legacySsePath = "/sse";
    private String legacyPostPath = "/messages";
    private final Set<String> origins = new LinkedHashSet<>();
    private final Set<String> hosts = new LinkedHashSet<>();
    private final Set<String> ownNames =
        new LinkedHashSet<>(Set.of("127.0.0.1", "localhost", "[::1]"));
    private int maxSessions = 1024;
    private int maxSessionsPerClient = 64;
    private Duration bodyTimeout = Duration.ofSeconds(30);
    private long storeBytesPerStream = EventStore.DEFAULT_BYTES_PER_STREAM;
    private long storeBytesPerServer = EventStore.DEFAULT_BYTES_PER_SERVER;
    private Duration storeMaxAge = EventStore.DEFAULT_MAX_AGE;
    private Duration sessionIdleTimeout = Duration.ofMinutes(10);
    private int maxBodyBytes = 4 * 1024 * 1024;
    private @Nullable EventStore eventStore;
    private int queueFrames = 1024;
    private long queueBytes = 4L * 1024 * 1024;
    private Duration pollingInterval = Duration.ZERO;
    private Duration retry = Duration.ofSeconds(1);
    private Duration keepAlive = Duration.ofSeconds(15);
    private int keepAliveFailures = 3;
    private Duration statelessStreamAfter = Duration.ofSeconds(1);
    private Ticker ticker = Ticker.system();
    private Scheduler scheduler = Scheduler.system();
    private @Nullable ClusterSeam cluster;
    private dev.herald.auth.@Nullable ProtectedResource authorization;

    private Builder() {}

    /** Protects the endpoint: every MCP request needs a valid bearer token. */
    public void authorization(dev.herald.auth.ProtectedResource resource) {
      this.authorization = Objects.requireNonNull(resource, "resource");
    }

    /** Makes this endpoint a member of a cluster (docs/scale-out.md). */
    public void cluster(ClusterSeam cluster) {
      this.cluster = Objects.requireNonNull(cluster, "cluster");
    }

    public void server(McpServer server) {
      this.server = Objects.requireNonNull(server, "server");
    }

    public void path(String path) {
      this.path = checkPath(path, "path");
    }

    public void legacySse(boolean enabled, String ssePath, String postPath) {
      this.legacySse = enabled;
      this.legacySsePath = checkPath(ssePath, "ssePath");
      this.legacyPostPath = checkPath(postPath, "postPath");
    }

    public void legacySse(boolean enabled) {
      this.legacySse = enabled;
    }

    public void allowedOrigins(String... values) {
      for (String o : values) {
        origins.add(Objects.requireNonNull(o, "origin"));
      }
    }

    public void allowedHosts(String... values) {
      for (String h : values) {
        hosts.add(Objects.requireNonNull(h, "host"));
      }
    }

    /** A host name that, with the local port, is the server's own (the bound address). */
    public void ownName(String name) {
      ownNames.add(Objects.requireNonNull(name, "name"));
    }

    public void maxSessions(int max) {
      if (max < 1) {
        throw new IllegalArgumentException("maxSessions must be at least 1, was " + max);
      }
      this.maxSessions = max;
    }

    public void maxSessionsPerClient(int max) {
      if (max < 1) {
        throw new IllegalArgumentException("maxSessionsPerClient must be at least 1, was " + max);
      }
      this.maxSessionsPerClient = max;
    }

    public void requestBodyTimeout(Duration timeout) {
      Objects.requireNonNull(timeout, "timeout");
      if (timeout.isNegative() || timeout.isZero()) {
        throw new IllegalArgumentException("requestBodyTimeout must be positive, was " + timeout);
      }
      this.bodyTimeout = timeout;
    }

    public void eventStoreLimits(long bytesPerStream, long bytesPerServer, Duration maxAge) {
      Objects.requireNonNull(maxAge, "maxAge");
      if (bytesPerStream < 1 || bytesPerServer < 1) {
        throw new IllegalArgumentException(
            "eventStoreLimits must be positive, was "
                + bytesPerStream
                + " bytes per stream, "
                + bytesPerServer
                + " per server");
      }
      if (maxAge.isNegative() || maxAge.isZero()) {
        throw new IllegalArgumentException(
            "eventStoreLimits maxAge must be positive, was " + maxAge);
      }
      this.storeBytesPerStream = bytesPerStream;
      this.storeBytesPerServer = bytesPerServer;
      this.storeMaxAge = maxAge;
    }

    public void sessionIdleTimeout(Duration timeout) {
      if (timeout.isNegative() || timeout.isZero()) {
        throw new IllegalArgumentException("sessionIdleTimeout must be positive, was " + timeout);
      }
      this.sessionIdleTimeout = timeout;
    }

    public void maxBodyBytes(int max) {
      if (max < 1) {
        throw new IllegalArgumentException("maxBodyBytes must be at least 1, was " + max);
      }
      this.maxBodyBytes = max;
    }

    public void eventStore(EventStore store) {
      this.eventStore = Objects.requireNonNull(store, "store");
    }

    public void streamQueueLimit(int events, long bytes) {
      if (events < 1 || bytes < 1) {
        throw new IllegalArgumentException(
            "streamQueueLimit must be positive, was " + events + " events, " + bytes + " bytes");
      }
      this.queueFrames = events;
      this.queueBytes = bytes;
    }

    public void ssePollingInterval(Duration interval) {
      if (interval.isNegative()) {
        throw new IllegalArgumentException(
            "ssePollingInterval must not be negative, was " + interval);
      }
      this.pollingInterval = interval;
    }

    public void sseRetry(Duration retry) {
      if (retry.isNegative()) {
        throw new IllegalArgumentException("sseRetry must not be negative, was " + retry);
      }
      this.retry = retry;
    }

    public void sseKeepAlive(Duration interval) {
      if (interval.isNegative() || interval.isZero()) {
        throw new IllegalArgumentException("sseKeepAlive must be positive, was " + interval);
      }
      this.keepAlive = interval;
    }

    public void sseKeepAliveFailures(int failures) {
      if (failures < 1) {
        throw new IllegalArgumentException(
            "sseKeepAliveFailures must be at least 1, was " + failures);
      }
      this.keepAliveFailures = failures;
    }

    public void statelessStreamAfter(Duration wait) {
      if (wait.isNegative() || wait.isZero()) {
        throw new IllegalArgumentException("statelessStreamAfter must be positive, was " + wait);
      }
      this.statelessStreamAfter = wait;
    }

    public void ticker(Ticker ticker) {
      this.ticker = Objects.requireNonNull(ticker, "ticker");
    }

    public void scheduler(Scheduler scheduler) {
      this.scheduler = Objects.requireNonNull(scheduler, "scheduler");
    }

    /**
     * The settings.
     *
     * @throws IllegalStateException if no server was given, or the paths collide
     */
    public EndpointConfig build() {
      McpServer s = server;
      if (s == null) {
        throw new IllegalStateException("server(McpServer) is required");
      }
      if (legacySse
          && (path.equals(legacySsePath)
              || path.equals(legacyPostPath)
              || legacySsePath.equals(legacyPostPath))) {
        throw new IllegalStateException(
            "paths collide: path "
                + path
                + ", legacy SSE "
                + legacySsePath
                + ", legacy POST "
                + legacyPostPath);
      }
      return new EndpointConfig(this, s);
    }

    private static String checkPath(String p, String what) {
      Objects.requireNonNull(p, what);
      if (!p.startsWith("/")) {
        throw new IllegalArgumentException(what + " must start with /, was " + p);
      }
      return p;
    }
  }
}
