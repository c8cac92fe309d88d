package dev.herald.peerbench;

import java.io.File;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Predicate;
import java.util.stream.Stream;

/**
 * The class path of each child JVM, picked from what the build laid out in {@code
 * herald-peer-bench/target}: {@code peer-bench.jar} (this module), {@code lib/} (every runtime
 * jar of the module, Maven-mediated) and {@code sdk-jackson/} (the Jackson 3 release the SDK
 * 2.1.0 declares). Each role sees only its own jars, so no child loads a peer's classes or a
 * Jackson other than its own:
 *
 * <ul>
 *   <li>{@code herald}: Herald, Jetty, Herald's Jackson; no SDK, Reactor or servlet jar;
 *   <li>{@code sdk}: the SDK 2.1.0, Reactor, Jetty ee10 and the SDK's own Jackson 3.1.4; no Herald
 *       jar;
 *   <li>{@code ceiling}: Jetty core only;
 *   <li>{@code jsdk22}: herald-interop-jsdk22's classes and {@code target/lib} (the SDK 2.2.0 on its
 *       own Jackson), as that module's build copies them.
 * </ul>
 */
final class Classpaths {
  private final Path target;
  private final Path root;

  Classpaths(Path target, Path root) {
    this.target = target;
    this.root = root;
  }

  Path target() {
    return target;
  }

  Path root() {
    return root;
  }

  /** The jar of this module, with the driver, the servers and the clients. */
  Path benchJar() {
    return target.resolve("peer-bench.jar");
  }

  String forRole(String role) {
    return switch (role) {
      case "herald", "herald-jetty", "herald-jdk" ->
          join(
              lib(n ->
                  !n.startsWith("mcp-")
                      && !n.startsWith("reactor-")
                      && !n.startsWith("reactive-streams-")
                      && !n.startsWith("jetty-ee10-")
                      && !n.startsWith("jakarta.servlet-")
                      && !n.startsWith("herald-interop-")
                      && !n.startsWith("herald-cli-")));
      case "sdk" -> {
        List<String> cp = new ArrayList<>(jars(target.resolve("sdk-jackson"), n -> true));
        if (cp.size() != 2) {
          throw new IllegalStateException(
              "expected the SDK's jackson-core and jackson-databind in "
                  + target.resolve("sdk-jackson")
                  + ", found "
                  + cp);
        }
        cp.addAll(
            lib(n ->
                !n.startsWith("herald-")
                    && !n.startsWith("jackson-core-3")
                    && !n.startsWith("jackson-databind-3")));
        yield join(cp);
      }
      case "ceiling" ->
          join(
              lib(n ->
                  (n.startsWith("jetty-") && !n.startsWith("jetty-ee10-"))
                      || n.startsWith("slf4j-")));
      case "jsdk22" -> {
        Path mod = root.resolve("herald-interop-jsdk22/target");
        List<String> cp = new ArrayList<>();
        cp.add(mod.resolve("classes").toString());
        cp.addAll(jars(mod.resolve("lib"), n -> true));
        if (cp.size() < 3) {
          throw new IllegalStateException(
              "herald-interop-jsdk22 is not built (no jars in " + mod.resolve("lib") + ")");
        }
        yield String.join(File.pathSeparator, cp);
      }
      default -> throw new IllegalArgumentException("unknown role " + role);
    };
  }

  private List<String> lib(Predicate<String> keep) {
    List<String> cp = new ArrayList<>();
    cp.add(benchJar().toString());
    cp.addAll(jars(target.resolve("lib"), keep));
    return cp;
  }

  private static String join(List<String> cp) {
    return String.join(File.pathSeparator, cp);
  }

  private static List<String> jars(Path dir, Predicate<String> keep) {
    try (Stream<Path> s = Files.list(dir)) {
      return s.filter(p -> p.toString().endsWith(".jar"))
          .filter(p -> keep.test(p.getFileName().toString()))
          .map(Path::toString)
          .sorted()
          .toList();
    } catch (IOException e) {
      throw new UncheckedIOException("cannot list " + dir + " (is the module built?)", e);
    }
  }
}
