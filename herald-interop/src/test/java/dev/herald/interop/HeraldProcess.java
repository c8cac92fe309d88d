package dev.herald.interop;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/** The command line of a real {@code herald} subprocess, from the shaded jar the build made. */
final class HeraldProcess {
  private HeraldProcess() {}

  static List<String> command(String... args) {
    Path jar = Path.of(System.getProperty("herald.jar", "../herald-cli/target/herald.jar")).toAbsolutePath().normalize();
    if (!Files.isRegularFile(jar)) {
      throw new IllegalStateException("herald.jar not built: " + jar);
    }
    List<String> cmd = new ArrayList<>(List.of(
        Path.of(System.getProperty("java.home"), "bin", "java").toString(),
        "-XX:+UseSerialGC", "-XX:TieredStopAtLevel=1", "-cp", jar.toString(), "dev.herald.cli.Herald"));
    cmd.addAll(List.of(args));
    return cmd;
  }
}
