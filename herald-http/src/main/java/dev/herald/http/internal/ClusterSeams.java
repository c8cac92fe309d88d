package dev.herald.http.internal;

import java.util.Map;
import java.util.Objects;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Function;

/**
 * From a public {@code ClusterMember} to the {@link ClusterSeam} behind it, for Herald's scale-out
 * modules (the {@code EngineAccess} pattern: each implementation registers from its static
 * initialiser; this package is exported to Herald's modules only).
 *
 * <p>Thread-safe.
 */
public final class ClusterSeams {
  private static final Map<Class<?>, Function<Object, ClusterSeam>> SEAMS =
      new ConcurrentHashMap<>();

  private ClusterSeams() {}

  /**
   * Registers how to find the seam behind instances of {@code member}; once per class.
   *
   * @throws IllegalStateException if {@code member} was already registered
   */
  public static <T> void register(Class<T> member, Function<? super T, ClusterSeam> seam) {
    Objects.requireNonNull(seam, "seam");
    if (SEAMS.putIfAbsent(member, m -> seam.apply(member.cast(m))) != null) {
      throw new IllegalStateException(
          "a cluster seam for " + member.getName() + " was already registered");
    }
  }

  /**
   * The seam behind {@code member}.
   *
   * @throws IllegalArgumentException if {@code member}'s class is not a Herald cluster
   */
  public static ClusterSeam of(Object member) {
    Function<Object, ClusterSeam> seam = SEAMS.get(member.getClass());
    if (seam == null) {
      throw new IllegalArgumentException(
          "not a Herald cluster member: "
              + member.getClass().getName()
              + " (use one made by a Herald scale-out module, such as RedisCluster)");
    }
    return seam.apply(member);
  }
}
