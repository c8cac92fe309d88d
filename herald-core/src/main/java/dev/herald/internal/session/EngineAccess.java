package dev.herald.internal.session;

import java.util.Map;
import java.util.Objects;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Function;

/**
 * The way from a role's public object ({@code ServerSession}, {@code McpClient}) to the session
 * engine under it, for Herald's own modules and tests only.
 *
 * <p>Design note: the public types no longer hand out their engine (a caller holding it could
 * send past the gates the roles enforce). Each role registers, from its own static initialiser,
 * how to find its engine; this class is in a package exported only to Herald's modules, so the
 * registry is out of users' reach on the module path (the JDK's {@code SharedSecrets} pattern).
 * Keyed by class, so this package does not depend on the roles above it.
 *
 * <p>Thread-safe.
 */
public final class EngineAccess {
  private static final Map<Class<?>, Function<Object, SessionEngine>> OWNERS =
      new ConcurrentHashMap<>();

  private EngineAccess() {}

  /**
   * Registers how to find the engine behind instances of {@code owner}; once per class.
   *
   * @throws IllegalStateException if {@code owner} was already registered
   */
  public static <T> void register(Class<T> owner, Function<? super T, SessionEngine> engine) {
    Objects.requireNonNull(engine, "engine");
    if (OWNERS.putIfAbsent(owner, o -> engine.apply(owner.cast(o))) != null) {
      throw new IllegalStateException(
          "an engine accessor for " + owner.getName() + " was already registered");
    }
  }

  /**
   * The engine behind {@code owner} (a {@code ServerSession} or an {@code McpClient}; for a client,
   * the engine of its current connection).
   *
   * @throws IllegalArgumentException if {@code owner}'s class registered no accessor
   */
  public static SessionEngine of(Object owner) {
    Function<Object, SessionEngine> engine = OWNERS.get(owner.getClass());
    if (engine == null) {
      throw new IllegalArgumentException(
          "no session engine behind a " + owner.getClass().getName());
    }
    return engine.apply(owner);
  }
}
