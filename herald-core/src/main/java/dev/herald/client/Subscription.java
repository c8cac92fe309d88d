package dev.herald.client;

import dev.herald.wire.SubscriptionFilter;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * One subscription opened with {@link McpClient#listen}: on a 2026-07-28 server a {@code
 * subscriptions/listen} request held open (re-sent after the server ends it or its stream breaks),
 * on a handshake-era server the session's list changes and {@code resources/subscribe}. {@link
 * #close()} ends it: on stdio with {@code notifications/cancelled} for the listen request, on HTTP
 * by closing its stream, in the handshake era with {@code resources/unsubscribe}. Idempotent.
 *
 * <p>Thread-safe.
 */
public final class Subscription implements AutoCloseable {
  interface Closer {
    void close();
  }

  private final SubscriptionFilter requested;
  private final CompletableFuture<SubscriptionFilter> honoured = new CompletableFuture<>();
  private final AtomicBoolean closed = new AtomicBoolean();
  private volatile Closer closer = () -> {};

  Subscription(SubscriptionFilter requested) {
    this.requested = requested;
  }

  void closer(Closer closer) {
    this.closer = closer;
  }

  /** The filter as asked. */
  public SubscriptionFilter requested() {
    return requested;
  }

  /**
   * Completes with what the server first said it will honour (its acknowledgement, compared by the
   * caller with {@link #requested()}); fails if the subscription ended before it was acknowledged.
   */
  public CompletableFuture<SubscriptionFilter> honoured() {
    return honoured;
  }

  void acknowledged(SubscriptionFilter filter) {
    honoured.complete(filter);
  }

  void failed(Throwable cause) {
    honoured.completeExceptionally(cause);
  }

  public boolean isOpen() {
    return !closed.get();
  }

  @Override
  public void close() {
    if (closed.compareAndSet(false, true)) {
      honoured.cancel(false);
      closer.close();
    }
  }
}
