package dev.herald.testing;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * The command line of a real {@code herald} subprocess, from the shaded jar that herald-cli's build
 * makes. The jar is named by the {@code herald.jar} system property (the modules' Surefire and
 * Failsafe set it), else {@code ../herald-cli/target/herald.jar}.
 */
public final class HeraldJar {
  private HeraldJar() {}

  /**
   * The shaded jar.
   *
   * @throws IllegalStateException if it was not built
   */
  public static Path path() {
    Path jar =
        Path.of(System.getProperty("herald.jar", "../herald-cli/target/herald.jar"))
            .toAbsolutePath()
            .normalize();
    if (!Files.isRegularFile(jar)) {
      throw new IllegalStateException("herald.jar not built (run mvn verify): " + jar);
    }
    return jar;
  }

  /** The {@code java} launcher of the running JDK. */
  public static String java() {
    return Path.of(System.getProperty("java.home"), "bin", "java").toString();
  }

  /** {@code java -cp herald.jar dev.herald.cli.Herald args...}. */
  public static List<String> command(String... args) {
    return command(List.of(), args);
  }

  /** {@code java [jvmArgs] -cp herald.jar dev.herald.cli.Herald args...}, with a small, quick-starting JVM. */
  public static List<String> command(List<String> jvmArgs, String... args) {
    List<String> cmd = new ArrayList<>();
    cmd.add(java());
    cmd.add("-XX:+UseSerialGC");
    cmd.add("-XX:TieredStopAtLevel=1");
    cmd.addAll(jvmArgs);
    cmd.add("-cp");
    cmd.add(path().toString());
    cmd.add("dev.herald.cli.Herald");
    cmd.addAll(List.of(args));
    return cmd;
  }
}
