package dev.herald.http.internal;

import dev.herald.http.EventStore;
import dev.herald.server.ServerSession;
import dev.herald.session.Scheduler;
import java.security.SecureRandom;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Base64;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.locks.ReentrantLock;
import org.jspecify.annotations.Nullable;

/**
 * One MCP endpoint, whatever container carries it: the sessions of both transports, their
 * limits, the housekeeping timer, and {@link #handle}, the way in for every
 * exchange.
 *
 * <p>Design note. This is the part of the old Jetty-only server that never needed
 * Jetty; {@code McpHttpServer} and {@code McpServlet} each own one and differ only in how they
 * turn their container's request into an {@link Exchange}. The sweep ends idle sessions and sends
 * keep-alive comments; it runs from {@link #start} to {@link #close}.
 *
 * <p>Thread-safe; {@link #lifecycle} guards {@link #sweep} and {@link #stopped}'s transitions.
 */
public final class Endpoint {
  private static final System.Logger LOG = System.getLogger("dev.herald.http");
  private static final SecureRandom RANDOM = new SecureRandom();

  /** How long a 2026 request's stream may stay quiet before a keep-alive comment probes it. */
  final EndpointConfig config;

  final HostCheck hostCheck;

  /** This node's side of its cluster (docs/scale-out.md), or null on a single node. */
  final @Nullable ClusterLink cluster;

  private final Requests requests;

  /** Bearer-token checks and the metadata document, or null when the endpoint is open. */
  final @Nullable BearerAuth auth;

  /** Open Streamable HTTP sessions by id. */
  final ConcurrentHashMap<String, HttpSession> sessions = new ConcurrentHashMap<>();

  final ConcurrentHashMap<String, LegacySession> legacySessions = new ConcurrentHashMap<>();

  /** 2026-07-28 requests being served, each by its own server session. */
  private final java.util.Set<StatelessCall> stateless = ConcurrentHashMap.newKeySet();

  private final AtomicInteger sessionCount = new AtomicInteger();

  /** Open (or reserved) sessions per client address; an entry goes when its count reaches zero. */
  private final ConcurrentHashMap<String, Integer> perClient = new ConcurrentHashMap<>();

  /** The client each open session counts against, by session id. */
  private final ConcurrentHashMap<String, String> clientOf = new ConcurrentHashMap<>();

  private final long sweepNanos;
  private final ReentrantLock lifecycle = new ReentrantLock();
  private Scheduler.@Nullable Cancellable sweep; // guarded by lifecycle
  private volatile boolean started;
  private volatile boolean stopped;

  public Endpoint(EndpointConfig config) {
    this.config = config;
    this.hostCheck = new HostCheck(config);
    this.auth =
        config.authorization == null
            ? null
            : new BearerAuth(config.authorization, config.scheduler);
    this.cluster = config.cluster == null ? null : new ClusterLink(this, config.cluster);
    this.requests = new Requests(this);
    this.sweepNanos =
        Math.max(
            1,
            Math.min(
                Duration.ofSeconds(1).toNanos(),
                Math.min(config.keepAliveNanos, config.idleTimeoutNanos) / 2));
  }

  public EndpointConfig config() {
    return config;
  }

  public EventStore eventStore() {
    return config.eventStore;
  }

  /** Handles one exchange; never blocks on the network. */
  public void handle(Exchange exchange) {
    requests.handle(exchange);
  }

  /** Starts the housekeeping timer. */
  public void start() {
    lifecycle.lock();
    try {
      if (!started && !stopped) {
        started = true;
        sweep = config.scheduler.schedule(this::sweepAndReschedule, sweepNanos);
        if (cluster != null) {
          cluster.start();
        }
      }
    } finally {
      lifecycle.unlock();
    }
  }

  /**
   * 2026-07-28 requests in progress (each with its own server session, closed when its exchange
   * ends).
   */
  public int statelessCount() {
    return stateless.size();
  }

  /** The outcome of {@link #statelessStarted}. */
  enum StatelessAdmission {
    OK,
    /** As many 2026 requests as {@code maxSessions} are in progress. */
    FULL,
    /** The endpoint is stopped. */
    STOPPED
  }

  /**
   * Registers a 2026 request being served, within a bound of its own: as many in progress as the
   * endpoint allows sessions, counted apart from them, so stateless traffic never takes a
   * handshake client's slot.
   */
  StatelessAdmission statelessStarted(StatelessCall call) {
    if (stopped) {
      return StatelessAdmission.STOPPED;
    }
    if (stateless.size() >= config.maxSessions) {
      return StatelessAdmission.FULL;
    }
    stateless.add(call);
    if (stopped) { // close() ran meanwhile and may have missed it
      stateless.remove(call);
      return StatelessAdmission.STOPPED;
    }
    return StatelessAdmission.OK;
  }

  /** A 2026 request's exchange ended (answered, cancelled or closed). Once per call. */
  void statelessEnded(StatelessCall call) {
    stateless.remove(call);
  }

  /** Open sessions, both transports. */
  public int sessionCount() {
    return sessionCount.get();
  }

  /** Ends every session and refuses new ones. Idempotent. */
  public void close() {
    lifecycle.lock();
    try {
      stopped = true;
      if (sweep != null) {
        sweep.cancel();
        sweep = null;
      }
    } finally {
      lifecycle.unlock();
    }
    if (cluster != null && started) {
      cluster.stop(); // this node's sessions end here only; the others keep serving them
    }
    for (HttpSession session : new ArrayList<>(sessions.values())) {
      session.close();
    }
    for (LegacySession session : new ArrayList<>(legacySessions.values())) {
      session.shutdown();
    }
    for (StatelessCall call : new ArrayList<>(stateless)) {
      call.shutdown();
    }
  }

