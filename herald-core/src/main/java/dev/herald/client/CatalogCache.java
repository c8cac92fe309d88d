package dev.herald.client;

import java.util.List;
import java.util.concurrent.Callable;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.ReentrantLock;
import org.jspecify.annotations.Nullable;

/**
 * One catalog area's cache on the client (docs/notifications.md, "List changes are hints, not
 * diffs"): {@code list_changed} marks it stale and
 * the next use refetches it, lazily and once, however many callers ask at the same time. A change
 * that arrives during a fetch leaves the cache stale, so the next use fetches again.
 *
 * <p>Thread-safe: {@code lock} serializes fetches; readers of a fresh snapshot take no lock.
 */
final class CatalogCache<T> {
  private record Snapshot<T>(long generation, List<T> items) {}

  private final Callable<List<T>> fetcher;
  private final AtomicLong generation = new AtomicLong();
  private final AtomicLong fetches = new AtomicLong();
  private final ReentrantLock lock = new ReentrantLock();
  private volatile @Nullable Snapshot<T> snapshot;

  CatalogCache(Callable<List<T>> fetcher) {
    this.fetcher = fetcher;
  }

  /** The cached items, fetched first if the cache is empty or stale. */
  List<T> get() throws InterruptedException {
    Snapshot<T> s = snapshot;
    if (s != null && s.generation() == generation.get()) {
      return s.items();
    }
    lock.lockInterruptibly();
    try {
      s = snapshot;
      long g = generation.get();
      if (s != null && s.generation() == g) {
        return s.items();
      }
      List<T> items = List.copyOf(call());
      fetches.incrementAndGet();
      snapshot = new Snapshot<>(g, items);
      return items;
    } finally {
      lock.unlock();
    }
  }

  private List<T> call() throws InterruptedException {
    try {
      return fetcher.call();
    } catch (InterruptedException | RuntimeException e) {
      throw e;
    } catch (Exception e) {
      throw new IllegalStateException(e);
    }
  }

  /** Marks the cache stale ({@code list_changed} arrived). */
  void invalidate() {
    generation.incrementAndGet();
  }

  boolean stale() {
    Snapshot<T> s = snapshot;
    return s == null || s.generation() != generation.get();
  }

  /** How many times the list was fetched from the server. */
  long fetchCount() {
    return fetches.get();
  }
}
