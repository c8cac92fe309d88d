package dev.herald.http.internal;

import dev.herald.http.EventStore;
import dev.herald.internal.session.EngineAccess;
import dev.herald.server.ServerSession;
import dev.herald.session.EventListener;
import dev.herald.transport.Transport;
import dev.herald.transport.TransportException;
import dev.herald.wire.DecodedMessage;
import dev.herald.wire.EncodedMessage;
import dev.herald.wire.JsonRpcMessage;
import dev.herald.wire.MessageCodec;
import dev.herald.wire.ProtocolVersion;
import dev.herald.wire.RequestId;
import java.lang.System.Logger.Level;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.locks.ReentrantLock;
import org.jspecify.annotations.Nullable;

/**
 * One Streamable HTTP session: the {@link Transport} its {@link ServerSession} writes to, the
 * open POST streams by request id, the standing stream, and the streams kept for resumption.
 *
 * <p>Design note (MCP 2025-11-25 basic/transports, "Sending Messages to the Server", "Listening
 * for Messages from the Server", "Multiple Connections"; docs/architecture.md and
 * docs/notifications.md, "Routing"). {@link #route} is the
 * one place a message picks its stream: the open stream of the request it relates to (a
 * response is related to its own id); failing that, the standing stream, which exists from the
 * first message that needs it, so what arrives before any GET waits in its bounded store and is
 * flushed when a GET opens. A response never goes on the standing stream. Each message is
 * encoded once, here, or once per fan-out by the server ({@link
 * Transport#send(EncodedMessage, RequestId)}). Inbound frames are handed to the engine one at a time ({@link
 * #inboundLock}), as the transport SPI promises.
 *
 * <p>Thread-safe. This object's monitor guards {@link #streams} and the creation of {@link
 * #standing} (short sections that never block or call out); it is never held while taking a
 * stream's lock. The standing stream is kept in its field only, and {@link #streams} holds the
 * others (POST streams switched to SSE, and streams followed from another node), made on the
 * first of them: an idle session with only its standing GET holds no map.
 */
public final class HttpSession {
  private static final System.Logger LOG = System.getLogger("dev.herald.http");

  /** Ended POST streams kept for resumption, per session. */
  private static final int KEPT_STREAMS = 32;

  final String id;

  /**
   * Starts every stream id of this session, so event ids are bound to it: a {@code Last-Event-ID}
   * taken from another session's stream names no stream here and is refused like an unknown one.
   * 18 random decimal digits (stream ids stay decimal: no {@code _}, which separates the stream
   * from the sequence number, and ASCII as {@link SseStream#eventHead} needs).
   */
  private final long streamTag =
      100_000_000_000_000_000L + Math.floorMod(Endpoint.randomLong(), 900_000_000_000_000_000L);

  private final Endpoint endpoint;
  private final EndpointConfig config;
  private final ReentrantLock inboundLock = new ReentrantLock();
  // Sized for the few requests a session has open at once (the default table of 16 stays
  // allocated for the session's life once the first request used it: heap per idle session).
  private final ConcurrentHashMap<RequestId, SseStream> requests = new ConcurrentHashMap<>(2);

  /**
   * Streams other than the standing one, by id, for {@code Last-Event-ID}; null until the first.
   * Guarded by this object's monitor.
   */
  private @Nullable LinkedHashMap<String, SseStream> streams;

  private volatile long nextStream; // bumped through NEXT_STREAM
  private static final VarHandle NEXT_STREAM;

  static {
    try {
      NEXT_STREAM =
          MethodHandles.lookup().findVarHandle(HttpSession.class, "nextStream", long.class);
    } catch (ReflectiveOperationException e) {
      throw new ExceptionInInitializerError(e);
    }
  }

  private final HttpSessionTransport transport = new HttpSessionTransport();
  private volatile @Nullable SseStream standing;
  private volatile @Nullable ServerSession serverSession;
  private volatile Transport.@Nullable Receiver receiver;

  /** The server session's event listener (guarded), once connected. */
  private volatile EventListener events = EventListener.NONE;

  private volatile long lastActivity;

  /** When the client last sent a message ({@link System#nanoTime}), for keep-alive eviction. */
  private volatile long lastInboundNanos = System.nanoTime();

  private volatile boolean closed;

