package dev.herald.interop;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Runs the official conformance CLI ({@code @modelcontextprotocol/conformance}, pinned with the
 * Node 22 it needs in {@code interop/conformance}) and reads its totals. Results are written under
 * {@code target/conformance}, and each run appends one line to {@code target/conformance/summary.txt}.
 */
final class ConformanceSuite {
  private ConformanceSuite() {}

  /** What one run reported. */
  record Totals(String name, int passed, int failed, int warnings, int exitCode, String output) {
    String line() {
      return String.format(
          "%s: %d passed, %d failed, %d warnings (exit %d)",
          name, passed, failed, warnings, exitCode);
    }
  }

  static Path dir() {
    Path dir =
        Path.of(System.getProperty("herald.interop.conformance", "../interop/conformance"))
            .toAbsolutePath()
            .normalize();
    if (!Files.isExecutable(dir.resolve("node_modules/.bin/conformance"))
        || !Files.isExecutable(dir.resolve("node_modules/.bin/node"))) {
      throw new IllegalStateException(
          "conformance suite not installed in "
              + dir
              + ": run `npm ci --prefix interop/conformance` (scripts/test does)");
    }
    return dir;
  }

  static Path results() throws IOException {
    Path out = Path.of("target", "conformance").toAbsolutePath();
    Files.createDirectories(out);
    return out;
  }

  /**
   * Runs the CLI with {@code -o} set to a fresh folder, and counts the checks it wrote there
   * ({@code checks.json} per scenario: SUCCESS, FAILURE, WARNING, INFO); the printed totals are
   * the fallback when no file was written.
   */
  static Totals run(String name, List<String> args, Map<String, String> env) throws Exception {
    Path out = results().resolve(name);
    deleteTree(out);
    List<String> all = new ArrayList<>(args);
    all.add("-o");
    all.add(out.toString());
    Totals printed = runCli(name, all, env);
    int[] counts = countChecks(out);
    if (counts[0] + counts[1] + counts[2] == 0) {
      return printed;
    }
    Totals totals =
        new Totals(name, counts[0], counts[1], counts[2], printed.exitCode(), printed.output());
    record(totals);
    return totals;
  }

  /** SUCCESS, FAILURE and WARNING counts over every checks.json under {@code dir}. */
  static int[] countChecks(Path dir) throws IOException {
    int[] counts = new int[3];
    if (!Files.isDirectory(dir)) {
      return counts;
    }
    try (var files = Files.walk(dir)) {
      for (Path f : files.filter(p -> p.getFileName().toString().equals("checks.json")).toList()) {
        for (var check : dev.herald.wire.McpJson.mapper().readTree(f.toFile())) {
          switch (check.path("status").asString()) {
            case "SUCCESS" -> counts[0]++;
            case "FAILURE" -> counts[1]++;
            case "WARNING" -> counts[2]++;
            default -> {}
          }
        }
      }
    }
    return counts;
  }

  private static void deleteTree(Path dir) throws IOException {
    if (!Files.exists(dir)) {
      return;
    }
    try (var files = Files.walk(dir)) {
      for (Path p : files.sorted(java.util.Comparator.reverseOrder()).toList()) {
        Files.delete(p);
      }
    }
  }

  private static void record(Totals totals) throws IOException {
    Files.writeString(
        results().resolve("summary.txt"),
        totals.line() + System.lineSeparator(),
        StandardOpenOption.CREATE,
        StandardOpenOption.APPEND);
    System.out.println("[conformance] " + totals.line());
  }

  private static Totals runCli(String name, List<String> args, Map<String, String> env)
      throws Exception {
    Path dir = dir();
    List<String> cmd = new ArrayList<>();
    cmd.add(dir.resolve("node_modules/.bin/node").toString());
    cmd.add(dir.resolve("node_modules/.bin/conformance").toString());
    cmd.addAll(args);
    ProcessBuilder pb = new ProcessBuilder(cmd).redirectErrorStream(true);
    pb.environment()
        .put(
            "PATH",
            dir.resolve("node_modules/.bin") + java.io.File.pathSeparator + System.getenv("PATH"));
    pb.environment().putAll(env);
    Process p = pb.start();
    byte[] out = p.getInputStream().readAllBytes();
    if (!p.waitFor(5, TimeUnit.MINUTES)) {
      p.destroyForcibly();
      throw new IllegalStateException(name + ": the conformance suite did not finish in 5 minutes");
    }
    String text = new String(out, StandardCharsets.UTF_8).replaceAll("\u001B\\[[0-9;]*m", "");
    Files.writeString(results().resolve(name + ".log"), text);
    return parse(name, text, p.exitValue());
  }

  private static final Pattern CLIENT =
      Pattern.compile("Passed: (\\d+)/(\\d+), (\\d+) failed, (\\d+) warnings");
  private static final Pattern SERVER = Pattern.compile("Total: (\\d+) passed, (\\d+) failed");
  private static final Pattern WARNING = Pattern.compile("\\]\\s+WARNING\\s");

  static Totals parse(String name, String text, int exit) {
    Matcher c = CLIENT.matcher(text);
    if (c.find()) {
      return new Totals(
          name,
          Integer.parseInt(c.group(1)),
          Integer.parseInt(c.group(3)),
          Integer.parseInt(c.group(4)),
          exit,
          text);
    }
    Matcher s = SERVER.matcher(text);
    int passed = -1;
    int failed = -1;
    while (s.find()) {
      passed = Integer.parseInt(s.group(1));
      failed = Integer.parseInt(s.group(2));
    }
    int warnings = 0;
    Matcher w = WARNING.matcher(text);
    while (w.find()) {
      warnings++;
    }
    return new Totals(name, passed, failed, warnings, exit, text);
  }
}
