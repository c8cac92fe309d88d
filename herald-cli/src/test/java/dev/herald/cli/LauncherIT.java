package dev.herald.cli;

import static org.assertj.core.api.Assertions.assertThat;

import dev.herald.testing.HeraldJar;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code bin/herald} as a host runs it: a real subprocess of the launcher serving stdio, with its
 * class-data sharing file in a directory of the test's own (the jar given by {@code HERALD_JAR}, so
 * the launcher never builds).
 */
class LauncherIT {
  private static final String INITIALIZE =
      "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"initialize\",\"params\":{\"protocolVersion\":"
          + "\"2025-11-25\",\"capabilities\":{},\"clientInfo\":{\"name\":\"t\",\"version\":\"1\"}}}";

  @TempDir Path tmp;

  @Test
  void theFirstRunRecordsAnArchiveThatTheNextRunUsesAndBothAnswerInitialize() throws Exception {
    Path jar = copyOfTheJar();
    Path cds = tmp.resolve("cds");

    assertThat(serveAndInitialize(jar, cds)).contains("\"id\":1").contains("\"result\"");
    List<Path> recorded = archives(cds);
    assertThat(recorded).hasSize(1);

    assertThat(serveAndInitialize(jar, cds)).contains("\"id\":1").contains("\"result\"");
    assertThat(archives(cds)).isEqualTo(recorded);
  }

  @Test
  void aRebuiltJarGetsAFreshArchiveAndTheOldOneIsRemoved() throws Exception {
    Path jar = copyOfTheJar();
    Path cds = tmp.resolve("cds");
    serveAndInitialize(jar, cds);
    List<Path> before = archives(cds);
    assertThat(before).hasSize(1);

    // the same jar rebuilt: another modification time
    Files.setLastModifiedTime(
        jar, FileTime.fromMillis(Files.getLastModifiedTime(jar).toMillis() + 10_000));

    assertThat(serveAndInitialize(jar, cds)).contains("\"id\":1").contains("\"result\"");
    List<Path> after = archives(cds);
    assertThat(after).hasSize(1).doesNotContainAnyElementsOf(before);
  }

  @Test
  void withoutAWritableArchiveDirectoryItServesAsBefore() throws Exception {
    Path jar = copyOfTheJar();
    Path notADirectory = Files.writeString(tmp.resolve("a-file"), "x");
    Path cds = notADirectory.resolve("cds"); // cannot be created, even by root

    assertThat(serveAndInitialize(jar, cds)).contains("\"id\":1").contains("\"result\"");
    assertThat(Files.isRegularFile(notADirectory)).isTrue();
  }

  @Test
  void itCanBeTurnedOff() throws Exception {
    Path jar = copyOfTheJar();
    Path cds = tmp.resolve("cds");

    assertThat(serveAndInitialize(jar, cds, "HERALD_CDS", "off")).contains("\"result\"");
    assertThat(cds).doesNotExist();
  }

  @Test
  void withItsArchiveTheLauncherRunsNoCommandButStatBeforeTheJvm() throws Exception {
    // A host spawns `herald serve --stdio` on demand and waits for every process the launcher
    // starts before the JVM: with the archive recorded, only `stat` (and bash) may be on PATH.
    Path jar = copyOfTheJar();
    Path cds = tmp.resolve("cds");
    serveAndInitialize(jar, cds);
    Path bin = Files.createDirectories(tmp.resolve("only-bash-and-stat"));
    for (String command : new String[] {"bash", "stat"}) {
      Files.createSymbolicLink(bin.resolve(command), onPath(command));
    }

    assertThat(serveAndInitialize(jar, cds, "PATH", bin.toString()))
        .contains("\"id\":1")
        .contains("\"result\"");
  }

  @Test
  void theJdkSearchTakesAJavaHomeOf21OrNewerAndPassesOverAnOlderOne() throws Exception {
    Path jdk21 = fakeJdk("jdk-21", "21.0.1");
    Path jdk17 = fakeJdk("jdk-17", "17.0.9");
    Path findJdk = Path.of("..", "scripts", "find-jdk").toAbsolutePath();

    assertThat(run(findJdk, "JAVA_HOME", jdk21.toString())).isEqualTo(jdk21.toString());
    assertThat(run(findJdk, "JAVA_HOME", jdk17.toString())).isNotEqualTo(jdk17.toString());
  }

