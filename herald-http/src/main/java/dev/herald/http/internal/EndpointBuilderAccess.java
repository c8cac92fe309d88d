package dev.herald.http.internal;

import java.util.Objects;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Function;
import org.jspecify.annotations.Nullable;

/**
 * The way from a public {@code dev.herald.http.EndpointBuilder} to the {@link EndpointConfig.Builder}
 * it fills, for the hosts in Herald's own modules ({@code McpHttpServer}, {@code McpServlet}).
 *
 * <p>Design note: the settings builder is internal, so the public builder keeps it in a
 * package-private field instead of handing it to every subclass; {@code EndpointBuilder}
 * registers how to reach it from its static initialiser (the JDK's {@code SharedSecrets}
 * pattern), and this package is exported only to {@code dev.herald.servlet}.
 *
 * <p>Thread-safe.
 */
public final class EndpointBuilderAccess {
  private static final AtomicReference<@Nullable Function<Object, EndpointConfig.Builder>> CONFIGS =
      new AtomicReference<>();

  private EndpointBuilderAccess() {}

  /**
   * Registers how to reach an endpoint builder's settings; once.
   *
   * @throws IllegalStateException if an accessor was already registered
   */
  public static void register(Function<Object, EndpointConfig.Builder> access) {
    Objects.requireNonNull(access, "access");
    if (!CONFIGS.compareAndSet(null, access)) {
      throw new IllegalStateException("an EndpointBuilder accessor was already registered");
    }
  }

  /**
   * The settings {@code endpointBuilder} (an {@code EndpointBuilder}) fills.
   *
   * @throws IllegalStateException if {@code EndpointBuilder} registered no accessor
   */
  public static EndpointConfig.Builder config(Object endpointBuilder) {
    Function<Object, EndpointConfig.Builder> access = CONFIGS.get();
    if (access == null) {
      throw new IllegalStateException("EndpointBuilder registered no accessor");
    }
    return access.apply(endpointBuilder);
  }
}
