package dev.herald.http.internal;

import dev.herald.internal.server.ClusterAccess;
import dev.herald.internal.server.SessionState;
import dev.herald.internal.session.EngineAccess;
import dev.herald.internal.session.SessionEngine;
import dev.herald.server.ServerSession;
import dev.herald.wire.CancelledNotificationParams;
import dev.herald.wire.DecodedMessage;
import dev.herald.wire.ErrorCodes;
import dev.herald.wire.JsonRpcMessage;
import dev.herald.wire.McpJson;
import dev.herald.wire.McpMethods;
import dev.herald.wire.MessageCodec;
import dev.herald.wire.ProgressNotificationParams;
import dev.herald.wire.ProgressToken;
import dev.herald.wire.RequestId;
import java.lang.System.Logger.Level;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;
import org.jspecify.annotations.Nullable;
import tools.jackson.databind.node.ObjectNode;

/**
 * The endpoint's side of a cluster (docs/scale-out.md): sessions this node does not know are
 * served from the directory's record, state changes are recorded there, unsolicited messages of a
 * session whose standing stream is elsewhere are relayed to that node, and client messages for a
 * request or call running elsewhere are forwarded.
 *
 * <p>Design note. Nothing forwards whole requests: the node that receives a request runs it and
 * answers on that request's own stream, which is on this node. What crosses nodes is only what
 * must reach a stream (or a handler) held by another. A directory lookup is bounded ({@link
 * #LOOKUP_TIMEOUT_SECONDS}); a directory that cannot be reached is a 503 with a JSON-RPC error,
 * never a hung request.
 *
 * <p>Thread-safe.
 */
final class ClusterLink {
  private static final System.Logger LOG = System.getLogger("dev.herald.http");

  /** How long a request waits for the session directory before it is refused with 503. */
  static final long LOOKUP_TIMEOUT_SECONDS = 5;

  /** How often, at most, a session's use on this node pushes back its record's expiry. */
  static final long TOUCH_INTERVAL_SECONDS = 30;

  /** How long a handler thread waits for its state change to be recorded. */
  static final long RECORD_TIMEOUT_SECONDS = 2;

  final Endpoint endpoint;
  final ClusterSeam seam;
  final ClusterHost host;

  ClusterLink(Endpoint endpoint, ClusterSeam seam) {
    this.endpoint = endpoint;
    this.seam = seam;
    this.host = new ClusterHost(this);
  }

  void start() {
    seam.attach(host);
  }

  void stop() {
    seam.detach(host);
  }

  String nodeId() {
    return seam.nodeId();
  }

  // ---------------------------------------------------------------- sessions of this node

  /** A session started or restored here: its state changes are recorded in the directory. */
  void connected(HttpSession s, ServerSession ss) {
    if (s.homeNode() == null) {
      s.claimHome(); // started here: its first record names this node its home
    }
    ClusterAccess.get().onStateChange(ss, () -> record(s));
  }

  /**
   * Records the session's state and home. On a handler's (virtual) thread the change is recorded
   * before the handler answers, so the client's next request, on any node, sees it; elsewhere
   * (a notification delivered by the container's thread) it is not waited for.
   */
  void record(HttpSession s) {
    ServerSession ss = s.serverSession();
    if (ss == null) {
      return;
    }
    Optional<SessionState> state = ClusterAccess.get().snapshot(ss);
    if (state.isEmpty()) {
      return;
    }
    boolean claim = s.takeHomeClaim();
    CompletableFuture<?> done = seam.stateChanged(s.id, state.get(), claim ? nodeId() : null);
    if (claim) {
      done.whenComplete((ok, failure) -> {
        if (failure != null) {
          s.claimHome(); // the next change claims it again
        }
      });
    }
    if (Thread.currentThread().isVirtual()) {
      try {
        done.get(RECORD_TIMEOUT_SECONDS, TimeUnit.SECONDS);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
      } catch (Exception e) {
        LOG.log(Level.DEBUG, "[{0}] state not recorded in the cluster: {1}", s.id, e.toString());
      }
    }
  }