  /**
   * The session ends for every node (its {@code DELETE} arrived here), so its stored events go.
   * In a cluster a node that drops only its own copy (idle here, shutting down, another node's
   * {@code DELETE}) keeps the shared events: other nodes may still replay them.
   */
  private volatile boolean endsEverywhere;

  private volatile boolean initFailed;
  private volatile @Nullable RequestId initializeId;

  /**
   * In a cluster, the node holding this session's standing stream when it is not this one
   * (docs/scale-out.md); null on a single node and on the session's home.
   */
  private volatile @Nullable String homeNode;

  /**
   * The principal that created the session (its {@code initialize}), or null on an open endpoint;
   * on a session restored from a cluster's directory, the owner's party the directory carries.
   */
  private final dev.herald.auth.@Nullable Principal owner;

  HttpSession(Endpoint endpoint, String id, dev.herald.auth.@Nullable Principal owner) {
    this.owner = owner;
    this.endpoint = endpoint;
    this.config = endpoint.config;
    this.id = id;
    this.lastActivity = config.ticker.nanos();
  }

  /**
   * Whether {@code caller} may use this session: the same party as its owner ({@link
   * dev.herald.auth.Principal#sameParty}). A session without an owner (made on an open endpoint,
   * or restored from a directory record that carries none) is no party's.
   */
  boolean ownedBy(dev.herald.auth.Principal caller) {
    dev.herald.auth.Principal o = owner;
    return o != null && o.sameParty(caller);
  }

  /** The party that owns this session, as the cluster's directory keeps it; null if none. */
  dev.herald.internal.server.SessionState.@Nullable Owner ownerParty() {
    return dev.herald.internal.server.SessionState.Owner.of(owner);
  }

  /** Connects a new server session to this HTTP session. */
  void connect() {
    this.serverSession = config.mcp.connect(transport);
    events = EngineAccess.of(serverSession).events();
    EngineAccess.of(serverSession).onClose(this::terminate);
  }

  /**
   * Connects a server session restored from a cluster's directory: through its handshake already,
   * and this node's fan-out reaches it only if {@code home}.
   */
  void connectReplica(dev.herald.internal.server.SessionState state, boolean home) {
    var access = dev.herald.internal.server.ClusterAccess.get();
    ServerSession ss = access.restore(config.mcp, transport, state);
    access.home(ss, home);
    this.serverSession = ss;
    events = EngineAccess.of(ss).events();
    EngineAccess.of(ss).onClose(this::terminate);
    ClusterLink link = endpoint.cluster;
    if (link != null) {
      link.connected(this, ss);
    }
  }

  @Nullable String homeNode() {
    return homeNode;
  }

  /** Whether this node's next record of the session names it the home (cluster only). */
  private volatile boolean homeClaim;

  /** When this node last pushed back the session's directory expiry ({@link System#nanoTime}). */
  private volatile long directoryTouched = System.nanoTime();

  /** Whether {@code intervalNanos} passed since the last directory touch; if so, it is now. */
  boolean touchDue(long intervalNanos) {
    long now = System.nanoTime();
    if (now - directoryTouched < intervalNanos) {
      return false;
    }
    directoryTouched = now;
    return true;
  }

  void claimHome() {
    homeClaim = true;
  }

  boolean takeHomeClaim() {
    boolean c = homeClaim;
    homeClaim = false;
    return c;
  }

  void homeNode(@Nullable String node) {
    this.homeNode = node;
  }

  /**
   * Guards a change of {@link #homeNode} together with the date of the claim behind it; made on
   * first use (cluster only), under this object's monitor.
   */
  private volatile @Nullable ReentrantLock homeLock;

  ReentrantLock homeLock() {
    ReentrantLock l = homeLock;
    if (l == null) {
      synchronized (this) {
        l = homeLock;
        if (l == null) {
          l = new ReentrantLock();
          homeLock = l;
        }
      }
    }
    return l;
  }

  /**
   * The date of the latest home claim this node knows (ms since the epoch, the claiming node's
   * clock; 0: none); guarded by {@link #homeLock()}.
   */
  private long homeClaimedAt;

  long homeClaimedAt() {
    return homeClaimedAt;
  }

  void homeClaimedAt(long at) {
    this.homeClaimedAt = at;
  }

  /** The standing stream, if one was made. */
  @Nullable SseStream standingIfOpen() {
    return standing;
  }

