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
import java.util.ArrayList;
import java.util.List;
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
   * (a notification delivered by the container's thread, virtual or not) it is not waited for. A session whose
   * first record fails while its {@code initialize} is answered is refused (an error instead of
   * a session id): kept, it would be unknown to every other node and given up by its client,
   * holding a slot of this node until its idle timeout.
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
    long claimedAt = System.currentTimeMillis();
    boolean claim = s.takeHomeClaim() && claimHere(s, ss, claimedAt);
    CompletableFuture<?> done =
        seam.stateChanged(
            s.id, state.get().withOwner(s.ownerParty()), claim ? nodeId() : null, claimedAt);
    if (claim) {
      done.whenComplete((ok, failure) -> {
        if (failure != null) {
          s.claimHome(); // the next change claims it again
        }
      });
    }
    if (Thread.currentThread().isVirtual() && !VirtualIoThreads.isIoThread()) {
      try {
        done.get(RECORD_TIMEOUT_SECONDS, TimeUnit.SECONDS);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
      } catch (java.util.concurrent.ExecutionException e) {
        LOG.log(Level.DEBUG, "[{0}] state not recorded in the cluster: {1}", s.id, e.toString());
        if (claim) {
          // Not in the directory, so no other node could serve it: a session being initialized
          // is refused (its client tries again) rather than handed out and abandoned.
          s.refuseInitialize();
        }
      } catch (Exception e) {
        // slow, not failed: the record is still on its way
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
    // dated now, under the lock: a claim made before it and heard after it is then ignored
    moveHome(s, nodeId(), System.currentTimeMillis());
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
                  HttpSession s = replica(id, found.get());
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

  /**
   * This node's session {@code id}, restored from {@code record} unless it exists already; null
   * if the endpoint's session limit is reached. The copy takes a slot of the global limit only,
   * never of a client's share ({@link Endpoint#reserveReplica}).
   */
  @Nullable HttpSession replica(String id, ClusterSeam.SessionRecord record) {
    HttpSession existing = endpoint.sessions.get(id);
    if (existing != null) {
      return existing;
    }
    if (!endpoint.reserveReplica()) {
      return null;
    }
    // Bound to the party that created it on its first node: another party is refused it here
    // as there (a 404, as for an unknown session).
    SessionState.Owner owner = record.state().owner();
    HttpSession s = new HttpSession(endpoint, id, owner == null ? null : owner.principal());
    existing = endpoint.sessions.putIfAbsent(id, s);
    if (existing != null) {
      endpoint.replicaNotNeeded(); // the slot we reserved was not needed after all
      return existing;
    }
    boolean home = record.homeNode().equals(nodeId());
    s.homeNode(home ? null : record.homeNode());
    s.connectReplica(record.state(), home);
    if (record.homeClaimedAt() > 0) {
      moveHome(s, record.homeNode(), record.homeClaimedAt()); // its date: later claims only
    }
    // A change recorded by another node while this copy was being made was told to the nodes
    // holding a copy, not yet to this one: read the state once more now that it is registered,
    // before the copy serves anything (so the read cannot undo a change made here).
    try {
      seam.lookup(id)
          .get(LOOKUP_TIMEOUT_SECONDS, TimeUnit.SECONDS)
          .ifPresent(r -> refreshed(id, r.state(), null, 0));
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
        ClusterAccess.get()
            .snapshot(ss)
            .ifPresent(state -> out.put(s.id, state.withOwner(s.ownerParty())));
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
                  replica(sessionId, new ClusterSeam.SessionRecord(r.state(), nodeId()));
              if (restored != null && !restored.isClosed()) {
                restored.standing().publish(json, false);
              }
            }));
  }

  /**
   * Another node changed the session's state, and its home unless {@code homeNode} is null. A home
   * claim older than the one this node knows (made before it, heard after it: a busy node's
   * message, or a queue behind) is ignored with the state it carries, which is no newer: applied,
   * it would close the client's standing GET on the real home.
   */
  void refreshed(String sessionId, SessionState state, @Nullable String homeNode, long claimedAt) {
    HttpSession s = endpoint.sessions.get(sessionId);
    ServerSession ss = s == null ? null : s.serverSession();
    if (s == null || ss == null || s.isClosed()) {
      return;
    }
    if (homeNode != null && claimedAt < s.homeClaimedAt()) {
      return; // stale (checked again under the lock, below)
    }
    ClusterAccess.get().refresh(ss, state);
    if (homeNode != null) {
      moveHome(s, homeNode, claimedAt);
    }
  }

  /**
   * This node's own home claim for {@code s}, dated {@code at}: taken unless this node is no
   * longer the home (a later claim moved it; retrying an unrecorded claim must not take it back).
   */
  private static boolean claimHere(HttpSession s, ServerSession ss, long at) {
    s.homeLock().lock();
    try {
      if (s.homeNode() != null) {
        return false;
      }
      s.homeClaimedAt(Math.max(at, s.homeClaimedAt()));
      ClusterAccess.get().home(ss, true);
      return true;
    } finally {
      s.homeLock().unlock();
    }
  }

  /**
   * The session's home is {@code homeNode} by a claim made at {@code claimedAt}, unless this node
   * knows a later claim. When the home moved away from this node, its standing connection is
   * closed (the client's GET is on the new home now).
   */
  private void moveHome(HttpSession s, String homeNode, long claimedAt) {
    ServerSession ss = s.serverSession();
    if (ss == null) {
      return;
    }
    boolean home = homeNode.equals(nodeId());
    boolean wasHome;
    s.homeLock().lock();
    try {
      if (claimedAt < s.homeClaimedAt()) {
        return; // a later claim is known here: this one is stale
      }
      s.homeClaimedAt(claimedAt);
      wasHome = s.homeNode() == null;
      s.homeNode(home ? null : homeNode);
      ClusterAccess.get().home(ss, home);
    } finally {
      s.homeLock().unlock();
    }
    if (wasHome && !home) {
      SseStream standing = s.standingIfOpen();
      if (standing != null) {
        standing.closeConnection(); // the client's GET is on the new home now
      }
    }
  }

  // ---------------------------------------------------------------- resuming streams across nodes

  /** How often a node following a stream checks that its producer answered and is alive. */
  static final long FOLLOW_CHECK_NANOS = TimeUnit.SECONDS.toNanos(2);

  /**
   * How many checks a follower waits for the answer of a producer that is alive before it ends
   * its connection (the client resumes again).
   */
  static final int FOLLOW_TRIES = 10;

  /** The error a resumed stream ends with when the node running its request stopped. */
  static final String NODE_STOPPED =
      "The server node running this request stopped before it answered; the request's outcome is"
          + " unknown";

  /** Streams this node follows for its clients, by session and stream id. */
  private final java.util.concurrent.ConcurrentHashMap<String, Followed> followed =
      new java.util.concurrent.ConcurrentHashMap<>();

  private static String key(String sessionId, String streamId) {
    return sessionId + "\n" + streamId;
  }

  /** A stream another node produces, resumed here by its client. */
  private static final class Followed {
    final HttpSession session;
    final SseStream stream;
    final String producer;
    final byte[] failure;
    final RequestId request;
    volatile boolean answered;

    /** Checks made without an answer (the check's thread only). */
    int tries;

    Followed(
        HttpSession session, SseStream stream, String producer, byte[] failure, RequestId request) {
      this.session = session;
      this.stream = stream;
      this.producer = producer;
      this.failure = failure;
      this.request = request;
    }

    String key() {
      return ClusterLink.key(session.id, stream.id);
    }

    boolean isResponse(byte[] json) {
      return MessageCodec.decode(json) instanceof DecodedMessage.Valid v
          && v.message() instanceof JsonRpcMessage.Response r
          && request.equals(r.id());
    }
  }

  /**
   * A request's stream switched to SSE here: recorded with the error that ends it on another node
   * if this one dies first. Awaited (bounded): a client holds an event id of it only after this.
   */
  void streamOpened(HttpSession s, String streamId, RequestId request) {
    byte[] failure =
        MessageCodec.encode(
            new JsonRpcMessage.Error(
                request,
                new JsonRpcMessage.ErrorObject(ErrorCodes.INTERNAL_ERROR, NODE_STOPPED, null)));
    try {
      seam.streamOpened(s.id, streamId, failure).get(RECORD_TIMEOUT_SECONDS, TimeUnit.SECONDS);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    } catch (Exception e) {
      LOG.log(Level.DEBUG, "[{0}] stream {1} not recorded in the cluster: {2}", s.id, streamId, e);
    }
  }

  /**
   * The session's standing stream was made here: recorded (not awaited), so that a node a client
   * resumes it on can replay its stored events before taking it over.
   */
  void standingOpened(HttpSession s, String streamId) {
    seam.streamOpened(s.id, streamId, new byte[0])
        .whenComplete((ok, failure) -> {
          if (failure != null) {
            LOG.log(Level.DEBUG, "[{0}] standing stream not recorded: {1}", s.id, failure);
          }
        });
  }

  /** Attaches a GET to a stream of this node, after {@code prelude}; true if attached. */
  @FunctionalInterface
  interface Attacher {
    boolean attach(SseStream stream, long after, List<SseSink.Frame> prelude);
  }

  /**
   * A standing stream made by another node, resumed here: this node becomes the session's home
   * (the previous home closes its standing connection), then the client gets the stream's stored
   * events after {@code after}, then this node's own standing stream.
   */
  private void takeOverStanding(
      HttpSession s, String streamId, long after, Exchange ex, Attacher attach) {
    // Home first (recorded and published before the replay), so the previous home stops adding
    // to its standing stream before this node reads it: what it added until then is replayed.
    openedHere(s);
    List<SseSink.Frame> prelude = new ArrayList<>();
    boolean complete;
    try {
      complete =
          s.store()
              .replay(
                  s.id,
                  streamId,
                  after,
                  (seq, json) -> prelude.add(SseStream.foreignEvent(streamId, seq, json)));
    } catch (RuntimeException e) {
      unavailable(ex);
      return;
    }
    if (!complete) {
      HttpExchanges.reject(ex, 400, "Bad Request: unknown Last-Event-ID");
      return;
    }
    attach.attach(s.standing(), -1, prelude);
  }

  /**
   * {@code Last-Event-ID} names a stream this node does not hold (docs/scale-out.md, "Resuming on
   * another node"): if the cluster knows it, it is made here, {@code attach} attaches the client
   * (replaying from the shared store), and it is followed: caught up from the store, then fed by
   * its producer, or ended with a JSON-RPC error if the producer is dead. 400 if no node knows
   * it, 503 if the cluster cannot be reached.
   */
  void resume(HttpSession s, String streamId, long after, Exchange ex, Attacher attach) {
    Thread.ofVirtual()
        .name("herald-cluster-resume")
        .start(() -> {
          Optional<ClusterSeam.StreamRecord> record;
          try {
            record = seam.stream(s.id, streamId).get(LOOKUP_TIMEOUT_SECONDS, TimeUnit.SECONDS);
          } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            unavailable(ex);
            return;
          } catch (Exception e) {
            unavailable(ex);
            return;
          }
          if (record.isPresent() && record.get().failure().isEmpty()) {
            takeOverStanding(s, streamId, after, ex, attach);
            return;
          }
          RequestId request =
              record.isEmpty()
                  ? null
                  : MessageCodec.decode(
                                  record
                                      .get()
                                      .failure()
                                      .getBytes(java.nio.charset.StandardCharsets.UTF_8))
                              instanceof DecodedMessage.Valid v
                          && v.message() instanceof JsonRpcMessage.Error e
                      ? e.id()
                      : null;
          if (record.isEmpty() || request == null) {
            HttpExchanges.reject(ex, 400, "Bad Request: unknown Last-Event-ID");
            return;
          }
          SseStream stream = s.followed(streamId, request, after);
          Followed f =
              new Followed(
                  s,
                  stream,
                  record.get().node(),
                  record.get().failure().getBytes(java.nio.charset.StandardCharsets.UTF_8),
                  request);
          boolean mine = followed.putIfAbsent(f.key(), f) == null;
          if (!attach.attach(stream, after, List.of()) || !mine) {
            return; // refused, or a resumption already follows it
          }
          try {
            if (stream.catchUp(f::isResponse)) {
              followed.remove(f.key(), f);
              return;
            }
          } catch (RuntimeException e) {
            LOG.log(Level.DEBUG, "[{0}] catching up on {1} failed: {2}", s.id, streamId, e);
          }
          if (f.producer.equals(nodeId())) {
            producerGone(f); // it was produced here, by a copy of the session that is gone
            return;
          }
          seam.follow(f.producer, s.id, streamId);
          scheduleCheck(f);
        });
  }

  private void scheduleCheck(Followed f) {
    endpoint.config.scheduler.schedule(
        () -> Thread.ofVirtual().name("herald-cluster-follow").start(() -> check(f)),
        FOLLOW_CHECK_NANOS);
  }

  /**
   * Every {@link #FOLLOW_CHECK_NANOS} while a followed stream runs: a producer whose heartbeat
   * expired is dead, so the stream ends with {@link #NODE_STOPPED}; one that is alive but has not
   * answered is asked again, and after {@link #FOLLOW_TRIES} the connection ends (the client
   * resumes again, maybe on another node).
   */
  private void check(Followed f) {
    if (f.stream.ended() || f.session.isClosed() || followed.get(f.key()) != f) {
      followed.remove(f.key(), f);
      return;
    }
    boolean alive;
    try {
      alive = seam.alive(f.producer);
    } catch (RuntimeException e) {
      alive = true; // cannot tell now: look again later
    }
    if (!alive) {
      producerGone(f);
      return;
    }
    if (!f.answered) {
      if (++f.tries >= FOLLOW_TRIES) {
        dropFollowed(f);
        return;
      }
      seam.follow(f.producer, f.session.id, f.stream.id);
    }
    scheduleCheck(f);
  }

  /** The producer is dead or holds the stream no more: what the store has, then the error. */
  private void producerGone(Followed f) {
    followed.remove(f.key(), f);
    try {
      if (f.stream.catchUp(f::isResponse)) {
        return; // the response was stored before the producer went
      }
    } catch (RuntimeException e) {
      LOG.log(Level.DEBUG, "[{0}] final catch-up of {1} failed: {2}", f.session.id, f.stream.id, e);
    }
    f.stream.endFollowed(f.failure, false);
  }

  private void dropFollowed(Followed f) {
    followed.remove(f.key(), f);
    f.session.forgetStream(f.stream);
    f.stream.unfollowed();
  }

  void followRequested(String sessionId, String streamId, String follower) {
    HttpSession s = endpoint.sessions.get(sessionId);
    SseStream stream = s == null || s.isClosed() ? null : s.stream(streamId);
    if (stream == null) {
      seam.following(follower, sessionId, streamId, 0, ClusterSeam.FollowState.GONE);
      return;
    }
    stream.followedBy(follower);
  }

  void followAnswered(String sessionId, String streamId, long seq, ClusterSeam.FollowState state) {
    Followed f = followed.get(key(sessionId, streamId));
    if (f == null) {
      return;
    }
    f.answered = true;
    switch (state) {
      case LIVE -> {
        try {
          f.stream.catchUp(f::isResponse); // what was stored before the producer took us on
        } catch (RuntimeException e) {
          dropFollowed(f); // events would be missing: the client resumes again
        }
      }
      case ENDED, GONE -> producerGone(f);
      case CANCELLED -> {
        followed.remove(f.key(), f);
        try {
          f.stream.catchUp(f::isResponse);
        } catch (RuntimeException e) {
          // what is left is lost with the store; the stream ends as its request did
        }
        f.stream.endFollowed(null, true);
      }
    }
  }

  void streamEvent(String sessionId, String streamId, long seq, byte[] json, boolean last) {
    Followed f = followed.get(key(sessionId, streamId));
    if (f == null) {
      return;
    }
    f.stream.remoteEvent(seq, json, last);
    if (last) {
      followed.remove(f.key(), f);
    }
  }

  void unfollowed(String sessionId, String streamId) {
    Followed f = followed.get(key(sessionId, streamId));
    if (f != null) {
      dropFollowed(f);
    }
  }

  void ended(String sessionId) {
    HttpSession s = endpoint.sessions.get(sessionId);
    if (s != null) {
      s.close();
    }
  }
}
