package dev.herald.server;

import org.jspecify.annotations.Nullable;

/**
 * Hands out one instance for a run of equal values, so that what many sessions keep and is the
 * same for all of them (the capabilities this server declared, the client's name and
 * capabilities when the sessions come from one kind of client) is held once rather than once per
 * session.
 *
 * <p>Design note. Only the last value is remembered: a server's sessions mostly come from one or
 * a few kinds of client, and a value that differs simply replaces it (never a miss that costs
 * more than the equality check). The values must be immutable in practice: wire records whose
 * JSON members nobody changes after decoding.
 *
 * <p>Thread-safe: a race keeps one of the equal values, either of which is correct.
 */
final class Canonical<T> {
  private volatile @Nullable T last;

  /** {@code value}, or an equal instance handed out before. */
  T of(T value) {
    T l = last;
    if (l != null && l.equals(value)) {
      return l;
    }
    last = value;
    return value;
  }
}