  /** This node's side of its cluster, or null on a single node. */
  @Nullable ClusterLink cluster() {
    return endpoint.cluster;
  }

  /**
   * A stream produced by another node that a client resumes here ({@code Last-Event-ID}):
   * registered under its id, or the one registered meanwhile.
   */
  SseStream followed(String streamId, RequestId request, long afterSeq) {
    synchronized (this) {
      java.util.Map<String, SseStream> m = streamsLocked();
      SseStream s = m.get(streamId);
      if (s == null) {
        s = new SseStream(this, streamId, request, afterSeq);
        m.put(streamId, s);
      }
      return s;
    }
  }

  /** Forgets a stream this node no longer serves (another node took it over). */
  void forgetStream(SseStream s) {
    synchronized (this) {
      LinkedHashMap<String, SseStream> m = streams;
      if (m != null) {
        m.remove(s.id, s);
      }
    }
  }

  /** {@link #streams}, made on first use (under this object's monitor). */
  private java.util.Map<String, SseStream> streamsLocked() {
    LinkedHashMap<String, SseStream> m = streams;
    if (m == null) {
      m = new LinkedHashMap<>(4);
      streams = m;
    }
    return m;
  }

  /** Every stream of this session: the standing one first, then the others. */
  private List<SseStream> allStreams() {
    synchronized (this) {
      SseStream st = standing;
      LinkedHashMap<String, SseStream> m = streams;
      List<SseStream> all = new ArrayList<>((st == null ? 0 : 1) + (m == null ? 0 : m.size()));
      if (st != null) {
        all.add(st);
      }
      if (m != null) {
        all.addAll(m.values());
      }
      return all;
    }
  }

  EventStore store() {
    return config.eventStore;
  }

  boolean isClosed() {
    return closed;
  }

  @Nullable ServerSession serverSession() {
    return serverSession;
  }

  /**
   * In a cluster, the first record of a session being initialized failed (its directory cannot be
   * reached): no other node could serve the session, so its {@code initialize} is answered with an
   * error instead of a session id, and the session ends (see {@link #route}). True if the
   * {@code initialize} was still unanswered.
   */
  boolean refuseInitialize() {
    if (initializeId == null) {
      return false;
    }
    initFailed = true;
    return true;
  }

  /** The session id header value, or null when initialization failed (no session was made). */
  @Nullable String headerValue() {
    return initFailed ? null : id;
  }

  /** Whether streams start with a priming event: the negotiated version has SSE polling. */
  boolean priming() {
    ServerSession s = serverSession;
    return s != null && s.protocolVersion().map(ProtocolVersion::ssePolling).orElse(false);
  }

  byte[] retryField() {
    return config.retryField;
  }

  String retryText() {
    return config.retryText;
  }

  /** A new stream id: the session's tag, then the stream's number. */
  private String streamId() {
    return Long.toString(streamTag) + ((long) NEXT_STREAM.getAndAdd(this, 1L) + 1);
  }

  void touch() {
    lastActivity = config.ticker.nanos();
  }

  /** Where this session's stream events are reported. */
  EventListener events() {
    return events;
  }

  /**
   * A sink for {@code exchange}; {@code lock} is the lock it shares with its stream ({@link
   * SseStream#sinkLock}), or null for one of its own.
   */
  SseSink newSink(Exchange exchange, @Nullable ReentrantLock lock) {
    return new SseSink(
        exchange, config.queueFrames, config.queueBytes, id, System.nanoTime(), lock);
  }

  // ---------------------------------------------------------------- inbound

  /**
   * Accepts a POSTed request: registers its stream, then hands it to the engine.
   *
   * @return false if the id is already in use by an open request of this session
   */
  boolean acceptRequest(
      JsonRpcMessage.Request request,
      Exchange held,
      boolean initialize,
      dev.herald.auth.@Nullable Principal principal) {
    SseStream stream = new SseStream(this, streamId(), request.id(), held);
    if (requests.putIfAbsent(request.id(), stream) != null) {
      return false;
    }
    if (initialize) {
      initializeId = request.id();
    }
    held.onPeerGone(stream::connectionFailed);
    held.keepOpen(); // waiting for a slow handler is not idle
    deliver(new DecodedMessage.Valid(request), principal);
    if (closed) {
      stream.terminate(); // the session ended as the request arrived: answer 404, never hang
      return true;
    }
    if (config.pollAfterNanos > 0) {
      config.scheduler.schedule(
          () -> {
            if (priming()) stream.closeConnection();
          },
          config.pollAfterNanos);
    }
    return true;
  }