  /** The client used {@code s} here: its directory record lives on (throttled). */
  void used(HttpSession s) {
    if (s.touchDue(TimeUnit.SECONDS.toNanos(TOUCH_INTERVAL_SECONDS))) {
      seam.touched(s.id);
    }
  }

  /** A standing GET opened here: this node is now the session's home. */
  void openedHere(HttpSession s) {
    if (s.homeNode() == null) {
      return;
    }
    s.homeNode(null);
    ServerSession ss = s.serverSession();
    if (ss != null) {
      ClusterAccess.get().home(ss, true);
    }
    s.claimHome();
    record(s);
  }

  /**
   * Finds the session {@code id} for {@code ex}: this node's, or one restored from the directory.
   * Answers 404 when no node knows it and 503 when the directory cannot be reached in time.
   */
  void withSession(String id, Exchange ex, Consumer<HttpSession> then) {
    seam.lookup(id)
        .orTimeout(LOOKUP_TIMEOUT_SECONDS, TimeUnit.SECONDS)
        .whenComplete((found, failure) ->
            Thread.ofVirtual()
                .name("herald-cluster-lookup")
                .start(() -> {
                  if (failure != null) {
                    LOG.log(Level.DEBUG, "[{0}] directory lookup failed: {1}", id, failure);
                    unavailable(ex);
                    return;
                  }
                  if (found == null || found.isEmpty()) {
                    HttpExchanges.reject(ex, 404, "Session not found");
                    return;
                  }
                  HttpSession s = replica(id, found.get(), ex.remoteAddress());
                  if (s == null) {
                    HttpExchanges.error(
                        ex,
                        503,
                        null,
                        ErrorCodes.LIMIT_EXCEEDED,
                        "Server busy: the session limit ("
                            + endpoint.config.maxSessions
                            + ") is reached; try again later");
                    return;
                  }
                  if (s.isClosed()) {
                    HttpExchanges.reject(ex, 404, "Session not found");
                    return;
                  }
                  then.accept(s);
                }));
  }

  static void unavailable(Exchange ex) {
    HttpExchanges.error(
        ex,
        503,
        null,
        ErrorCodes.INTERNAL_ERROR,
        "Service unavailable: the cluster's session directory cannot be reached; try again");
  }

  /** This node's session {@code id}, restored from {@code record} unless it exists already. */
  @Nullable HttpSession replica(String id, ClusterSeam.SessionRecord record, String client) {
    HttpSession existing = endpoint.sessions.get(id);
    if (existing != null) {
      return existing;
    }
    if (endpoint.reserveSession(client) != Endpoint.Admission.OK) {
      return null;
    }
    HttpSession s = new HttpSession(endpoint, id);
    existing = endpoint.sessions.putIfAbsent(id, s);
    if (existing != null) {
      endpoint.sessionEnded(id); // the slot we reserved was not needed after all
      return existing;
    }
    endpoint.bind(id, client);
    boolean home = record.homeNode().equals(nodeId());
    s.homeNode(home ? null : record.homeNode());
    s.connectReplica(record.state(), home);
    // A change recorded by another node while this copy was being made was told to the nodes
    // holding a copy, not yet to this one: read the state once more now that it is registered,
    // before the copy serves anything (so the read cannot undo a change made here).
    try {
      seam.lookup(id)
          .get(LOOKUP_TIMEOUT_SECONDS, TimeUnit.SECONDS)
          .ifPresent(r -> refreshed(id, r.state(), null));
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    } catch (Exception e) {
      LOG.log(Level.DEBUG, "[{0}] second directory read failed: {1}", id, e.toString());
    }
    return s;
  }

  java.util.Map<String, SessionState> homeSessions() {
    java.util.Map<String, SessionState> out = new java.util.LinkedHashMap<>();
    for (HttpSession s : endpoint.sessions.values()) {
      ServerSession ss = s.serverSession();
      if (s.homeNode() == null && ss != null && !s.isClosed()) {
        ClusterAccess.get().snapshot(ss).ifPresent(state -> out.put(s.id, state));
      }
    }
    return out;
  }

  // ---------------------------------------------------------------- client messages

