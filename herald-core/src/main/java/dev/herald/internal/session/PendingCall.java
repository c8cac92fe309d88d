package dev.herald.internal.session;

import dev.herald.session.CallOptions;
import dev.herald.session.CancelledException;
import dev.herald.session.ProgressRecord;
import dev.herald.session.TimeoutException;
import dev.herald.wire.McpException;
import dev.herald.wire.RequestId;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Executor;
import java.util.concurrent.atomic.AtomicBoolean;
import org.jspecify.annotations.Nullable;
import tools.jackson.databind.JsonNode;

/**
 * An outbound request waiting for its response, with its two clocks (idle, reset only by
 * accepted progress; absolute, never extended) and its progress tracker. Leaves the pending
 * table exactly once, through {@link #finish}.
 */
final class PendingCall implements OutboundCall {
  private static final System.Logger LOG = LazyLogger.of("dev.herald.session.progress");
  private final SessionEngine engine;
  private final RequestId id;
  private final String method;
  private final @Nullable RequestId originatedBy;
  private final @Nullable ProgressTracker tracker;
  private final Executor callbacks; // the call's SerialExecutor in the engine
  private final CompletableFuture<JsonNode> future = new CompletableFuture<>();
  private final AtomicBoolean done = new AtomicBoolean();
  private final long idleNanos;
  private final long deadline; // absolute, in ticker nanos; Long.MAX_VALUE when none
  private volatile long lastActivity;
  private final java.util.function.@Nullable Consumer<JsonNode> inOrder;

  /** Says whether a result hands the progress token on to work that outlives the call (a task). */
  private final java.util.function.@Nullable Predicate<JsonNode> keepsProgress;

  /** The token handed on by the result, or null. */
  private volatile @Nullable ProgressLease lease;

  PendingCall(
      SessionEngine engine,
      RequestId id,
      String method,
      @Nullable RequestId originatedBy,
      @Nullable ProgressTracker tracker,
      Executor callbacks,
      CallOptions options,
      long now,
      java.util.function.@Nullable Consumer<JsonNode> inOrder) {
    this(engine, id, method, originatedBy, tracker, callbacks, options, now, inOrder, null);
  }

  PendingCall(
      SessionEngine engine,
      RequestId id,
      String method,
      @Nullable RequestId originatedBy,
      @Nullable ProgressTracker tracker,
      Executor callbacks,
      CallOptions options,
      long now,
      java.util.function.@Nullable Consumer<JsonNode> inOrder,
      java.util.function.@Nullable Predicate<JsonNode> keepsProgress) {
    this.keepsProgress = keepsProgress;
    this.inOrder = inOrder;
    this.engine = engine;
    this.id = id;
    this.method = method;
    this.originatedBy = originatedBy;
    this.tracker = tracker;
    this.callbacks = callbacks;
    this.idleNanos =
        options.idleTimeout() == null ? Long.MAX_VALUE : options.idleTimeout().toNanos();
    this.deadline =
        options.timeout() == null ? Long.MAX_VALUE : saturatedAdd(now, options.timeout().toNanos());
    this.lastActivity = now;
  }

  @Override
  public RequestId id() {
    return id;
  }

  /** What runs on the reader when {@code result} arrives, before the caller sees it; null if nothing. */
  @Nullable Runnable inOrder(@Nullable JsonNode result) {
    java.util.function.Consumer<JsonNode> hook = inOrder;
    if (hook == null || result == null) {
      return null;
    }
    return () -> {
      try {
        hook.accept(result);
      } catch (RuntimeException e) {
        LOG.log(System.Logger.Level.WARNING, "result hook of " + method + " failed", e);
      }
    };
  }

  String method() {
    return method;
  }

  @Nullable RequestId originatedBy() {
    return originatedBy;
  }

  @Override
  public CompletableFuture<JsonNode> result() {
    return future;
  }

  @Override
  public boolean cancel(String reason) {
    return engine.cancelOutbound(
        this, reason, new CancelledException(reason), ProgressRecord.Terminal.CANCELLED);
  }