  /** Hands a notification or response (or a request whose stream is registered) to the engine. */
  void deliver(DecodedMessage frame) {
    deliver(frame, null);
  }

  /**
   * As {@link #deliver(DecodedMessage)}, with the principal whose token the HTTP request carried
   * (null on an open endpoint): the engine keeps it with the request it starts.
   */
  void deliver(DecodedMessage frame, dev.herald.auth.@Nullable Principal principal) {
    touch();
    lastInboundNanos = System.nanoTime();
    Transport.Receiver r = receiver;
    if (r == null || closed) {
      return;
    }
    inboundLock.lock();
    try {
      ServerSession ss = serverSession;
      if (principal != null && ss != null) {
        EngineAccess.of(ss).principal(principal);
      }
      r.onFrame(frame);
    } finally {
      inboundLock.unlock();
    }
  }

  // ---------------------------------------------------------------- outbound

  /** Puts one outbound message on exactly one stream. */
  void route(JsonRpcMessage message, @Nullable RequestId relatedTo) {
    if (closed) {
      throw new TransportException("session " + id + " is closed");
    }
    route(message, MessageCodec.encode(message), relatedTo);
  }

  /**
   * As {@link #route(JsonRpcMessage, RequestId)} with the message already encoded ({@code json},
   * possibly shared with other sessions: it is stored and written as it is, never modified).
   */
  void route(JsonRpcMessage message, byte[] json, @Nullable RequestId relatedTo) {
    if (closed) {
      throw new TransportException("session " + id + " is closed");
    }
    RequestId key = relatedTo;
    byte[] out = json;
    boolean failedInit = false;
    if (message instanceof JsonRpcMessage.Response r) {
      key = r.id();
      if (key != null && key.equals(initializeId)) {
        // only the answer to initialize itself decides; a later request may reuse its id
        initializeId = null;
        if (initFailed && !(message instanceof JsonRpcMessage.Error)) {
          out = MessageCodec.encode(unrecorded(key)); // refused by the cluster (refuseInitialize)
        }
        if (initFailed || message instanceof JsonRpcMessage.Error) {
          initFailed = true; // no session was made: do not hand out its id, and end it
          failedInit = true;
        }
      }
    }
    if (failedInit) {
      endpoint.forget(this); // no session outlives the answer that refuses it, nor holds a slot
    }
    boolean response = message instanceof JsonRpcMessage.Response;
    if (key != null) {
      SseStream s = requests.get(key);
      if (s != null && s.publish(out, response)) {
        if (failedInit) {
          Thread.ofVirtual().start(this::close);
        }
        return;
      }
    }
    if (response) {
      LOG.log(Level.DEBUG, "[{0}] response with no open stream dropped", id);
      return;
    }
    toStanding(out);
  }

  /** The answer to an {@code initialize} the cluster could not record. */
  private static JsonRpcMessage.Error unrecorded(RequestId id) {
    return new JsonRpcMessage.Error(
        id,
        new JsonRpcMessage.ErrorObject(
            dev.herald.wire.ErrorCodes.INTERNAL_ERROR,
            "Service unavailable: the cluster's session directory cannot be reached; try again",
            null));
  }

  /**
   * As {@link #route(JsonRpcMessage, byte[], RequestId)} for a notification, without its message
   * object (the progress hot path encodes straight to bytes and never builds one).
   */
  void routeNotification(byte[] json, @Nullable RequestId relatedTo) {
    if (closed) {
      throw new TransportException("session " + id + " is closed");
    }
    if (relatedTo != null) {
      SseStream s = requests.get(relatedTo);
      if (s != null && s.publish(json, false)) {
        return;
      }
    }
    toStanding(json);
  }

  /** An unsolicited message: the standing stream here, or relayed to the node that holds it. */
  private void toStanding(byte[] json) {
    String home = homeNode;
    ClusterLink link = endpoint.cluster;
    if (home != null && link != null) {
      link.seam.relay(id, home, json); // the standing stream is on another node
      return;
    }
    standing().publish(json, false);
  }

