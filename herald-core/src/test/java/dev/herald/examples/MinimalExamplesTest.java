package dev.herald.examples;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.File;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * The minimal server and client run against each other over a real stdio subprocess, and each
 * imports from at most three Herald packages, all of them exported by {@code module-info.java}.
 */
class MinimalExamplesTest {
  private static final Path SOURCES = Path.of("src/test/java/dev/herald/examples");
  private static final Pattern IMPORT =
      Pattern.compile("^import (?:static )?([\\w.]+)\\.[\\w*]+;$", Pattern.MULTILINE);
  private static final Pattern EXPORT =
      Pattern.compile("^\\s*exports ([\\w.]+);", Pattern.MULTILINE);

  @Test
  @Timeout(60)
  void minimalClientListsAndCallsTheMinimalServerOverStdio() throws Exception {
    List<String> server =
        List.of(javaExecutable(), "-cp", classpath(), MinimalServerExample.class.getName());

    assertThat(MinimalClientExample.run(server)).isEqualTo("[count] counted to 3");
  }

  @Test
  void minimalServerImportsFromAtMostThreeExportedPackages() throws IOException {
    assertImportsFromAtMostThreeExportedPackages("MinimalServerExample.java");
  }

  @Test
  void minimalClientImportsFromAtMostThreeExportedPackages() throws IOException {
    assertImportsFromAtMostThreeExportedPackages("MinimalClientExample.java");
  }

  private static void assertImportsFromAtMostThreeExportedPackages(String file) throws IOException {
    Set<String> packages = new LinkedHashSet<>();
    Matcher m = IMPORT.matcher(Files.readString(SOURCES.resolve(file)));
    while (m.find()) {
      if (!m.group(1).startsWith("java.")) {
        packages.add(m.group(1));
      }
    }
    Set<String> exported = new LinkedHashSet<>();
    Matcher e = EXPORT.matcher(Files.readString(Path.of("src/main/java/module-info.java")));
    while (e.find()) {
      exported.add(e.group(1));
    }
    assertThat(packages).as(file + "'s imports outside java.*").hasSizeLessThanOrEqualTo(3);
    assertThat(exported)
        .as("the packages dev.herald.core exports to everyone")
        .containsAll(packages);
  }

  private static String javaExecutable() {
    return Path.of(System.getProperty("java.home"), "bin", "java").toString();
  }

  /** This test run's classes and dependencies, whether surefire put them on the module path or the classpath. */
  private static String classpath() {
    List<String> entries = new ArrayList<>();
    entries.add(Path.of("target/test-classes").toAbsolutePath().toString());
    entries.add(Path.of("target/classes").toAbsolutePath().toString());
    Stream.of(System.getProperty("jdk.module.path", ""), System.getProperty("java.class.path", ""))
        .flatMap(p -> Stream.of(p.split(File.pathSeparator)))
        .filter(p -> !p.isBlank())
        .forEach(entries::add);
    return String.join(File.pathSeparator, entries);
  }
}
