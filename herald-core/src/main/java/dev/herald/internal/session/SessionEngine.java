package dev.herald.internal.session;

import dev.herald.session.CallOptions;
import dev.herald.session.CancelledException;
import dev.herald.session.EventListener;
import dev.herald.session.Interceptor;
import dev.herald.session.ProgressRecord;
import dev.herald.session.ProgressRejection;
import dev.herald.session.ProgressReporter;
import dev.herald.session.Scheduler;
import dev.herald.session.Ticker;
import dev.herald.session.TimeoutException;
import dev.herald.transport.Transport;
import dev.herald.transport.TransportException;
import dev.herald.wire.CancelledNotificationParams;
import dev.herald.wire.DecodedMessage;
import dev.herald.wire.EncodedMessage;
import dev.herald.wire.ErrorCodes;
import dev.herald.wire.JsonRpcMessage;
import dev.herald.wire.McpException;
import dev.herald.wire.McpJson;
import dev.herald.wire.McpMethods;
import dev.herald.wire.MessageCodec;
import dev.herald.wire.ProgressNotificationParams;
import dev.herald.wire.ProgressToken;
import dev.herald.wire.ProtocolVersion;
import dev.herald.wire.RequestId;
import dev.herald.wire.RequestMeta;
import java.lang.System.Logger.Level;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import org.jspecify.annotations.Nullable;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * The session engine: one per connection, used by both the server and the client role.
 *
 * <p>Design note (docs/architecture.md, "The session engine"; MCP 2025-11-25 basic/utilities/cancellation and basic/utilities/progress). It keeps two tables. Outbound: request
 * id to {@link PendingCall}, each with two clocks and an optional progress tracker, each leaving
 * exactly once (response, error, cancel, timeout, connection end). Inbound: raw request id to
 * {@link InboundCall}, each on its own virtual thread with a cancellation token and a progress
 * emitter; {@code notifications/cancelled} interrupts it, cancels the reverse calls it started
 * (found by their "originated by" pointer) and suppresses its response. Progress tokens are scoped
 * to this session: a second active request with the same token is refused with -32602. The
 * notification registry drops unknown methods with a debug log and an event; unknown requests
 * are the role's to answer with -32601. The reader thread never runs user code. What the session
 * does, sends, holds back or drops is reported to its {@link EventListener} ({@link #events()}).
 *
 * <p>Thread-safe.
 */
public final class SessionEngine {
  private static final System.Logger LOG = LazyLogger.of("dev.herald.session");

  private final Transport transport;
  private final RequestHandler requests;
  private final NotificationHandler.Router notifications;
  private final Ticker ticker;
  private final Scheduler scheduler;
  private final int maxInFlight;
  private final Duration progressInterval;
  private final CallOptions defaultOptions;
  private final String name;
  private final Duration drainGrace;

  /** Completes a {@link #requestDirect} call where its response is delivered. */
  private static final java.util.concurrent.Executor DIRECT = Runnable::run;

  private final PendingTable pending = new PendingTable();

  /** The one timer of the pending calls' clocks. */
  private final CallDeadlines deadlines;

  private final InboundTable inFlight;
  private final ProgressRegistry progress = new ProgressRegistry();

  /**
   * Work that outlives its request (tasks) and has not ended: ended with the session. Made on the
   * first detached work (most sessions never have one): see {@link #detachedWorks()}.
   */
  private volatile java.util.@Nullable Set<DetachedWork> detachedWorks;

  private static final java.lang.invoke.VarHandle DETACHED_WORKS;

  static {
    try {
      DETACHED_WORKS =
          java.lang.invoke.MethodHandles.lookup()
              .findVarHandle(SessionEngine.class, "detachedWorks", java.util.Set.class);
    } catch (ReflectiveOperationException e) {
      throw new ExceptionInInitializerError(e);
    }
  }

  private java.util.Set<DetachedWork> detachedWorks() {
    java.util.Set<DetachedWork> s = detachedWorks;
    if (s == null) {
      DETACHED_WORKS.compareAndSet(this, null, ConcurrentHashMap.newKeySet());
      s = java.util.Objects.requireNonNull(detachedWorks);
    }
    return s;
  }

  // The next four are plain volatile fields changed through VarHandles (below), not atomics:
  // one object fewer each, per session.
  private volatile long nextId = 1; // through NEXT_ID

  /** Inbound requests accepted and not yet answered or cancelled (their response may be in flight). */
  private volatile int unanswered; // through UNANSWERED

  private volatile boolean started; // set once through STARTED
  private volatile boolean closed; // set once through CLOSED
  private volatile boolean draining; // the peer ended its side; requests read may still answer

  /**
   * Whether the session serves one request and ends once it is answered ({@link
   * #endAfterOneRequest}): on the thread that answered it, with no hand-off.
   */
  private volatile boolean oneRequest;

  /**
   * The {@code _meta} of the next request delivered, as the transport already read and checked it
   * ({@link #checkedMeta}); handed to that request's call, then cleared. Null otherwise.
   */
  private volatile @Nullable RequestMeta checkedMeta;

  private static final java.lang.invoke.VarHandle NEXT_ID;
  private static final java.lang.invoke.VarHandle UNANSWERED;
  private static final java.lang.invoke.VarHandle STARTED;
  private static final java.lang.invoke.VarHandle CLOSED;

  static {
    try {
      java.lang.invoke.MethodHandles.Lookup l = java.lang.invoke.MethodHandles.lookup();
      NEXT_ID = l.findVarHandle(SessionEngine.class, "nextId", long.class);
      UNANSWERED = l.findVarHandle(SessionEngine.class, "unanswered", int.class);
      STARTED = l.findVarHandle(SessionEngine.class, "started", boolean.class);
      CLOSED = l.findVarHandle(SessionEngine.class, "closed", boolean.class);
    } catch (ReflectiveOperationException e) {
      throw new ExceptionInInitializerError(e);
    }
  }

  private final CompletableFuture<@Nullable Throwable> closeFuture = new CompletableFuture<>();

  /**
   * What Herald's own layers run when the session ends ({@link #onClose}), newest first; {@link
   * #HOOKS_RAN} once they ran. A chain of small nodes rather than a {@code whenComplete} each,
   * which would keep a dependent future and its completion node per session.
   */
  private volatile @Nullable CloseHook closeHooks;

  private static final class CloseHook { // a class: compared by identity (HOOKS_RAN)
    final Runnable action;
    final @Nullable CloseHook next;

    CloseHook(Runnable action, @Nullable CloseHook next) {
      this.action = action;
      this.next = next;
    }
  }

  private static final CloseHook HOOKS_RAN = new CloseHook(() -> {}, null);
  private static final java.lang.invoke.VarHandle CLOSE_HOOKS;

  static {
    try {
      CLOSE_HOOKS =
          java.lang.invoke.MethodHandles.lookup()
              .findVarHandle(SessionEngine.class, "closeHooks", CloseHook.class);
    } catch (ReflectiveOperationException e) {
      throw new ExceptionInInitializerError(e);
    }
  }

  private volatile @Nullable ProtocolVersion version;

  /**
   * The principal of the frames the transport delivers from now on (an authorizing HTTP
   * transport sets it, under its own inbound serialization, before each delivery); each request
   * keeps the one it arrived with ({@link InboundCall#principal()}). Null without authorization.
   */
  private volatile dev.herald.auth.@Nullable Principal inboundPrincipal;

  /** The first principal set: the one that created the session (its owner). */
  private volatile dev.herald.auth.@Nullable Principal owner;

  /** The listener as given; {@link #events} is the same one guarded (or {@link EventListener#NONE}). */
  private final EventListener listener;

  private final Senders senders;

  private final EventListener events;

  /** Whether anyone listens: with the no-op listener the hot paths skip building events. */
  private final boolean listening;

  private SessionEngine(Builder b) {
    this.transport = Objects.requireNonNull(b.transport, "transport");
    this.requests = Objects.requireNonNull(b.requests, "requests");
    Map<String, NotificationHandler> own = Map.copyOf(b.notifications);
    NotificationHandler.Router router = b.router;
    this.notifications =
        router == null
            ? own::get
            : own.isEmpty()
                ? router
                : method -> {
                  NotificationHandler h = own.get(method);
                  return h != null ? h : router.find(method);
                };
    this.ticker = b.ticker;
    this.scheduler = b.scheduler;
    this.deadlines = new CallDeadlines(scheduler, ticker, pending, this::checkTimeout);
    this.maxInFlight = b.maxInFlight;
    this.inFlight = new InboundTable(maxInFlight);
    this.progressInterval = b.progressInterval;
    this.defaultOptions = b.defaultOptions;
    this.name = b.name;
    this.drainGrace = b.drainGrace;
    this.listener = b.listener;
    this.senders = b.senders;
    this.events = GuardedEventListener.guard(b.listener);
    this.listening = isListening(events);
  }

  public static Builder builder() {
    return new Builder();
  }

  /** Starts reading from the transport. */
  public void start() {
    if (!STARTED.compareAndSet(this, false, true)) {
      throw new IllegalStateException("session already started");
    }
    events.sessionOpened();
    transport.start(
        new Transport.Receiver() {
          @Override
          public void onFrame(DecodedMessage frame) {
            SessionEngine.this.onFrame(frame);
          }

          @Override
          public void onClose(@Nullable Throwable cause) {
            SessionEngine.this.onTransportClosed(cause);
          }
        });
  }

  /**
   * Sets the principal behind the frames the transport delivers next, until set again (MCP
   * 2025-11-25 basic/authorization: every HTTP request carries its own token). Call it from the
   * transport's delivering thread, before {@link Transport.Receiver#onFrame}, under the same
   * serialization as the frames. The first principal set is the session's {@link #owner}.
   */
  public void principal(dev.herald.auth.Principal principal) {
    Objects.requireNonNull(principal, "principal");
    this.inboundPrincipal = principal;
    if (owner == null) {
      owner = principal;
    }
  }

  /**
   * Makes this a session of one request (a 2026-07-28 HTTP POST): it ends as soon as the next
   * request delivered is answered or refused, on the thread that sent the answer, once the
   * handler's work around the answer is done. A request cancelled before its answer ends the
   * session when its handler returns. Call it before that request is delivered.
   */
  public void endAfterOneRequest() {
    this.oneRequest = true;
  }

  /**
   * The {@code _meta} of the next request delivered, as the transport already read and checked it
   * with {@link RequestMeta#parse} (a 2026-07-28 HTTP POST's, before it costs a session): the
   * role's era routing uses it instead of reading the same object again ({@link
   * InboundCall#checkedMeta}). Call it before that request is delivered.
   */
  public void checkedMeta(RequestMeta meta) {
    this.checkedMeta = Objects.requireNonNull(meta, "meta");
  }

  /** The principal that created this session (the first one {@link #principal set}), if any. */
  public dev.herald.auth.@Nullable Principal owner() {
    return owner;
  }

  /** The principal of the frames being delivered now, if any. */
  dev.herald.auth.@Nullable Principal inboundPrincipal() {
    return inboundPrincipal;
  }

  /** The negotiated protocol version, once known. */
  public Optional<ProtocolVersion> version() {
    return Optional.ofNullable(version);
  }

  /** Records the negotiated protocol version (the role does, at bring-up). */
  public void version(ProtocolVersion v) {
    this.version = v;
  }

  /** The MCP session id of the transport, when it has one ({@link Transport#sessionId()}). */
  public Optional<String> sessionId() {
    return transport.sessionId();
  }

  public String name() {
    return name;
  }

  public Ticker ticker() {
    return ticker;
  }

  public Scheduler scheduler() {
    return scheduler;
  }

  public boolean isOpen() {
    return !closed;
  }

  /** Completes when the session ends, with the cause or {@code null} for an orderly end. */
  public CompletableFuture<@Nullable Throwable> closed() {
    return closeFuture;
  }

  /**
   * Runs {@code action} once when the session ends, before {@link #closed} completes (at once, on
   * the calling thread, if the session already ended). Actions run newest first on the thread
   * that ends the session; one that throws is logged and the rest still run.
   */
  public void onClose(Runnable action) {
    Objects.requireNonNull(action, "action");
    while (true) {
      CloseHook head = closeHooks;
      if (head == HOOKS_RAN) {
        runHook(action);
        return;
      }
      if (CLOSE_HOOKS.compareAndSet(this, head, new CloseHook(action, head))) {
        return;
      }
    }
  }

  private void runHook(Runnable action) {
    try {
      action.run();
    } catch (RuntimeException e) {
      LOG.log(Level.DEBUG, "[{0}] close action failed: {1}", name, e.toString());
    }
  }

  /** The listener this session was built with ({@link EventListener#NONE} if none). */
  public EventListener eventListener() {
    return listener;
  }

  /**
   * Where Herald reports this session's events: the listener, guarded so that it never throws
   * into Herald, or {@link EventListener#NONE} itself (compare with {@code ==} to skip work).
   */
  @SuppressWarnings("ReferenceEquality") // NONE is a singleton: identity is the question
  private static boolean isListening(EventListener events) {
    return events != EventListener.NONE;
  }

  public EventListener events() {
    return events;
  }

  /** Requests still waiting for a response. */
  public int pendingCount() {
    return pending.size();
  }

  /** Requests from the peer still being handled. */
  public int inFlightCount() {
    return inFlight.size();
  }

  /**
   * Whether the peer ended its side in an orderly way while requests were still running, which
   * may still answer within the drain grace; the session is not closed yet.
   */
  public boolean draining() {
    return draining && !closed;
  }

  /** Whether this engine runs the peer's request {@code id} now (a cluster relays a cancel elsewhere otherwise). */
  public boolean serves(RequestId id) {
    return inFlight.get(id) != null;
  }

  /** Whether this engine waits for the peer's answer to its request {@code id}. */
  public boolean awaits(RequestId id) {
    return pending.holds(id);
  }

  /** Whether this engine tracks progress for {@code token} (one of its own requests is open). */
  public boolean tracksProgress(dev.herald.wire.ProgressToken token) {
    return progress.isActive(token);
  }

  /** Progress tokens this side issued that are still active. */
  public int activeProgressTokens() {
    return progress.activeCount();
  }

  // ---------------------------------------------------------------- outbound

  /**
   * Sends a request.
   *
   * @param originatedBy the inbound request whose handler makes this call (it is routed to that
   *     request's stream and cancelled with it), or {@code null}
   * @throws TransportException if the session is closed
   */
  public OutboundCall request(
      String method,
      @Nullable ObjectNode params,
      CallOptions options,
      @Nullable RequestId originatedBy) {
    return request(method, params, options, originatedBy, null);
  }

  /**
   * Sends a request whose result {@code inOrder} also sees on the transport's reader, before any
   * frame that arrived after the response is read and before the caller sees the result: a role
   * learns from the {@code initialize} result what the peer declared before it handles the
   * notifications that follow it. {@code inOrder} must not block; what it throws is logged.
   *
   * @throws TransportException if the session is closed
   */
  public OutboundCall request(
      String method,
      @Nullable ObjectNode params,
      CallOptions options,
      @Nullable RequestId originatedBy,
      java.util.function.@Nullable Consumer<JsonNode> inOrder) {
    return request(method, params, options, originatedBy, inOrder, null);
  }

  /**
   * Sends a request whose progress token outlives it when {@code keepsProgress} says so of its
   * result (a task-creating result, MCP 2025-11-25 basic/utilities/progress: the token stays
   * valid for the task's whole lifetime): the token then stays registered, and the call's {@link
   * OutboundCall#keptProgress()} closes it later. {@code keepsProgress} runs on the reader and
   * must not block.
   *
   * @throws TransportException if the session is closed
   */
  public OutboundCall request(
      String method,
      @Nullable ObjectNode params,
      CallOptions options,
      @Nullable RequestId originatedBy,
      java.util.function.@Nullable Consumer<JsonNode> inOrder,
      java.util.function.@Nullable Predicate<JsonNode> keepsProgress) {
    return request(method, params, options, originatedBy, inOrder, keepsProgress, false);
  }

  /**
   * Sends a request whose result future completes on the thread that delivers the response, with
   * no hand-off, when the call has no progress listener and no sender interceptor (otherwise as
   * {@link #request(String, ObjectNode, CallOptions, RequestId)}). The future may complete under
   * the transport's delivery lock: only a caller that waits for it ({@code get}, {@code join}) and
   * attaches nothing to it may use this. A blocking call then costs the reader one unpark of the
   * caller instead of two thread starts.
   *
   * @throws TransportException if the session is closed
   */
  public OutboundCall requestDirect(
      String method, @Nullable ObjectNode params, CallOptions options) {
    return request(method, params, options, null, null, null, true);
  }

  private OutboundCall request(
      String method,
      @Nullable ObjectNode params,
      CallOptions options,
      @Nullable RequestId originatedBy,
      java.util.function.@Nullable Consumer<JsonNode> inOrder,
      java.util.function.@Nullable Predicate<JsonNode> keepsProgress,
      boolean direct) {
    if (closed) {
      throw new TransportException("session closed");
    }
    CallOptions effective = options.effective(defaultOptions);
    RequestId id = RequestId.of((long) NEXT_ID.getAndAdd(this, 1L));
    long now = ticker.nanos();
    boolean inline = direct && effective.progress() == null && senders.isEmpty();
    java.util.concurrent.Executor callbacks = inline ? DIRECT : new SerialExecutor();
    ProgressTracker tracker = null;
    ObjectNode sentParams = params;
    PendingCall[] self = new PendingCall[1];
    if (effective.progress() != null) {
      ProgressToken token = ProgressTokens.random();
      tracker =
          new ProgressTracker(
              token,
              effective.progress(),
              effective.renderInterval(),
              ticker,
              scheduler,
              callbacks,
              acceptedAt -> {
                PendingCall c = self[0];
                if (c != null) {
                  c.touch(acceptedAt);
                }
              });
      sentParams = params == null ? McpJson.object() : params.deepCopy();
      JsonNode meta = sentParams.get("_meta");
      ObjectNode metaObj = meta instanceof ObjectNode o ? o : McpJson.object();
      metaObj.set("progressToken", McpJson.toTree(token));
      sentParams.set("_meta", metaObj);
    }
    List<Interceptor.Sent> ends = List.of();
    if (!senders.isEmpty()) {
      Senders.Asked asked = senders.ask(method, id, sentParams, transport);
      sentParams = asked.params();
      ends = asked.ends();
    }
    PendingCall call =
        new PendingCall(
            this,
            id,
            method,
            originatedBy,
            tracker,
            callbacks,
            effective,
            now,
            inOrder,
            keepsProgress);
    self[0] = call;
    if (!ends.isEmpty()) {
      List<Interceptor.Sent> told = ends;
      call.result().whenComplete((r, t) -> Senders.tell(told, r, t));
    }
    if (tracker != null) {
      progress.register(tracker);
    }
    pending.add(call);
    if (closed) {
      // shutdown() may have swept the table before our entry landed: fail it here, once
      pending.release(call);
      call.finish(
          ProgressRecord.Terminal.CONNECTION_CLOSED,
          null,
          new TransportException("session closed"),
          progress);
      return call;
    }
    deadlines.watch(call, now);
    try {
      transport.send(new JsonRpcMessage.Request(id, method, sentParams), originatedBy);
    } catch (RuntimeException e) {
      pending.release(call);
      if (pending.isEmpty()) {
        deadlines.idle();
      }
      call.finish(ProgressRecord.Terminal.CONNECTION_CLOSED, null, asTransportFailure(e), progress);
    }
    return call;
  }

  /** Sends a request with the session's default options. */
  public OutboundCall request(String method, @Nullable ObjectNode params) {
    return request(method, params, CallOptions.defaults(), null);
  }

  /**
   * Sends a notification. It is reported to the {@link EventListener} as sent, or as dropped
   * ({@link EventListener.DropReason#SESSION_CLOSED}) when it throws.
   *
   * @param relatedTo the inbound request it belongs to, or {@code null}
   * @throws TransportException if the session is closed or the write fails
   */
  public void notify(String method, @Nullable ObjectNode params, @Nullable RequestId relatedTo) {
    if (closed) {
      lost(method);
      throw new TransportException("session closed");
    }
    try {
      transport.send(new JsonRpcMessage.Notification(method, params), relatedTo);
    } catch (RuntimeException e) {
      lost(method);
      throw e;
    }
    if (listening) {
      events.notificationSent(EventListener.Family.of(method));
    }
  }

  /** A notification that could not be sent: the session is closed or closing. */
  private void lost(String method) {
    if (listening) {
      events.notificationDropped(
          EventListener.Family.of(method), EventListener.DropReason.SESSION_CLOSED);
    }
  }

  /**
   * Sends a notification that is already encoded: a server fanning one notification out to many
   * sessions encodes it once and hands the same bytes to each ({@link Transport#send(EncodedMessage,
   * RequestId)}).
   *
   * <p>Reported as {@link #notify(String, ObjectNode, RequestId)} is.
   *
   * @param relatedTo the inbound request it belongs to, or {@code null}
   * @throws IllegalArgumentException if the message is not a notification
   * @throws TransportException if the session is closed or the write fails
   */
  public void notify(EncodedMessage notification, @Nullable RequestId relatedTo) {
    if (!(notification.message() instanceof JsonRpcMessage.Notification n)) {
      throw new IllegalArgumentException("not a notification: " + notification.message());
    }
    if (closed) {
      lost(n.method());
      throw new TransportException("session closed");
    }
    try {
      transport.send(notification, relatedTo);
    } catch (RuntimeException e) {
      lost(n.method());
      throw e;
    }
    if (listening) {
      events.notificationSent(EventListener.Family.of(n.method()));
    }
  }

  /** Asks the transport to close one inbound request's stream for polling (see {@link Transport#pollStream}). */
  boolean pollStream(RequestId request) {
    return transport.pollStream(request);
  }

  /**
   * Ends a call of this side that was cancelled or timed out. The cancellation is written to the
   * transport before the caller sees the failure (basic/utilities/cancellation), whichever clock or
   * caller ended the call: a caller that closes the connection right after its call failed (a
   * command-line tool that exits) must not overtake it. {@code initialize} is never cancelled (the
   * specification forbids it): the connection is closed instead.
   */
  boolean cancelOutbound(
      PendingCall call, String reason, CancelledException failure, ProgressRecord.Terminal how) {
    if (call.isDone()) {
      return false;
    }
    // Free the entry before the caller can observe the failure; a response racing this removal
    // finds no entry and is counted as late.
    pending.release(call);
    if (pending.isEmpty()) {
      deadlines.idle();
    }
    boolean initialize = McpMethods.INITIALIZE.equals(call.method());
    if (!call.finish(
        how, null, failure, progress, initialize ? null : () -> sendCancellation(call, reason))) {
      return false;
    }
    if (initialize) {
      LOG.log(
          Level.DEBUG,
          "[{0}] initialize {1} ended ({2}): closing the connection instead of cancelling it",
          name,
          call.id(),
          reason);
      shutdown(null);
    }
    return true;
  }

  private void sendCancellation(PendingCall call, String reason) {
    if (closed) {
      return;
    }
    try {
      transport.send(
          new JsonRpcMessage.Notification(
              McpMethods.CANCELLED,
              McpJson.toObject(CancelledNotificationParams.of(call.id(), reason))),
          call.originatedBy());
      events.notificationSent(EventListener.Family.CANCELLED);
    } catch (RuntimeException e) {
      lost(McpMethods.CANCELLED);
      LOG.log(Level.DEBUG, "could not send cancellation for {0}: {1}", call.id(), e.getMessage());
    }
  }

  void checkTimeout(PendingCall call) {
    if (call.isDone()) {
      return;
    }
    long now = ticker.nanos();
    TimeoutException.Clock which = call.expired(now);
    if (which == null) {
      deadlines.watch(call, now);
      return;
    }
    String reason = which == TimeoutException.Clock.IDLE ? "idle timeout" : "timeout";
    cancelOutbound(
        call,
        reason,
        new TimeoutException(which, call.method() + " timed out (" + reason + ")"),
        which == TimeoutException.Clock.IDLE
            ? ProgressRecord.Terminal.TIMEOUT_IDLE
            : ProgressRecord.Terminal.TIMEOUT_ABSOLUTE);
  }

  // ---------------------------------------------------------------- inbound

  // onFrame and onMessage test with instanceof, not a type switch: a type switch's first run spins
  // a class, tens of milliseconds before a stdio server's first answer (docs/benchmarks.md, "Cold
  // start").
  private void onFrame(DecodedMessage frame) {
    if (frame instanceof DecodedMessage.Valid v) {
      onMessage(v.message());
    } else if (frame instanceof DecodedMessage.Invalid bad) {
      events.invalidMessage(bad.error().code());
      LOG.log(Level.DEBUG, "[{0}] invalid frame: {1}", name, bad.error().message());
      if (bad.answerable()) {
        sendQuietly(MessageCodec.errorFor(bad), bad.id());
      }
    } else {
      DecodedMessage.Batch batch = (DecodedMessage.Batch) frame;
      ProtocolVersion v = version;
      if (v == null || !v.batching()) {
        events.invalidMessage(ErrorCodes.INVALID_REQUEST);
        sendQuietly(
            new JsonRpcMessage.Error(
                null,
                new JsonRpcMessage.ErrorObject(
                    ErrorCodes.INVALID_REQUEST,
                    "Invalid request: batches are not supported in protocol version "
                        + (v == null ? "(not negotiated)" : v.wire()),
                    null)),
            null);
      } else {
        for (DecodedMessage item : batch.items()) {
          onFrame(item);
        }
      }
    }
  }

  private void onMessage(JsonRpcMessage message) {
    if (message instanceof JsonRpcMessage.Request r) {
      onRequest(r);
    } else if (message instanceof JsonRpcMessage.Notification n) {
      onNotification(n);
    } else if (message instanceof JsonRpcMessage.Result r) {
      onResponse(r.id(), r.result(), null);
    } else {
      JsonRpcMessage.Error e = (JsonRpcMessage.Error) message;
      if (e.id() == null) {
        LOG.log(Level.DEBUG, "[{0}] peer reported an error: {1}", name, e.error().message());
      } else {
        onResponse(e.id(), null, e.error());
      }
    }
  }

  private void onResponse(
      RequestId id, @Nullable JsonNode result, JsonRpcMessage.@Nullable ErrorObject error) {
    PendingCall call = pending.take(id);
    if (pending.isEmpty()) {
      deadlines.idle();
    }
    if (call == null) {
      events.responseIgnored(id);
      LOG.log(Level.DEBUG, "[{0}] response to no pending request {1}: ignored", name, id);
      return;
    }
    boolean won =
        error != null
            ? call.finish(
                ProgressRecord.Terminal.ERROR, null, McpException.fromError(error), progress)
            : call.finish(
                ProgressRecord.Terminal.RESPONSE, result, null, progress, call.inOrder(result));
    if (!won) {
      // a local cancel or timeout ended the call between our removal and our finish
      events.responseIgnored(id);
      LOG.log(Level.DEBUG, "[{0}] response to {1} lost to a local cancel: ignored", name, id);
    }
  }

  private void onRequest(JsonRpcMessage.Request r) {
    if (closed) {
      return;
    }
    InboundTable.Admission admission = inFlight.check(r.id());
    if (admission == InboundTable.Admission.ID_IN_USE) {
      events.requestRefused(r.method(), r.id(), ErrorCodes.INVALID_REQUEST);
      refuse(
          errorResponse(
              r.id(),
              ErrorCodes.INVALID_REQUEST,
              "Invalid request: id " + r.id() + " is already in use by an active request"),
          null);
      return;
    }
    if (admission == InboundTable.Admission.LIMIT_EXCEEDED) {
      events.requestRefused(r.method(), r.id(), ErrorCodes.LIMIT_EXCEEDED);
      refuse(
          errorResponse(
              r.id(),
              ErrorCodes.LIMIT_EXCEEDED,
              "Too many requests in flight (limit " + maxInFlight + ")"),
          r.id());
      return;
    }
    ProgressToken token = null;
    ObjectNode params = r.params();
    JsonNode meta = params == null ? null : params.get("_meta");
    if (meta != null && !meta.isNull()) {
      if (!meta.isObject()) {
        events.requestRefused(r.method(), r.id(), ErrorCodes.INVALID_PARAMS);
        refuse(
            errorResponse(
                r.id(), ErrorCodes.INVALID_PARAMS, "Invalid params: _meta must be an object"),
            r.id());
        return;
      }
      JsonNode t = meta.get("progressToken");
      if (t != null && !t.isNull()) {
        try {
          token = ProgressToken.fromJson(t);
        } catch (IllegalArgumentException e) {
          events.requestRefused(r.method(), r.id(), ErrorCodes.INVALID_PARAMS);
          refuse(
              errorResponse(
                  r.id(),
                  ErrorCodes.INVALID_PARAMS,
                  "Invalid params: progressToken must be a string or an integer"),
              r.id());
          return;
        }
      }
    }
    InboundCall[] self = new InboundCall[1];
    ProgressReporter reporter =
        token == null
            ? ProgressReporter.NONE
            : new ProgressEmitter(
                token,
                n -> sendProgress(n, self[0] == null ? r.id() : self[0].progressRoute()),
                progressInterval,
                ticker,
                scheduler,
                events);
    InboundCall call = new InboundCall(this, r, reporter, token, inboundPrincipal);
    RequestMeta checked = checkedMeta;
    if (checked != null) {
      checkedMeta = null; // it was the transport's reading of this request, and of no other
      call.checkedMeta(checked);
    }
    self[0] = call;
    if (inFlight.admit(call) == InboundTable.Admission.TOKEN_IN_USE) {
      events.requestRefused(r.method(), r.id(), ErrorCodes.INVALID_PARAMS);
      refuse(
          errorResponse(
              r.id(),
              ErrorCodes.INVALID_PARAMS,
              "Invalid params: progress token is already in use by another active request"),
          r.id());
      return;
    }
    UNANSWERED.getAndAdd(this, 1);
    Thread t = Thread.ofVirtual().name("mcp-" + name + "-" + r.method()).unstarted(() -> run(call));
    call.bindThread(t);
    t.start();
  }

  /** Sends the refusal of a request that never ran; a {@link #oneRequest} session ends after it. */
  private void refuse(JsonRpcMessage.Error refusal, @Nullable RequestId relatedTo) {
    sendQuietly(refusal, relatedTo);
    if (oneRequest) {
      shutdown(null);
    }
  }

  private void sendProgress(EncodedMessage progress, @Nullable RequestId relatedTo) {
    try {
      transport.send(progress, relatedTo);
    } catch (RuntimeException e) {
      lost(McpMethods.PROGRESS);
      throw e;
    }
    events.notificationSent(EventListener.Family.PROGRESS);
  }

  private void run(InboundCall call) {
    long startedAt = listening ? ticker.nanos() : 0;
    events.requestStarted(call.method(), call.id());
    JsonRpcMessage.Response response;
    try {
      JsonNode result = requests.handle(call);
      response = new JsonRpcMessage.Result(call.id(), result == null ? McpJson.object() : result);
    } catch (Throwable e) {
      response = ExceptionTranslation.toResponse(e, call, name);
    }
    boolean won = call.tryComplete();
    DetachedWork work = call.detachedWork();
    if (won && work == null && call.progress() instanceof ProgressEmitter emitter) {
      emitter.close(); // the last value goes out before the response
    }
    release(call);
    if (listening) {
      ended(call, startedAt, won ? response : null); // before the peer can see the response
    }
    if (work != null) {
      work.markResponded(); // from now on the work's messages belong to no request
    }
    if (won) {
      sendQuietly(response, call.id());
    }
    if (work != null) {
      work.responseSent();
    }
    UNANSWERED.getAndAdd(this, -1);
    if (oneRequest) {
      shutdown(null); // its one request is over: no other thread is woken to end it
    }
    Thread.interrupted(); // clear a late interrupt; the virtual thread ends here
  }

  private void ended(InboundCall call, long startedAt, JsonRpcMessage.@Nullable Response response) {
    Duration elapsed = Duration.ofNanos(ticker.nanos() - startedAt);
    switch (response) {
      case null ->
          events.requestEnded(
              call.method(), call.id(), elapsed, EventListener.Outcome.CANCELLED, 0);
      case JsonRpcMessage.Error e ->
          events.requestEnded(
              call.method(), call.id(), elapsed, EventListener.Outcome.ERROR, e.error().code());
      case JsonRpcMessage.Result r ->
          events.requestEnded(call.method(), call.id(), elapsed, EventListener.Outcome.OK, 0);
    }
  }

  /**
   * Frees what the call holds. Everything is removed only if it is still this call's: the peer may
   * already have reused the id for a new request while this call's handler was finishing.
   */
  private void release(InboundCall call) {
    inFlight.releaseId(call);
    DetachedWork work = call.detachedWork();
    if (work != null) {
      if (!call.isCancelled()) {
        return; // the work holds the token and its requests until it ends
      }
      work.requestCancelled();
    }
    inFlight.releaseToken(call);
    cancelChildren(call.id(), "originating request ended");
  }

  /** A detached work is registered; ended at once if the session already closed. */
  void detached(DetachedWork work) {
    detachedWorks().add(work);
    if (closed) {
      work.sessionEnded();
    }
  }

  /** A detached work ended: its token is free again. */
  void releaseDetached(DetachedWork work, InboundCall call) {
    java.util.Set<DetachedWork> works = detachedWorks;
    if (works != null) {
      works.remove(work);
    }
    inFlight.releaseToken(call);
  }

  /** Work detached from its request (tasks) that has not ended yet. */
  public int detachedCount() {
    java.util.Set<DetachedWork> works = detachedWorks;
    return works == null ? 0 : works.size();
  }

  private void cancelChildren(RequestId parent, String reason) {
    for (PendingCall child : pending.calls()) {
      if (parent.equals(child.originatedBy())) {
        child.cancel(reason);
      }
    }
  }

  private void onNotification(JsonRpcMessage.Notification n) {
    switch (n.method()) {
      case McpMethods.CANCELLED -> onCancelled(n.params());
      case McpMethods.PROGRESS -> onProgress(n.params());
      default -> {
        NotificationHandler h = notifications.find(n.method());
        if (h == null) {
          events.notificationDropped(
              EventListener.Family.of(n.method()), EventListener.DropReason.UNKNOWN_METHOD);
          LOG.log(
              Level.DEBUG, "[{0}] dropped notification with unknown method {1}", name, n.method());
          return;
        }
        String missing = h.missingCapability();
        if (missing != null) {
          events.notificationDropped(
              EventListener.Family.of(n.method()), EventListener.DropReason.NOT_DECLARED);
          LOG.log(
              Level.DEBUG,
              "[{0}] dropped {1}: the peer did not declare {2}",
              name,
              n.method(),
              missing);
          return;
        }
        try {
          h.handle(n.params());
        } catch (RuntimeException e) {
          events.notificationDropped(
              EventListener.Family.of(n.method()), EventListener.DropReason.HANDLER_FAILED);
          LOG.log(
              Level.DEBUG, "[" + name + "] notification handler for " + n.method() + " failed", e);
        }
      }
    }
  }

  private void onCancelled(@Nullable ObjectNode params) {
    CancelledNotificationParams p;
    try {
      p = McpJson.fromTree(params, CancelledNotificationParams.class);
    } catch (McpException e) {
      events.notificationDropped(
          EventListener.Family.CANCELLED, EventListener.DropReason.MALFORMED);
      return;
    }
    if (p.requestId() == null) {
      events.notificationDropped(
          EventListener.Family.CANCELLED, EventListener.DropReason.MALFORMED);
      return;
    }
    InboundCall call = inFlight.get(p.requestId());
    if (call == null || McpMethods.INITIALIZE.equals(call.method()) || !call.tryCancel()) {
      events.notificationDropped(
          EventListener.Family.CANCELLED, EventListener.DropReason.NOT_CANCELLABLE);
      LOG.log(Level.DEBUG, "[{0}] ignored cancellation of {1}", name, p.requestId());
      return;
    }
    cancelInbound(call, p.reason() == null ? "cancelled by peer" : p.reason());
    try {
      transport.requestCancelled(call.id()); // no response will come: its stream ends now
    } catch (RuntimeException e) {
      LOG.log(
          Level.DEBUG,
          "[{0}] transport could not end the stream of {1}: {2}",
          name,
          call.id(),
          e.getMessage());
    }
  }

  private void cancelInbound(InboundCall call, String reason) {
    if (call.progress() instanceof ProgressEmitter emitter) {
      emitter.abandon();
    }
    call.cancelToken(reason);
    call.interrupt();
    release(call);
  }

  private void onProgress(@Nullable ObjectNode params) {
    ProgressNotificationParams p;
    try {
      p = ProgressParams.read(params);
    } catch (McpException e) {
      events.notificationDropped(EventListener.Family.PROGRESS, EventListener.DropReason.MALFORMED);
      LOG.log(Level.DEBUG, "[{0}] malformed progress notification dropped", name);
      return;
    }
    Optional<ProgressRejection> refused = progress.onProgress(p);
    if (refused.isPresent()) {
      events.progressRefused(refused.get());
      LOG.log(Level.DEBUG, "[{0}] progress refused: {1}", name, refused.get());
    } else {
      events.progressAccepted();
    }
  }

  // ---------------------------------------------------------------- lifecycle

  private void onTransportClosed(@Nullable Throwable cause) {
    if (cause == null) {
      // open-ended requests (subscriptions/listen) have no answer to wait for
      for (InboundCall call : inFlight.calls()) {
        if (call.isOpenEnded() && call.tryCancel()) {
          cancelInbound(call, "the peer ended its input");
        }
      }
    }
    if (cause != null || unanswered == 0 || drainGrace.isZero()) {
      shutdown(cause);
      return;
    }
    // The peer closed its side in an orderly way (stdin EOF): let requests already read finish,
    // for a bounded time, so their responses still go out; then end the session.
    draining = true;
    Thread.ofVirtual()
        .name("herald-" + name + "-drain")
        .start(() -> {
          long deadline = System.nanoTime() + drainGrace.toNanos();
          try {
            while (unanswered > 0 && System.nanoTime() - deadline < 0) {
              Thread.sleep(5);
            }
          } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
          }
          shutdown(null);
        });
  }

  /** Ends the session: pending calls fail, handlers are cancelled, the transport is closed. */
  public void close() {
    shutdown(null);
  }

  private void shutdown(@Nullable Throwable cause) {
    if (!CLOSED.compareAndSet(this, false, true)) {
      return;
    }
    deadlines.close();
    // A transport's own failure (a lost HTTP session, say) reaches every pending caller as is.
    // Made only when a call is pending: most sessions end with none, and an exception's stack
    // trace is not free.
    TransportException failure = null;
    for (PendingCall call : pending.calls()) {
      if (failure == null) {
        failure =
            cause instanceof TransportException te
                ? te
                : new TransportException("connection closed", cause);
      }
      pending.release(call);
      call.finish(ProgressRecord.Terminal.CONNECTION_CLOSED, null, failure, progress);
    }
    for (InboundCall call : inFlight.calls()) {
      if (call.tryCancel()) {
        cancelInbound(call, "connection closed");
      }
    }
    java.util.Set<DetachedWork> works = detachedWorks;
    if (works != null) {
      for (DetachedWork work : works) {
        work.sessionEnded();
      }
    }
    try {
      transport.close();
    } catch (RuntimeException e) {
      LOG.log(Level.DEBUG, "[{0}] transport close failed: {1}", name, e.getMessage());
    }
    events.sessionClosed(cause);
    for (CloseHook h = (CloseHook) CLOSE_HOOKS.getAndSet(this, HOOKS_RAN); h != null; h = h.next) {
      runHook(h.action);
    }
    closeFuture.complete(cause);
  }

  private void sendQuietly(JsonRpcMessage message, @Nullable RequestId relatedTo) {
    try {
      transport.send(message, relatedTo);
    } catch (RuntimeException e) {
      LOG.log(Level.DEBUG, "[{0}] send failed: {1}", name, e.getMessage());
    }
  }

  private static JsonRpcMessage.Error errorResponse(RequestId id, int code, String message) {
    return new JsonRpcMessage.Error(id, new JsonRpcMessage.ErrorObject(code, message, null));
  }

  private static TransportException asTransportFailure(RuntimeException e) {
    return e instanceof TransportException te
        ? te
        : new TransportException("send failed: " + e.getMessage(), e);
  }

  /** Builds a {@link SessionEngine}. */
  public static final class Builder {
    private @Nullable Transport transport;
    private @Nullable RequestHandler requests;
    private final Map<String, NotificationHandler> notifications = new ConcurrentHashMap<>();
    private NotificationHandler.@Nullable Router router;
    private Ticker ticker = Ticker.system();
    private Scheduler scheduler = Scheduler.system();
    private int maxInFlight = 256;
    private Duration progressInterval = Duration.ofMillis(50);
    private CallOptions defaultOptions = CallOptions.defaults();
    private String name = "session";
    private Duration drainGrace = Duration.ofSeconds(2);
    private EventListener listener = EventListener.NONE;
    private Senders senders = Senders.NONE;

    private Builder() {}

    /** The interceptors whose {@link Interceptor#sending} sees every request this side sends. */
    public Builder senders(List<? extends Interceptor<?>> interceptors) {
      this.senders = Senders.of(interceptors);
      return this;
    }

    /** The session's event listener (default {@link EventListener#NONE}); Herald guards its calls. */
    public Builder eventListener(EventListener listener) {
      this.listener = Objects.requireNonNull(listener, "listener");
      return this;
    }

    /**
     * How long requests already received may run after the peer closes its side in an orderly way
     * (stdin EOF) before they are cancelled (default 2 s; ZERO cancels at once).
     */
    public Builder drainGrace(Duration grace) {
      if (grace.isNegative()) {
        throw new IllegalArgumentException("drainGrace must not be negative: " + grace);
      }
      this.drainGrace = grace;
      return this;
    }

    public Builder transport(Transport transport) {
      this.transport = Objects.requireNonNull(transport, "transport");
      return this;
    }

    public Builder requests(RequestHandler handler) {
      this.requests = Objects.requireNonNull(handler, "handler");
      return this;
    }

    /**
     * Registers a handler for a notification method.
     *
     * @throws IllegalArgumentException for the engine's own methods or a method registered twice
     */
    public Builder onNotification(String method, NotificationHandler handler) {
      if (McpMethods.CANCELLED.equals(method) || McpMethods.PROGRESS.equals(method)) {
        throw new IllegalArgumentException(method + " is handled by the session engine itself");
      }
      if (notifications.putIfAbsent(method, Objects.requireNonNull(handler, "handler")) != null) {
        throw new IllegalArgumentException("a handler for " + method + " was already registered");
      }
      return this;
    }

    /**
     * Where notification methods not {@link #onNotification registered} one by one find their
     * handler (a role's method table, {@link MethodTable#notificationRouter}).
     */
    public Builder notifications(NotificationHandler.Router router) {
      this.router = Objects.requireNonNull(router, "router");
      return this;
    }

    public Builder ticker(Ticker ticker) {
      this.ticker = Objects.requireNonNull(ticker, "ticker");
      return this;
    }

    public Builder scheduler(Scheduler scheduler) {
      this.scheduler = Objects.requireNonNull(scheduler, "scheduler");
      return this;
    }

    public Builder maxInFlight(int max) {
      if (max < 1) {
        throw new IllegalArgumentException("maxInFlight must be at least 1, was " + max);
      }
      this.maxInFlight = max;
      return this;
    }

    /** The sender's progress cadence: at most one notification per interval per request. */
    public Builder progressInterval(Duration interval) {
      if (interval.isNegative()) {
        throw new IllegalArgumentException("progressInterval must not be negative: " + interval);
      }
      this.progressInterval = interval;
      return this;
    }

    /**
     * Clocks for every call that sets none of its own (default: none, so a call gets {@link
     * CallOptions#DEFAULT_TIMEOUT} as its absolute deadline unless it or these options turn it off
     * with {@link CallOptions.Builder#noTimeout()}).
     */
    public Builder defaultCallOptions(CallOptions options) {
      this.defaultOptions = Objects.requireNonNull(options, "options");
      return this;
    }

    public Builder name(String name) {
      this.name = Objects.requireNonNull(name, "name");
      return this;
    }

    public SessionEngine build() {
      return new SessionEngine(this);
    }
  }
}
