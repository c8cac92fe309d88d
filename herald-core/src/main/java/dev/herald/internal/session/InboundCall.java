package dev.herald.internal.session;

import dev.herald.session.CallOptions;
import dev.herald.session.CancellationToken;
import dev.herald.session.ProgressReporter;
import dev.herald.wire.JsonRpcMessage;
import dev.herald.wire.ProgressToken;
import dev.herald.wire.RequestId;
import dev.herald.wire.RequestMeta;
import java.util.concurrent.atomic.AtomicInteger;
import org.jspecify.annotations.Nullable;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * One request received from the peer and being handled: its id, method and params, its
 * cancellation token and progress reporter, and the ways its handler talks back (reverse requests
 * and related notifications), which are routed to this request's stream and cancelled with it.
 *
 * <p>Thread-safe. Ends exactly once: completed (the response is sent) or cancelled (nothing more
 * is sent for it).
 */
public final class InboundCall {
  static final int RUNNING = 0;
  static final int COMPLETING = 1;
  static final int CANCELLED = 2;

  private final SessionEngine engine;
  private final JsonRpcMessage.Request request;
  private final Token cancellation = new Token();
  private final ProgressReporter progress;
  private final @Nullable ProgressToken progressToken;
  private final AtomicInteger state = new AtomicInteger(RUNNING);
  private volatile @Nullable Thread thread;
  private volatile boolean openEnded;
  private final java.util.concurrent.atomic.AtomicReference<@Nullable DetachedWork> detached =
      new java.util.concurrent.atomic.AtomicReference<>();

  /**
   * What a stateless (2026-07-28) request said about itself in {@code _meta}, once the role's era
   * routing validated it; {@code null} for a handshake-era request. Set once, on the request's
   * thread, before any interceptor runs.
   */
  private volatile @Nullable RequestMeta requestMeta;

  /** The transport's reading of this request's {@code _meta} ({@link #checkedMeta}), or null. */
  private volatile @Nullable RequestMeta checkedMeta;

  /** Who sent the request, as the transport's token verifier established; null without one. */
  private final dev.herald.auth.@Nullable Principal principal;

  InboundCall(
      SessionEngine engine,
      JsonRpcMessage.Request request,
      ProgressReporter progress,
      @Nullable ProgressToken progressToken) {
    this(engine, request, progress, progressToken, null);
  }

  InboundCall(
      SessionEngine engine,
      JsonRpcMessage.Request request,
      ProgressReporter progress,
      @Nullable ProgressToken progressToken,
      dev.herald.auth.@Nullable Principal principal) {
    this.principal = principal;
    this.engine = engine;
    this.request = request;
    this.progress = progress;
    this.progressToken = progressToken;
  }

  public RequestId id() {
    return request.id();
  }

  public String method() {
    return request.method();
  }

  /** The raw params (may be {@code null}). */
  public @Nullable ObjectNode params() {
    return request.params();
  }

  /** {@code params._meta}, or {@code null}. */
  public @Nullable ObjectNode meta() {
    ObjectNode p = request.params();
    JsonNode m = p == null ? null : p.get("_meta");
    return m instanceof ObjectNode o ? o : null;
  }

  /**
   * The validated {@code _meta} of a stateless (2026-07-28) request, or {@code null} when the
   * request belongs to a handshake-era session (or came before any handshake, without one).
   */
  public @Nullable RequestMeta requestMeta() {
    return requestMeta;
  }

  /** Whether this is a stateless (2026-07-28) request: served without a handshake. */
  public boolean stateless() {
    return requestMeta != null;
  }

  /**
   * Marks this request stateless, with its validated {@code _meta} (the role's era routing does,
   * before the interceptor chain runs).
   *
   * @throws IllegalStateException if it was already marked
   */
  public void requestMeta(RequestMeta meta) {
    if (this.requestMeta != null) {
      throw new IllegalStateException("the request's era was already decided");
    }
    this.requestMeta = java.util.Objects.requireNonNull(meta, "meta");
  }

  /**
   * This request's {@code _meta} as the transport already read and checked it with {@link
   * RequestMeta#parse} before delivering it ({@link SessionEngine#checkedMeta}), or null: era
   * routing may use it instead of reading the same object again.
   */
  public @Nullable RequestMeta checkedMeta() {
    return checkedMeta;
  }

