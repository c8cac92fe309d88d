package dev.herald.server;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import org.jspecify.annotations.Nullable;

/**
 * What one session sees of a catalog: the server's layer with the session's own layer on top.
 *
 * <p>Design note. An entry of the overlay hides the server's entry with the same key, for this
 * session only; removing it shows the server's again. The listing follows the kind's {@link
 * Catalog.Order}: sorted by key, or the server's registration order (a shadowed entry keeps the
 * server's place) followed by the overlay's own entries in theirs. The overlay layer is made on
 * first use; until then the server's list is returned as is. A session that never adds anything
 * holds no view of its own: it reads through the server's {@link #shared shared} view, which has
 * no overlay and can make none, and takes a view of its own on its first addition. The merged
 * list is cached against the two snapshots it was built from, so repeated pages of an unchanged
 * catalog see the same list.
 *
 * <p>Thread-safe and lock-free: the overlay is installed once by compare-and-set, the cache is a
 * volatile immutable record (a race builds the same list twice, harmlessly).
 */
final class LayeredCatalog<E> {
  private record Merged<E>(Catalog.Snapshot<E> base, Catalog.Snapshot<E> overlay, List<E> list) {}

  private static final VarHandle OVERLAY;

  static {
    try {
      OVERLAY =
          MethodHandles.lookup().findVarHandle(LayeredCatalog.class, "overlay", Catalog.class);
    } catch (ReflectiveOperationException e) {
      throw new ExceptionInInitializerError(e);
    }
  }

  private final Catalog<E> base;
  private final Catalog.@Nullable Audience overlayAudience; // null: the shared view
  private volatile @Nullable Catalog<E> overlay;
  private volatile @Nullable Merged<E> merged;

  /**
   * @param base the server's layer
   * @param overlayAudience who the overlay's changes are told to (the session)
   */
  LayeredCatalog(Catalog<E> base, Catalog.Audience overlayAudience) {
    this.base = Objects.requireNonNull(base, "base");
    this.overlayAudience = Objects.requireNonNull(overlayAudience, "overlayAudience");
  }

  /** The view of {@code base} without an overlay, for every session that has none of its own. */
  static <E> LayeredCatalog<E> shared(Catalog<E> base) {
    return new LayeredCatalog<>(base);
  }

  private LayeredCatalog(Catalog<E> base) {
    this.base = Objects.requireNonNull(base, "base");
    this.overlayAudience = null;
  }

  /** Whether this is a server's {@link #shared} view (which makes no overlay). */
  boolean isShared() {
    return overlayAudience == null;
  }

  /** The server's layer. */
  Catalog<E> base() {
    return base;
  }

  /**
   * The session's layer, made on first use.
   *
   * @throws IllegalStateException on a {@link #shared} view
   */
  @SuppressWarnings("unchecked")
  Catalog<E> overlay() {
    Catalog<E> o = overlay;
    if (o != null) {
      return o;
    }
    Catalog.Audience audience = overlayAudience;
    if (audience == null) {
      throw new IllegalStateException("a shared view has no overlay");
    }
    Catalog<E> made = new Catalog<>(base.kind(), audience);
    Catalog<E> won = (Catalog<E>) OVERLAY.compareAndExchange(this, null, made);
    return won == null ? made : won;
  }

  /** The session's layer, or {@code null} while nothing made it. */
  @Nullable Catalog<E> overlayIfPresent() {
    return overlay;
  }

  /** The entry with {@code key}: the overlay's if it has one, else the server's, else {@code null}. */
  @Nullable E get(String key) {
    Catalog<E> o = overlay;
    if (o != null) {
      E e = o.get(key);
      if (e != null) {
        return e;
      }
    }
    return base.get(key);
  }

  /** Every entry this session sees, once per key, in the kind's order; immutable. */
  @SuppressWarnings("ReferenceEquality") // the cache is keyed by snapshot identity, on purpose
  List<E> list() {
    Catalog.Snapshot<E> b = base.snapshot();
    Catalog<E> o = overlay;
    if (o == null) {
      return b.list();
    }
    Catalog.Snapshot<E> top = o.snapshot();
    if (top.list().isEmpty()) {
      return b.list();
    }
    Merged<E> m = merged;
    if (m != null && m.base() == b && m.overlay() == top) {
      return m.list();
    }
    List<E> list =
        base.kind().order() == Catalog.Order.BY_KEY ? bySortedKey(b, top) : byRegistration(b, top);
    merged = new Merged<>(b, top, list);
    return list;
  }

  /** Two sorted lists merged by key; on a tie the overlay's entry wins. */
  private List<E> bySortedKey(Catalog.Snapshot<E> b, Catalog.Snapshot<E> top) {
    List<E> lower = b.list();
    List<E> upper = top.list();
    List<E> out = new ArrayList<>(lower.size() + upper.size());
    int i = 0;
    int j = 0;
    while (i < lower.size() && j < upper.size()) {
      E l = lower.get(i);
      E u = upper.get(j);
      int c = base.key(l).compareTo(base.key(u));
      if (c < 0) {
        out.add(l);
        i++;
      } else {
        out.add(u);
        j++;
        if (c == 0) {
          i++;
        }
      }
    }
    out.addAll(lower.subList(i, lower.size()));
    out.addAll(upper.subList(j, upper.size()));
    return List.copyOf(out);
  }

  /** The server's order with shadowed entries replaced in place, then the overlay's own. */
  private List<E> byRegistration(Catalog.Snapshot<E> b, Catalog.Snapshot<E> top) {
    List<E> out = new ArrayList<>(b.list().size() + top.list().size());
    for (E e : b.list()) {
      E shadow = top.byKey().get(base.key(e));
      out.add(shadow != null ? shadow : e);
    }
    for (E e : top.list()) {
      if (!b.byKey().containsKey(base.key(e))) {
        out.add(e);
      }
    }
    return List.copyOf(out);
  }
}