  SseStream standing() {
    SseStream s = standing;
    if (s != null) {
      return s;
    }
    synchronized (this) {
      s = standing;
      if (s == null) {
        s = new SseStream(this, streamId());
        standing = s;
        ClusterLink link = endpoint.cluster;
        if (link != null) {
          link.standingOpened(this, s.id); // another node can take it over with its events
        }
      }
      return s;
    }
  }

  /**
   * The event store failed to keep event {@code seq} of stream {@code streamId}: the event still
   * goes to the stream's open connection, but it cannot be replayed, so a resumption from before
   * it is refused. Said at WARNING: an acknowledged-looking event that no resumption can deliver.
   */
  void unstored(String streamId, long seq, RuntimeException cause) {
    LOG.log(
        Level.WARNING,
        "[{0}] event {1}_{2} not stored ({3}): sent on the open connection only; a resumption from"
            + " before it is refused",
        id,
        streamId,
        seq,
        cause.toString());
  }

  /** A POST stream switched to SSE: keep it findable for {@code Last-Event-ID}. */
  void registerStream(SseStream s) {
    synchronized (this) {
      streamsLocked().put(s.id, s);
    }
  }

  /** A POST stream sent its response (or was orphaned). */
  void requestEnded(SseStream s, boolean keepForResume) {
    if (s.request != null) {
      requests.remove(s.request, s);
    }
    List<String> evicted = new ArrayList<>();
    synchronized (this) {
      LinkedHashMap<String, SseStream> m = streams;
      if (m != null) {
        if (!keepForResume) {
          if (m.remove(s.id) != null) {
            evicted.add(s.id);
          }
        }
        int ended = 0;
        for (SseStream t : m.values()) {
          if (t.ended()) {
            ended++;
          }
        }
        for (Iterator<SseStream> it = m.values().iterator();
            ended > KEPT_STREAMS && it.hasNext(); ) {
          SseStream t = it.next();
          if (t.ended()) {
            it.remove();
            evicted.add(t.id);
            ended--;
          }
        }
      }
    }
    for (String e : evicted) {
      try {
        store().removeStream(id, e);
      } catch (RuntimeException failure) {
        LOG.log(
            Level.DEBUG, "[{0}] stream {1} not removed from the event store: {2}", id, e, failure);
      }
    }
    touch();
  }

  /** A stream by id, for {@code Last-Event-ID}. */
  @Nullable SseStream stream(String streamId) {
    SseStream st = standing;
    if (st != null && st.id.equals(streamId)) {
      return st;
    }
    synchronized (this) {
      LinkedHashMap<String, SseStream> m = streams;
      return m == null ? null : m.get(streamId);
    }
  }

  /** The stream of an open request, if any. */
  @Nullable SseStream openRequest(RequestId request) {
    return requests.get(request);
  }

  /** How many requests of this session still hold their POST stream. */
  int openRequests() {
    return requests.size();
  }

  /** Closes the connection of one request's stream (SSE polling). */
  boolean closeStream(RequestId request) {
    SseStream s = requests.get(request);
    return s != null && s.closeConnection();
  }

  /** Idle: no request open, no stream connected, nothing running, for longer than the timeout. */
  boolean idleSince(long now, long timeoutNanos) {
    if (!requests.isEmpty() || now - lastActivity < timeoutNanos) {
      return false;
    }
    ServerSession ss = serverSession;
    if (ss != null && EngineAccess.of(ss).inFlightCount() > 0) {
      return false;
    }
    for (SseStream s : allStreams()) {
      if (s.connected()) {
        return false;
      }
    }
    return true;
  }

  /**
   * Sends a keep-alive comment on each connection of this session (standing and request streams)
   * that wrote nothing for {@code quietNanos}.
   *
   * @return true if the session should be evicted: one of its connections has had a write
   *     outstanding for {@code failures} keep-alive intervals in a row (each keep-alive due in that
   *     time failed) and the client sent nothing meanwhile
   */
  boolean keepAlive(long nowSystemNanos, long quietNanos, int failures) {
    if (writtenWithin(nowSystemNanos, quietNanos)) {
      return false; // a stalled write is older than quietNanos: nothing to probe, nothing stalled
    }
    boolean stalled = false;
    for (SseSink sink : sinks()) {
      if (sink.stalled(nowSystemNanos, quietNanos, failures)) {
        stalled = true;
      } else if (nowSystemNanos - sink.lastWriteNanos() >= quietNanos
          && sink.enqueue(new SseSink.Frame(-1, SseSink.KEEP_ALIVE, null))) {
        sink.flush();
      }
    }
    return stalled && nowSystemNanos - lastInboundNanos >= quietNanos * failures;
  }