  void checkedMeta(RequestMeta meta) {
    this.checkedMeta = meta;
  }

  public CancellationToken cancellation() {
    return cancellation;
  }

  /**
   * The principal whose access token the request carried (MCP 2025-11-25 basic/authorization), or
   * {@code null} when the transport does not authorize (stdio, an unprotected HTTP endpoint).
   */
  public dev.herald.auth.@Nullable Principal principal() {
    return principal;
  }

  public ProgressReporter progress() {
    return progress;
  }

  /** The session this request arrived on. */
  public SessionEngine session() {
    return engine;
  }

  /** Whether the request is still being handled (not answered, not cancelled). */
  public boolean running() {
    return state.get() == RUNNING;
  }

  /**
   * Sends a request to the peer on behalf of this request (sampling, elicitation, roots): routed
   * to this request's stream, and cancelled when this request is cancelled or ends.
   */
  public OutboundCall request(String method, @Nullable ObjectNode params, CallOptions options) {
    if (requestMeta != null) {
      // 2026-07-28 basic/patterns: servers MUST NOT initiate JSON-RPC requests. Input a stateless
      // handler needs is asked for with an InputRequiredResult, never with a request.
      throw new IllegalStateException(
          "a stateless (2026-07-28) request cannot send " + method + " to the client");
    }
    return engine.request(method, params, options, id());
  }

  /**
   * Sends a notification tied to this request (a log line while it runs). Routed to this
   * request's stream while it is open.
   */
  public void notify(String method, @Nullable ObjectNode params) {
    engine.notify(method, params, id());
  }

  /**
   * Lets this request's work outlive its response (a task): the progress token stays registered
   * and the progress reporter open until the returned work ends, and nothing it sends after the
   * response is tied to this request. Call it before the handler returns.
   *
   * @throws IllegalStateException if the request already ended or was already detached
   */
  public DetachedWork detach() {
    if (!running()) {
      throw new IllegalStateException("request " + id() + " already ended");
    }
    DetachedWork work = new DetachedWork(engine, this);
    if (!detached.compareAndSet(null, work)) {
      throw new IllegalStateException("request " + id() + " was already detached");
    }
    engine.detached(work);
    return work;
  }

  /** The work detached from this request, or {@code null}. */
  public @Nullable DetachedWork detachedWork() {
    return detached.get();
  }

  /** Where this request's progress goes: the request, or no request once its work is detached and answered. */
  @Nullable RequestId progressRoute() {
    DetachedWork work = detached.get();
    return work == null ? id() : work.route();
  }

  /** The progress token this request holds in its session, or {@code null}. */
  @Nullable ProgressToken progressToken() {
    return progressToken;
  }

  /**
   * Closes this request's stream on transports that have one (Streamable HTTP), without ending the
   * request: the client reconnects with {@code Last-Event-ID} and receives what follows, the
   * response included. Returns false on transports without per-request streams (stdio).
   */
  public boolean pollStream() {
    return running() && engine.pollStream(id());
  }

  /**
   * Marks this request as open-ended: it runs until the peer cancels it or the server ends it (a
   * {@code subscriptions/listen} stream, MCP 2026-07-28), so when the peer ends its input in an
   * orderly way (stdin EOF) it is cancelled at once instead of being waited for like a request that
   * is still producing its answer.
   */
  public void openEnded() {
    this.openEnded = true;
  }

  boolean isOpenEnded() {
    return openEnded;
  }

  JsonRpcMessage.Request request() {
    return request;
  }

  boolean tryComplete() {
    return state.compareAndSet(RUNNING, COMPLETING);
  }

  boolean tryCancel() {
    return state.compareAndSet(RUNNING, CANCELLED);
  }

  boolean isCancelled() {
    return state.get() == CANCELLED;
  }

  void bindThread(Thread t) {
    this.thread = t;
  }

  void interrupt() {
    Thread t = thread;
    if (t != null) {
      t.interrupt();
    }
  }

  boolean cancelToken(String reason) {
    return cancellation.fire(reason);
  }

  /** The request's token; only this call cancels it. */
  private static final class Token extends CancellationToken {
    boolean fire(String reason) {
      return cancel(reason);
    }
  }
}
