package dev.herald.cli;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/** The command line of a real {@code herald} subprocess, from the shaded jar the build made. */
final class ServerProcess {
  private ServerProcess() {}

  static Path jar() {
    String p = System.getProperty("herald.jar");
    if (p == null || !Files.isRegularFile(Path.of(p))) {
      throw new IllegalStateException("herald.jar not built (run mvn verify): " + p);
    }
    return Path.of(p);
  }

  static String java() {
    return Path.of(System.getProperty("java.home"), "bin", "java").toString();
  }

  /** {@code java [jvmArgs] -cp herald.jar dev.herald.cli.Herald args...}. */
  static List<String> command(List<String> jvmArgs, String... args) {
    List<String> cmd = new ArrayList<>();
    cmd.add(java());
    cmd.add("-XX:+UseSerialGC");
    cmd.add("-XX:TieredStopAtLevel=1");
    cmd.addAll(jvmArgs);
    cmd.add("-cp");
    cmd.add(jar().toString());
    cmd.add("dev.herald.cli.Herald");
    cmd.addAll(List.of(args));
    return cmd;
  }
}