  /** The outcome of {@link #reserveSession}. */
  enum Admission {
    OK,
    /** Every session slot of the endpoint is taken. */
    FULL,
    /** This client holds its share of the slots. */
    CLIENT_FULL
  }

  /**
   * Reserves a session slot for {@code client} (its remote address), within the global and the
   * per-client limit. A reservation that returns {@link Admission#OK} must be handed to a session
   * with {@link #bind}, whose end gives it back through {@link #sessionEnded}.
   */
  Admission reserveSession(String client) {
    while (true) {
      int n = sessionCount.get();
      if (n >= config.maxSessions || stopped) {
        return Admission.FULL;
      }
      if (sessionCount.compareAndSet(n, n + 1)) {
        break;
      }
    }
    boolean[] admitted = {false};
    perClient.compute(
        client,
        (k, held) -> {
          int h = held == null ? 0 : held;
          if (h >= config.maxSessionsPerClient) {
            return held;
          }
          admitted[0] = true;
          return h + 1;
        });
    if (!admitted[0]) {
      sessionCount.decrementAndGet();
      return Admission.CLIENT_FULL;
    }
    return Admission.OK;
  }

  /**
   * Reserves a slot for a copy of another node's session (a cluster replica), within the global
   * limit only: the session took its client's slot on the node that made it, and a copy is not a
   * new session, so it never counts against {@code maxSessionsPerClient} here (behind a balancer
   * every client shares one address, and copies would fill that share). A reservation that
   * returns true is given back through {@link #sessionEnded}.
   */
  boolean reserveReplica() {
    while (true) {
      int n = sessionCount.get();
      if (n >= config.maxSessions || stopped) {
        return false;
      }
      if (sessionCount.compareAndSet(n, n + 1)) {
        return true;
      }
    }
  }

  /**
   * Gives back a slot {@link #reserveReplica} took that no session used (another thread restored
   * the same session first). Unlike {@link #sessionEnded}, it leaves the session's binding alone.
   */
  void replicaNotNeeded() {
    sessionCount.decrementAndGet();
  }

  /** Counts the session {@code sessionId} against the slot reserved for {@code client}. */
  void bind(String sessionId, String client) {
    clientOf.put(sessionId, client);
  }

  /** A session ended: gives its slot back, globally and to its client. Once per session. */
  void sessionEnded(String sessionId) {
    sessionCount.decrementAndGet();
    String client = clientOf.remove(sessionId);
    if (client != null) {
      perClient.computeIfPresent(client, (k, held) -> held <= 1 ? null : held - 1);
    }
  }

  /** Sessions open for {@code client}, for tests. */
  int sessionsOf(String client) {
    return perClient.getOrDefault(client, 0);
  }

  /**
   * Forgets a session at once (its slot given back) if it is still registered; true if it was.
   * Used when an {@code initialize} fails, so no session outlives the answer that refuses it.
   */
  boolean forget(HttpSession s) {
    if (sessions.remove(s.id, s)) {
      sessionEnded(s.id);
      return true;
    }
    return false;
  }

  /** A new session in a slot reserved for {@code client}, connected to the MCP server. */
  HttpSession newSession(String client, dev.herald.auth.@Nullable Principal owner) {
    HttpSession s = new HttpSession(this, newSessionId(), owner);
    bind(s.id, client);
    sessions.put(s.id, s);
    s.connect();
    ClusterLink link = cluster;
    ServerSession ss = s.serverSession();
    if (link != null && ss != null) {
      link.connected(s, ss);
    }
    return s;
  }

  static long randomLong() {
    return RANDOM.nextLong();
  }

  static String newSessionId() {
    byte[] b = new byte[16];
    RANDOM.nextBytes(b);
    return Base64.getUrlEncoder().withoutPadding().encodeToString(b);
  }

  private void sweepAndReschedule() {
    sweep();
    lifecycle.lock();
    try {
      if (!stopped) {
        sweep = config.scheduler.schedule(this::sweepAndReschedule, sweepNanos);
      }
    } finally {
      lifecycle.unlock();
    }
  }

  /**
   * Ends idle sessions (both transports) and sends keep-alive comments on quiet streams, 2026
   * request streams included.
   */
  public void sweep() {
    long now = config.ticker.nanos();
    long sysNow = System.nanoTime();
    for (HttpSession s : sessions.values()) {
      if (s.idleSince(now, config.idleTimeoutNanos)) {
        LOG.log(System.Logger.Level.DEBUG, "session {0} idle: ended", s.id);
        s.close();
      } else if (s.keepAlive(sysNow, config.keepAliveNanos, config.keepAliveFailures)) {
        LOG.log(System.Logger.Level.DEBUG, "session {0} takes no keep-alives: evicted", s.id);
        s.evict();
      }
    }
    for (LegacySession s : legacySessions.values()) {
      if (s.idleSince(now, config.idleTimeoutNanos)) {
        LOG.log(System.Logger.Level.DEBUG, "legacy session {0} idle: ended", s.id);
        s.shutdown();
      } else {
        // a client that left fails the write; one that stopped reading stalls it
        s.keepAlive(sysNow, config.keepAliveNanos, config.keepAliveFailures);
      }
    }
    // A 2026 stream is probed at least every statelessStreamAfter (1 s by default): containers
    // notice a client that left only when a write fails, and that departure is the request's
    // cancellation.
    long probe = Math.min(config.keepAliveNanos, config.statelessStreamAfterNanos);
    for (StatelessCall c : stateless) {
      c.keepAlive(sysNow, probe, config.keepAliveNanos * config.keepAliveFailures);
    }
  }
}