  /**
   * Whether a client message is for a request or call another node holds: then it is forwarded
   * there (true) instead of being delivered here.
   */
  boolean forwardedElsewhere(HttpSession s, JsonRpcMessage message) {
    ServerSession ss = s.serverSession();
    if (ss == null || heldHere(EngineAccess.of(ss), message)) {
      return false;
    }
    if (!relatesToCall(message)) {
      return false;
    }
    seam.forward(s.id, MessageCodec.encode(message));
    return true;
  }

  private static boolean relatesToCall(JsonRpcMessage m) {
    return switch (m) {
      case JsonRpcMessage.Notification n ->
          McpMethods.CANCELLED.equals(n.method()) || McpMethods.PROGRESS.equals(n.method());
      case JsonRpcMessage.Response r -> r.id() != null;
      case JsonRpcMessage.Request r -> false;
    };
  }

  /** Whether {@code engine} holds what {@code m} is about (anything else is held here). */
  private static boolean heldHere(SessionEngine engine, JsonRpcMessage m) {
    return switch (m) {
      case JsonRpcMessage.Notification n when McpMethods.CANCELLED.equals(n.method()) -> {
        RequestId id = requestId(n.params());
        yield id == null || engine.serves(id);
      }
      case JsonRpcMessage.Notification n when McpMethods.PROGRESS.equals(n.method()) -> {
        ProgressToken token = token(n.params());
        yield token == null || engine.tracksProgress(token);
      }
      case JsonRpcMessage.Response r -> r.id() == null || engine.awaits(r.id());
      default -> true;
    };
  }

  private static @Nullable RequestId requestId(@Nullable ObjectNode params) {
    try {
      return McpJson.fromTree(params, CancelledNotificationParams.class).requestId();
    } catch (RuntimeException e) {
      return null;
    }
  }

  private static @Nullable ProgressToken token(@Nullable ObjectNode params) {
    try {
      return McpJson.fromTree(params, ProgressNotificationParams.class).progressToken();
    } catch (RuntimeException e) {
      return null;
    }
  }

  // ---------------------------------------------------------------- from other nodes

  void forwarded(String sessionId, byte[] json) {
    HttpSession s = endpoint.sessions.get(sessionId);
    ServerSession ss = s == null ? null : s.serverSession();
    if (s == null || ss == null || s.isClosed()) {
      return;
    }
    if (MessageCodec.decode(json) instanceof DecodedMessage.Valid v
        && heldHere(EngineAccess.of(ss), v.message())) {
      s.deliver(v);
    }
  }

  void relayed(String sessionId, byte[] json) {
    HttpSession s = endpoint.sessions.get(sessionId);
    if (s != null) {
      if (!s.isClosed()) {
        s.standing().publish(json, false);
      }
      return;
    }
    // This node is the session's home in the directory but no longer holds it (it was idle here):
    // restore it as home, so the message waits on its standing stream for the client's GET.
    seam.lookup(sessionId)
        .orTimeout(LOOKUP_TIMEOUT_SECONDS, TimeUnit.SECONDS)
        .thenAccept(found ->
            found.ifPresent(r -> {
              HttpSession restored =
                  replica(sessionId, new ClusterSeam.SessionRecord(r.state(), nodeId()), "cluster");
              if (restored != null && !restored.isClosed()) {
                restored.standing().publish(json, false);
              }
            }));
  }

  void refreshed(String sessionId, SessionState state, @Nullable String homeNode) {
    HttpSession s = endpoint.sessions.get(sessionId);
    ServerSession ss = s == null ? null : s.serverSession();
    if (s == null || ss == null || s.isClosed()) {
      return;
    }
    ClusterAccess.get().refresh(ss, state);
    if (homeNode == null) {
      return; // the home did not change
    }
    boolean home = homeNode.equals(nodeId());
    boolean wasHome = s.homeNode() == null;
    s.homeNode(home ? null : homeNode);
    ClusterAccess.get().home(ss, home);
    if (wasHome && !home) {
      SseStream standing = s.standingIfOpen();
      if (standing != null) {
        standing.closeConnection(); // the client's GET is on the new home now
      }
    }
  }

  void ended(String sessionId) {
    HttpSession s = endpoint.sessions.get(sessionId);
    if (s != null) {
      s.close();
    }
  }
}
