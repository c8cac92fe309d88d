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
 * Node 22 it needs in {@code interop/conformance}: the release 0.1.16, and the pre-release
 * 0.2.0-alpha.12 with the 2026-07-28 scenarios under the npm alias {@code conformance-alpha}) and
 * reads its totals. Results are written under {@code target/conformance}, and each run appends one
 * line to {@code target/conformance/summary.txt}.
 */
final class ConformanceSuite {
  private ConformanceSuite() {}

  /** A pinned release of the suite, by the folder npm installed it in. */
  enum Release {
    /** 0.1.16: the handshake-era scenarios. */
    V0_1_16("@modelcontextprotocol/conformance"),
    /** 0.2.0-alpha.12: adds the 2026-07-28 scenarios and {@code --requirements}. */
    V0_2_0_ALPHA_12("conformance-alpha");

    private final String folder;

    Release(String folder) {
      this.folder = folder;
    }

    /** The CLI's script (its {@code bin}, run directly: both releases name their bin alike). */
    Path script(Path dir) {
      return dir.resolve("node_modules").resolve(folder).resolve("dist/index.js");
    }
  }

  /** One scenario's checks, from its {@code checks.json}. */
  record Scenario(String name, int passed, int failed, int warnings, List<String> problems) {
    boolean clean() {
      return failed == 0 && warnings == 0;
    }

    @Override
    public String toString() {
      return name
          + " ("
          + passed
          + " passed, "
          + failed
          + " failed, "
          + warnings
          + " warnings"
          + (problems.isEmpty() ? "" : ": " + String.join("; ", problems))
          + ")";
    }
  }

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
    if (!Files.isExecutable(dir.resolve("node_modules/.bin/node"))
        || !Files.isRegularFile(Release.V0_1_16.script(dir))
        || !Files.isRegularFile(Release.V0_2_0_ALPHA_12.script(dir))) {
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
    return run(Release.V0_1_16, name, args, env);
  }

  /** As {@link #run(String, List, Map)}, with the given release of the suite. */
  static Totals run(Release release, String name, List<String> args, Map<String, String> env)
      throws Exception {
    Path out = results().resolve(name);
    deleteTree(out);
    List<String> all = new ArrayList<>(args);
    all.add("-o");
    all.add(out.toString());
    Totals printed = runCli(release, name, all, env);
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

  /**
   * Every scenario of the run named {@code name}, by scenario name: its folder under the run's
   * output is {@code [server-]<scenario>-<timestamp>} and holds its {@code checks.json}.
   */
  static Map<String, Scenario> scenarios(String name) throws IOException {
    Path out = results().resolve(name);
    Map<String, Scenario> found = new java.util.TreeMap<>();
    if (!Files.isDirectory(out)) {
      return found;
    }
    try (var files = Files.walk(out)) {
      for (Path f : files.filter(p -> p.getFileName().toString().equals("checks.json")).toList()) {
        String folder = out.relativize(f.getParent()).toString().replace('\\', '/');
        String scenario = SCENARIO_FOLDER.matcher(folder).replaceFirst("");
        if (name.startsWith("server") && scenario.startsWith("server-")) {
          scenario = scenario.substring("server-".length());
        }
        int passed = 0;
        int failed = 0;
        int warnings = 0;
        List<String> problems = new ArrayList<>();
        for (var check : dev.herald.wire.McpJson.mapper().readTree(f.toFile())) {
          String status = check.path("status").asString();
          switch (status) {
            case "SUCCESS" -> passed++;
            case "FAILURE" -> failed++;
            case "WARNING" -> warnings++;
            default -> {}
          }
          if (status.equals("FAILURE") || status.equals("WARNING")) {
            problems.add(
                check.path("id").asString()
                    + " "
                    + status
                    + ": "
                    + check.path("errorMessage").asString(check.path("description").asString()));
          }
        }
        found.put(scenario, new Scenario(scenario, passed, failed, warnings, problems));
      }
    }
    return found;
  }

  /** The timestamp the CLI appends to a scenario's folder. */
  private static final Pattern SCENARIO_FOLDER =
      Pattern.compile("-\\d{4}-\\d{2}-\\d{2}T\\d{2}-\\d{2}-\\d{2}-\\d{3}Z$");

  private static final Pattern NOT_SCORED_LINE =
      Pattern.compile("^\\s+[✓✗]\\s+(\\S+)\\s+\\([^)]*\\)\\s*$", Pattern.MULTILINE);

  /**
   * The scenarios a {@code --requirements} run reported as not scored (tagged extension or
   * pending): they run, but do not count toward conformance to the revision.
   */
  static java.util.Set<String> notScored(String output) {
    int at = output.indexOf("Not scored for");
    java.util.Set<String> names = new java.util.TreeSet<>();
    if (at < 0) {
      return names;
    }
    Matcher m = NOT_SCORED_LINE.matcher(output.substring(at));
    while (m.find()) {
      names.add(m.group(1));
    }
    return names;
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
    record(totals.line());
  }

  /** Appends one line to {@code summary.txt} (what CI prints at the end) and to the output. */
  static void record(String line) throws IOException {
    Files.writeString(
        results().resolve("summary.txt"),
        line + System.lineSeparator(),
        StandardOpenOption.CREATE,
        StandardOpenOption.APPEND);
    System.out.println("[conformance] " + line);
  }

  private static Totals runCli(
      Release release, String name, List<String> args, Map<String, String> env) throws Exception {
    Path dir = dir();
    List<String> cmd = new ArrayList<>();
    cmd.add(dir.resolve("node_modules/.bin/node").toString());
    cmd.add(release.script(dir).toString());
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
