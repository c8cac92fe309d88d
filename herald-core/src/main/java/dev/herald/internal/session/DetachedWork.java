package dev.herald.internal.session;

import dev.herald.session.CallOptions;
import dev.herald.session.CancellationToken;
import dev.herald.session.ProgressReporter;
import dev.herald.wire.ProgressToken;
import dev.herald.wire.RequestId;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicBoolean;
import org.jspecify.annotations.Nullable;
import tools.jackson.databind.node.ObjectNode;

/**
 * The work of an inbound request that outlives its response: a task (MCP 2025-11-25
 * basic/utilities/tasks; the 2026-07-28 {@code io.modelcontextprotocol/tasks} extension). Made by
 * {@link InboundCall#detach()} before the request is answered.
 *
 * <p>Design note. Until the work is finished the request's progress token stays registered in its
 * session (another request carrying it is refused with -32602, as for any active request) and its
 * progress emitter stays open (MCP 2025-11-25 basic/utilities/progress: the original token is
 * valid for the whole task lifetime). Once the response is sent, what the work sends is not tied
 * to the request any more: progress and notifications go with no related request (the session's
 * standing stream on Streamable HTTP, the pipe on stdio). Requests it makes to the peer ({@link
 * #request}) are never related to the request, so its end does not cancel them; they are
 * cancelled when the work ends. The work ends exactly once: {@link #finish()} (the last progress
 * value goes out first), {@link #cancel(String)} (the request's token trips, nothing more is sent),
 * or the end of the session (progress is dropped; the token is left alone, since work that is not
 * bound to the session may go on).
 *
 * <p>Thread-safe.
 */
public final class DetachedWork {
  private final SessionEngine engine;
  private final InboundCall call;
  private final AtomicBoolean ended = new AtomicBoolean();
  private final Set<OutboundCall> children = ConcurrentHashMap.newKeySet();
  private volatile boolean responded;
  private final java.util.concurrent.CompletableFuture<@Nullable Void> answered =
      new java.util.concurrent.CompletableFuture<>();

  DetachedWork(SessionEngine engine, InboundCall call) {
    this.engine = engine;
    this.call = call;
  }

  /** The id of the request this work came from. */
  public RequestId requestId() {
    return call.id();
  }

  /** The session the request arrived on. */
  public SessionEngine session() {
    return engine;
  }

  /** The request's progress token, or {@code null}; held until this work ends. */
  public @Nullable ProgressToken progressToken() {
    return call.progressToken();
  }

  /** The request's progress reporter, open until this work ends. */
  public ProgressReporter progress() {
    return call.progress();
  }

  /** The request's cancellation token: tripped by {@link #cancel} (or by cancelling the request). */
  public CancellationToken cancellation() {
    return call.cancellation();
  }

  /** Whether the request was answered (what is sent from now on has no related request). */
  public boolean responded() {
    return responded;
  }

  /**
   * Runs {@code action} on a virtual thread of its own once the request's response was written
   * (or once it is certain that none will be: the request was cancelled, the session ended), so
   * that what the work sends from then on comes after the response. At once if that already
   * happened.
   */
  public void afterResponse(Runnable action) {
    answered.whenComplete((v, e) -> Thread.ofVirtual().name("herald-detached").start(action));
  }

  /**
   * Waits until the request's response was written (or it is certain that none will be).
   *
   * @throws InterruptedException if the waiting thread is interrupted
   */
  public void awaitAnswered() throws InterruptedException {
    try {
      answered.get();
    } catch (java.util.concurrent.ExecutionException e) {
      // never completed exceptionally
    }
  }

  /** Whether this work has ended. */
  public boolean ended() {
    return ended.get();
  }

  /**
   * Sends a request to the peer for this work (input a task needs): not related to the original
   * request, so its response does not cancel it; cancelled when this work ends.
   *
   * @throws IllegalStateException if this work has ended
   * @throws dev.herald.transport.TransportException if the session is closed
   */
  public OutboundCall request(String method, @Nullable ObjectNode params, CallOptions options) {
    if (ended.get()) {
      throw new IllegalStateException("the work of request " + call.id() + " has ended");
    }
    OutboundCall out = engine.request(method, params, options, null);
    children.add(out);
    out.result().whenComplete((r, e) -> children.remove(out));
    if (ended.get()) {
      out.cancel("task ended");
    }
    return out;
  }

  /**
   * Sends a notification for this work: related to the request until it is answered, then to no
   * request.
   *
   * @throws dev.herald.transport.TransportException if the session is closed or the write fails
   */
  public void notify(String method, @Nullable ObjectNode params) {
    engine.notify(method, params, route());
  }

  /**
   * Ends the work normally: the pending progress value is sent, then the progress token is freed
   * and the requests still waiting are cancelled. Returns false if it had already ended.
   */
  public boolean finish() {
    if (!ended.compareAndSet(false, true)) {
      return false;
    }
    if (call.progress() instanceof ProgressEmitter emitter) {
      emitter.close();
    }
    release("task ended");
    return true;
  }

  /**
   * Ends the work as cancelled: the request's cancellation token trips with {@code reason},
   * pending progress is dropped, the token is freed and the requests still waiting are cancelled.
   * Trips the token even after the session ended (work that outlives its session is cancelled
   * this way). Returns whether this call tripped the token.
   */
  public boolean cancel(String reason) {
    if (call.progress() instanceof ProgressEmitter emitter) {
      emitter.abandon();
    }
    boolean tripped = call.cancelToken(reason);
    if (ended.compareAndSet(false, true)) {
      release(reason);
    }
    return tripped;
  }

  /** The session ended: nothing more can be sent; the token is left to whoever owns the work. */
  void sessionEnded() {
    answered.complete(null);
    if (!ended.compareAndSet(false, true)) {
      return;
    }
    if (call.progress() instanceof ProgressEmitter emitter) {
      emitter.abandon();
    }
    release("connection closed");
  }

  /** The request was cancelled before its response went out: the work ends with it. */
  void requestCancelled() {
    if (ended.compareAndSet(false, true)) {
      release("originating request cancelled");
    }
    answered.complete(null);
  }

  void markResponded() {
    responded = true;
  }

  /** The response was written (or could not be): {@link #afterResponse} actions run now. */
  void responseSent() {
    answered.complete(null);
  }

  /** Where what this work sends belongs: the request while it is unanswered, then nowhere. */
  @Nullable RequestId route() {
    return responded ? null : call.id();
  }

  private void release(String reason) {
    engine.releaseDetached(this, call);
    for (OutboundCall child : children) {
      child.cancel(reason);
    }
    children.clear();
  }
}
