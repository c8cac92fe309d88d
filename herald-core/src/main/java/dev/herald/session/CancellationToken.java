package dev.herald.session;

import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicReference;
import org.jspecify.annotations.Nullable;

/**
 * Tells a handler that its request was cancelled: by the peer ({@code notifications/cancelled}),
 * by a timeout, or because the session ended. Handlers poll {@link #isCancelled()}, call
 * {@link #throwIfCancelled()}, or register a callback; the handler's thread is also interrupted.
 *
 * <p>Only its owner cancels it: the session engine for a request's token (a handler cannot cancel
 * the token it is handed). A test double of a request context can subclass it and call {@link
 * #cancel(String)} itself.
 *
 * <p>Thread-safe. Callbacks run once, on the thread that cancels, and must not block.
 */
public abstract class CancellationToken {
  private final AtomicReference<@Nullable String> reason = new AtomicReference<>();
  private final CopyOnWriteArrayList<Runnable> callbacks = new CopyOnWriteArrayList<>();

  /** For the token's owner (the session engine, or a test double). */
  protected CancellationToken() {}

  public boolean isCancelled() {
    return reason.get() != null;
  }

  /** Why it was cancelled, or {@code null} while it is not. */
  public @Nullable String reason() {
    return reason.get();
  }

  /**
   * Throws if this token was cancelled.
   *
   * @throws CancelledException if cancelled
   */
  public void throwIfCancelled() {
    String r = reason.get();
    if (r != null) {
      throw new CancelledException(r);
    }
  }

  /** Runs {@code callback} when cancelled (at once if already cancelled). */
  public void onCancel(Runnable callback) {
    callbacks.add(callback);
    if (isCancelled() && callbacks.remove(callback)) {
      callback.run();
    }
  }

  /** Cancels; returns false if it was already cancelled. */
  protected final boolean cancel(String why) {
    if (!reason.compareAndSet(null, why == null ? "cancelled" : why)) {
      return false;
    }
    for (Runnable r : callbacks) {
      if (callbacks.remove(r)) {
        try {
          r.run();
        } catch (RuntimeException ignored) {
          // a callback's failure must not stop the others
        }
      }
    }
    return true;
  }
}
