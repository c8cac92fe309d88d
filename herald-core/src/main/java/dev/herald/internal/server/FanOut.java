package dev.herald.internal.server;

import java.util.ArrayList;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.function.Supplier;
import org.jspecify.annotations.Nullable;

/**
 * One server-wide fan-out running on this thread: a list change, a resource update or a log that
 * the server hands to many sessions in one loop (docs/scale-out.md, "Fan-out: exactly once per
 * session"). A transport may hold back per-session work that is cheaper done for all sessions at
 * once, in a {@link Batch} it attaches here, and finish it when the fan-out ends: in a cluster the
 * HTTP transport stores the events of all the sessions' streams in one round trip to the shared
 * event store instead of one per session.
 *
 * <p>Nothing changes for a transport that attaches nothing. The scope is per thread: a batch is
 * only touched by the thread that runs the fan-out. {@link #run} nested in another joins it.
 */
public final class FanOut {
  private static final ThreadLocal<@Nullable FanOut> CURRENT = new ThreadLocal<>();

  /** Work held back until the fan-out ends. */
  public interface Batch {
    /**
     * Does what was held back; may also be called before the fan-out ends (the batch is then
     * empty and may fill again). Must not throw.
     */
    void finish();
  }

  private final IdentityHashMap<Object, Batch> batches = new IdentityHashMap<>(2);
  private final List<Batch> order = new ArrayList<>(2);

  private FanOut() {}

  /** The fan-out running on this thread, or null. */
  public static @Nullable FanOut current() {
    return CURRENT.get();
  }

  /**
   * Runs {@code body} as one fan-out, then finishes every batch attached during it (on this
   * thread, in the order they were attached). Inside another fan-out, joins it.
   */
  public static void run(Runnable body) {
    if (CURRENT.get() != null) {
      body.run();
      return;
    }
    FanOut f = new FanOut();
    CURRENT.set(f);
    try {
      body.run();
    } finally {
      CURRENT.remove();
      for (Batch b : f.order) {
        b.finish();
      }
    }
  }

  /** The batch attached under {@code key} (compared by identity), made by {@code make} the first time. */
  @SuppressWarnings("unchecked") // one key, one batch type: the caller's
  public <B extends Batch> B batch(Object key, Supplier<B> make) {
    Batch b = batches.get(key);
    if (b == null) {
      b = make.get();
      batches.put(key, b);
      order.add(b);
    }
    return (B) b;
  }
}
