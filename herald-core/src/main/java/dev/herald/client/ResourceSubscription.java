package dev.herald.client;

/**
 * A listener's subscription to one resource uri. {@link #close()} removes the listener; the last
 * listener of a uri sends {@code resources/unsubscribe}. Idempotent.
 */
@SuppressWarnings(
    "try") // close() is a round trip to the server; an interrupt must reach the caller
public final class ResourceSubscription implements AutoCloseable {
  interface Unsubscribe {
    void run() throws InterruptedException;
  }

  private final String uri;
  private final Unsubscribe unsubscribe;
  private final java.util.concurrent.atomic.AtomicBoolean closed =
      new java.util.concurrent.atomic.AtomicBoolean();

  ResourceSubscription(String uri, Unsubscribe unsubscribe) {
    this.uri = uri;
    this.unsubscribe = unsubscribe;
  }

  public String uri() {
    return uri;
  }

  @Override
  public void close() throws InterruptedException {
    if (closed.compareAndSet(false, true)) {
      unsubscribe.run();
    }
  }
}