  /** A folder that looks like a JDK of the given version to the search: bin/javac and release. */
  private Path fakeJdk(String name, String version) throws IOException {
    Path home = Files.createDirectories(tmp.resolve(name).resolve("bin"));
    Path javac = Files.writeString(home.resolve("javac"), "");
    assertThat(javac.toFile().setExecutable(true)).isTrue();
    Files.writeString(
        home.getParent().resolve("release"),
        "IMPLEMENTOR=\"test\"\nJAVA_VERSION=\"" + version + "\"\n");
    return home.getParent();
  }

  /** Runs {@code script} with {@code env} added; returns its stdout's first line (or "" if none). */
  private static String run(Path script, String... env) throws IOException, InterruptedException {
    ProcessBuilder pb =
        new ProcessBuilder(script.toString()).redirectError(ProcessBuilder.Redirect.DISCARD);
    for (int i = 0; i < env.length; i += 2) {
      pb.environment().put(env[i], env[i + 1]);
    }
    Process p = pb.start();
    try (BufferedReader out =
        new BufferedReader(new InputStreamReader(p.getInputStream(), StandardCharsets.UTF_8))) {
      String line = out.readLine();
      assertThat(p.waitFor(1, TimeUnit.MINUTES)).as("script ended").isTrue();
      return line == null ? "" : line;
    } finally {
      p.destroyForcibly();
    }
  }

  /** Where {@code command} is on this process's PATH. */
  private static Path onPath(String command) {
    for (String dir : System.getenv().getOrDefault("PATH", "").split(":")) {
      Path p = Path.of(dir.isEmpty() ? "." : dir, command);
      if (Files.isExecutable(p)) {
        return p.toAbsolutePath();
      }
    }
    throw new IllegalStateException(command + " is not on PATH");
  }

  private Path copyOfTheJar() throws IOException {
    return Files.copy(HeraldJar.path(), tmp.resolve("herald.jar"));
  }

  private static List<Path> archives(Path dir) throws IOException {
    try (Stream<Path> files = Files.list(dir)) {
      return files
          .filter(p -> p.toString().endsWith(".aot") || p.toString().endsWith(".jsa"))
          .sorted()
          .toList();
    }
  }

  /**
   * Runs {@code bin/herald serve --stdio}, sends initialize, reads the answer, closes stdin and
   * waits for the process to end (the archive is written at exit); returns the answer line.
   */
  private static String serveAndInitialize(Path jar, Path cds, String... env)
      throws IOException, InterruptedException {
    ProcessBuilder pb =
        new ProcessBuilder(
                List.of(
                    Path.of("..", "bin", "herald").toAbsolutePath().toString(), "serve", "--stdio"))
            .redirectError(ProcessBuilder.Redirect.DISCARD);
    pb.environment().put("HERALD_JAR", jar.toString());
    pb.environment().put("HERALD_CDS_DIR", cds.toString());
    pb.environment().put("HERALD_JAVA_OPTS", "-Xmx96m");
    for (int i = 0; i < env.length; i += 2) {
      pb.environment().put(env[i], env[i + 1]);
    }
    Process p = pb.start();
    try {
      OutputStream in = p.getOutputStream();
      in.write((INITIALIZE + "\n").getBytes(StandardCharsets.UTF_8));
      in.flush();
      BufferedReader out =
          new BufferedReader(new InputStreamReader(p.getInputStream(), StandardCharsets.UTF_8));
      String line = out.readLine();
      in.close();
      // the archive is written as the JVM ends: generous on a busy machine
      assertThat(p.waitFor(5, TimeUnit.MINUTES)).as("launcher ended").isTrue();
      assertThat(p.exitValue()).isZero();
      assertThat(out.readLine()).as("nothing after the answer on stdout").isNull();
      return String.valueOf(line);
    } finally {
      p.destroyForcibly();
    }
  }
}
