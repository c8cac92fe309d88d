package dev.herald.cli;

import java.net.URISyntaxException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/** The command line that starts this same Herald build again, for a subprocess server. */
final class SelfCommand {
  private SelfCommand() {}

  static List<String> of(String... args) {
    String java =
        ProcessHandle.current()
            .info()
            .command()
            .orElse(Path.of(System.getProperty("java.home"), "bin", "java").toString());
    String classpath;
    try {
      Path location =
          Path.of(Herald.class.getProtectionDomain().getCodeSource().getLocation().toURI());
      classpath = location.toString();
    } catch (URISyntaxException | SecurityException e) {
      classpath = System.getProperty("java.class.path");
    }
    if (classpath.endsWith("classes")) {
      classpath = System.getProperty("java.class.path"); // running from a build tree or a test
    }
    List<String> cmd =
        new ArrayList<>(
            List.of(
                java,
                "-XX:+UseSerialGC",
                "-XX:TieredStopAtLevel=1",
                "-cp",
                classpath,
                Herald.class.getName()));
    cmd.addAll(List.of(args));
    return cmd;
  }
}