  /**
   * Whether every connection of this session was written to within {@code quietNanos}, as most
   * are at each sweep of a busy server. Decided without the streams' locks and without
   * allocating: the sweep visits every session each interval, and must not hold up a fan-out
   * writing to the same streams (a sweep preempted while holding a stream's lock would stall the
   * fan-out's thread) nor leave garbage per session per interval.
   */
  private boolean writtenWithin(long nowSystemNanos, long quietNanos) {
    synchronized (this) {
      SseStream st = standing;
      if (st != null && !st.writtenWithin(nowSystemNanos, quietNanos)) {
        return false;
      }
      LinkedHashMap<String, SseStream> m = streams;
      if (m != null) {
        for (SseStream s : m.values()) {
          if (!s.writtenWithin(nowSystemNanos, quietNanos)) {
            return false;
          }
        }
      }
      return true;
    }
  }

  /** The connections attached to this session's streams. */
  private List<SseSink> sinks() {
    List<SseStream> all = allStreams();
    List<SseSink> out = new ArrayList<>(all.size());
    for (SseStream s : all) {
      SseSink sink = s.sink();
      if (sink != null) {
        out.add(sink);
      }
    }
    return out;
  }

  /**
   * Evicts the session: its client stopped taking keep-alives. Every connection is aborted (a
   * write that never completes would otherwise hold it), then the session ends as on DELETE.
   */
  void evict() {
    java.io.IOException cause = new java.io.IOException("keep-alives failed: client gone");
    for (SseSink sink : sinks()) {
      sink.fail(cause);
    }
    close();
  }

  /**
   * The client ended the session ({@code DELETE}): as {@link #close}, and its stored events are
   * removed on every node's behalf.
   */
  void end() {
    endsEverywhere = true;
    close();
  }

  /** Ends the session (DELETE, expiry, shutdown): the server session closes, then {@link #terminate}. */
  void close() {
    ServerSession ss = serverSession;
    if (ss != null) {
      ss.close();
    } else {
      terminate();
    }
  }

  /**
   * The server session ended: forget the session, finish every connection, drop stored events
   * (in a cluster, only when the session ends everywhere: {@link #end}).
   */
  void terminate() {
    if (closed) {
      return;
    }
    closed = true;
    endpoint.forget(this);
    List<SseStream> all = new ArrayList<>(requests.values());
    all.addAll(allStreams());
    for (SseStream s : all) {
      s.terminate();
    }
    if (endpoint.cluster == null || endsEverywhere) {
      try {
        store().removeSession(id);
      } catch (RuntimeException e) {
        LOG.log(Level.DEBUG, "[{0}] events not removed from the event store: {1}", id, e);
      }
    }
  }

  /** The transport the server session writes to: it routes and never reads on its own. */
  final class HttpSessionTransport implements Transport {
    @Override
    public void start(Receiver r) {
      receiver = r;
    }

    @Override
    public java.util.Optional<String> sessionId() {
      return java.util.Optional.of(id);
    }

    @Override
    public void send(JsonRpcMessage message, @Nullable RequestId relatedTo) {
      route(message, relatedTo);
    }

    /** A notification encoded once for many sessions: routed with its shared bytes. */
    @Override
    public void send(EncodedMessage encoded, @Nullable RequestId relatedTo) {
      if (encoded.isNotification()) {
        routeNotification(encoded.bytes(), relatedTo);
      } else {
        route(encoded.message(), encoded.bytes(), relatedTo);
      }
    }

    /** The request was cancelled: end its stream and free its id (no response will come). */
    @Override
    public void requestCancelled(RequestId request) {
      SseStream s = requests.get(request);
      if (s != null) {
        s.cancel();
      }
    }

    @Override
    public boolean pollStream(RequestId request) {
      return priming() && closeStream(request);
    }

    /**
     * Called by the engine as it ends the session. The engine is already shutting down, so
     * {@link Receiver#onClose} is not called back.
     */
    @Override
    public void close() {
      terminate();
    }
  }
}