  @Override
  public Optional<ProgressRecord> progressRecord() {
    return tracker == null ? Optional.empty() : Optional.of(tracker.record());
  }

  @Nullable ProgressTracker tracker() {
    return tracker;
  }

  @Override
  public Optional<ProgressLease> keptProgress() {
    return Optional.ofNullable(lease);
  }

  boolean isDone() {
    return done.get();
  }

  /** Accepted progress: the idle clock starts again. */
  void touch(long now) {
    lastActivity = now;
    ProgressLease l = lease;
    if (l != null) {
      l.touched(now);
    }
  }

  /** The nearer of the two clocks' deadlines, in ticker nanos; {@link Long#MAX_VALUE} when none. */
  long nextDeadline() {
    long idleAt =
        idleNanos == Long.MAX_VALUE ? Long.MAX_VALUE : saturatedAdd(lastActivity, idleNanos);
    return Math.min(idleAt, deadline);
  }

  /** Which clock has run out at {@code now}, or {@code null}. */
  TimeoutException.@Nullable Clock expired(long now) {
    if (now - deadline >= 0 && deadline != Long.MAX_VALUE) {
      return TimeoutException.Clock.ABSOLUTE;
    }
    if (idleNanos != Long.MAX_VALUE && now - saturatedAdd(lastActivity, idleNanos) >= 0) {
      return TimeoutException.Clock.IDLE;
    }
    return null;
  }

  /**
   * Ends the call once. The progress token is closed first (final render), then the future
   * completes, both on the call's callback executor so the caller sees the final value before the
   * result. Returns false if the call had already ended.
   */
  boolean finish(
      ProgressRecord.Terminal how,
      @Nullable JsonNode result,
      @Nullable Throwable failure,
      ProgressRegistry registry) {
    return finish(how, result, failure, registry, null);
  }

  /**
   * Ends the call once, running {@code beforeCompletion} after the call is claimed and before the
   * caller can see the outcome: a cancellation is written to the transport there, so that a
   * caller that closes the connection as soon as its call fails cannot overtake it.
   */
  boolean finish(
      ProgressRecord.Terminal how,
      @Nullable JsonNode result,
      @Nullable Throwable failure,
      ProgressRegistry registry,
      @Nullable Runnable beforeCompletion) {
    if (!done.compareAndSet(false, true)) {
      return false;
    }
    if (beforeCompletion != null) {
      beforeCompletion.run();
    }
    if (tracker != null
        && how == ProgressRecord.Terminal.RESPONSE
        && result != null
        && keepsProgress != null
        && keepsProgress.test(result)) {
      // the result started work that outlives the call (MCP 2025-11-25 basic/utilities/progress:
      // a task keeps its request's token until the task is terminal): the token stays active
      lease = new ProgressLease(tracker, registry, callbacks);
    } else if (tracker != null) {
      registry.close(tracker, how);
      if (LOG.isLoggable(System.Logger.Level.DEBUG)) {
        ProgressRecord r = tracker.record();
        LOG.log(
            System.Logger.Level.DEBUG,
            "{0} {1} ended by {2}: progress token {3}, {4} accepted, {5} refused {6}, {7} rendered, last {8}, total {9}, {10} ms",
            method,
            id,
            how,
            r.tokenHash(),
            r.accepted(),
            r.rejectedTotal(),
            r.rejected(),
            r.rendered(),
            r.lastProgress(),
            r.totalKnown() ? "known" : "unknown",
            r.elapsed().toMillis());
      }
    }
    callbacks.execute(() -> {
      if (failure != null) {
        future.completeExceptionally(failure);
      } else {
        future.complete(result);
      }
    });
    return true;
  }

  static McpException asException(dev.herald.wire.JsonRpcMessage.ErrorObject error) {
    return McpException.fromError(error);
  }

  private static long saturatedAdd(long a, long b) {
    long r = a + b;
    return ((a ^ r) & (b ^ r)) < 0 ? Long.MAX_VALUE : r;
  }
}
