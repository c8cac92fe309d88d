package dev.herald.server;

import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.SequencedMap;
import java.util.TreeMap;
import java.util.concurrent.locks.ReentrantLock;
import java.util.function.Function;
import org.jspecify.annotations.Nullable;

/**
 * One layer of a catalog: tools, resources, resource templates or prompts, keyed by name (or uri,
 * or uri template), changeable at run time. The server holds one layer per kind; a session sees
 * the server's layer with its own on top ({@link LayeredCatalog}).
 *
 * <p>Design note (MCP server features: tools, resources, prompts; MCP 2025-11-25 {@code
 * list_changed}). Every layer is the same object whatever it holds; a {@link Kind} says how its
 * entries are keyed, in which order they are listed, and which {@link CatalogArea} a change
 * announces. Lists are ordered ({@link Order}) so that pagination cursors, which are offsets,
 * stay stable while nothing changes. Writers take the lock and publish an immutable {@link
 * Snapshot}; readers never lock and never see a list change under them. A change is reported to
 * the layer's {@link Audience} after the lock is released: the server's layers tell every
 * session, a session's layers tell that session only; both coalesce through a debounce.
 *
 * <p>Thread-safe: {@code lock} guards {@code entries}; {@code snapshot} is published after each
 * change under it.
 */
final class Catalog<E> {
  /** How entries are listed. */
  enum Order {
    /** Sorted by key (tools, prompts). */
    BY_KEY,
    /** In registration order; a replaced entry keeps its place (resources, templates). */
    BY_REGISTRATION
  }

  /**
   * What a catalog holds: the area its changes announce, each entry's key, and the list order.
   * The same kind serves the server's layer and every session's.
   */
  record Kind<E>(CatalogArea area, Function<E, String> key, Order order) {
    Kind {
      Objects.requireNonNull(area, "area");
      Objects.requireNonNull(key, "key");
      Objects.requireNonNull(order, "order");
    }
  }

  /** Who is told that a layer changed: the server (every session) or one session. */
  @FunctionalInterface
  interface Audience {
    /** A layer of {@code area} changed. Called after the layer's lock is released; must not block. */
    void changed(CatalogArea area);
  }

  /** The entries at one moment: listed in order, and by key. Immutable. */
  record Snapshot<E>(List<E> list, Map<String, E> byKey) {
    static final Snapshot<?> EMPTY = new Snapshot<>(List.of(), Map.of());

    @SuppressWarnings("unchecked")
    static <E> Snapshot<E> empty() {
      return (Snapshot<E>) EMPTY;
    }
  }

  private final Kind<E> kind;
  private final Audience audience;
  private final ReentrantLock lock = new ReentrantLock();
  // guarded by lock
  private final SequencedMap<String, E> entries;
  private volatile Snapshot<E> snapshot = Snapshot.empty();

  /** An empty layer. */
  Catalog(Kind<E> kind, Audience audience) {
    this(kind, audience, List.of());
  }

  /** A layer holding {@code initial} (in that order), without announcing them. */
  Catalog(Kind<E> kind, Audience audience, Collection<? extends E> initial) {
    this.kind = Objects.requireNonNull(kind, "kind");
    this.audience = Objects.requireNonNull(audience, "audience");
    this.entries = kind.order() == Order.BY_KEY ? new TreeMap<>() : new LinkedHashMap<>();
    if (!initial.isEmpty()) {
      lock.lock();
      try {
        for (E e : initial) {
          entries.put(key(e), e);
        }
        publish();
      } finally {
        lock.unlock();
      }
    }
  }

  Kind<E> kind() {
    return kind;
  }

  /** Adds {@code entry}, or replaces the one with its key, and tells the audience. */
  void put(E entry) {
    Objects.requireNonNull(entry, "entry");
    String key = key(entry);
    lock.lock();
    try {
      entries.put(key, entry);
      publish();
    } finally {
      lock.unlock();
    }
    audience.changed(kind.area());
  }

  /**
   * Removes the entry with {@code key} and tells the audience.
   *
   * @return false (and nobody is told) if there was none
   */
  boolean remove(String key) {
    boolean removed;
    lock.lock();
    try {
      removed = entries.remove(key) != null;
      if (removed) {
        publish();
      }
    } finally {
      lock.unlock();
    }
    if (removed) {
      audience.changed(kind.area());
    }
    return removed;
  }

  /** The entry with {@code key} in this layer, or {@code null}. */
  @Nullable E get(String key) {
    return snapshot.byKey().get(key);
  }

  /** This layer's entries in {@link Order}; an immutable snapshot. */
  List<E> list() {
    return snapshot.list();
  }

  boolean isEmpty() {
    return snapshot.list().isEmpty();
  }

  /** The current snapshot (identity changes with every change). */
  Snapshot<E> snapshot() {
    return snapshot;
  }

  String key(E entry) {
    return Objects.requireNonNull(kind.key().apply(entry), "key");
  }

  private void publish() {
    snapshot = new Snapshot<>(List.copyOf(entries.values()), Map.copyOf(entries));
  }
}
