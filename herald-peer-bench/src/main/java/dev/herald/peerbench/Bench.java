package dev.herald.peerbench;

import java.io.PrintStream;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.TimeUnit;

/** What every scenario shares: options, class paths, the report, the output and the time bound. */
final class Bench {
  final Options options;
  final Classpaths classpaths;
  final Report report = new Report();
  final PrintStream out;
  final long deadline;

  Bench(Options options, Classpaths classpaths, PrintStream out, long deadline) {
    this.options = options;
    this.classpaths = classpaths;
    this.out = out;
    this.deadline = deadline;
  }

  /** The server targets to run, in the order herald, sdk, ceiling. */
  List<String> targets() {
    return List.of(Report.HERALD, Report.SDK, Report.CEILING).stream()
        .filter(options::target)
        .toList();
  }

  /** A deadline for one scenario: {@code seconds} from now, never past the global bound. */
  long scenarioDeadline(long seconds) {
    return Math.min(deadline, System.nanoTime() + TimeUnit.SECONDS.toNanos(seconds));
  }

  void log(String format, Object... args) {
    out.printf(Locale.ROOT, format + "%n", args);
    out.flush();
  }

  static String column(String target) {
    return switch (target) {
      case Report.HERALD -> "Herald";
      case Report.SDK -> "Java SDK";
      default -> "ceiling";
    };
  }

  static double median(double[] v) {
    double[] s = v.clone();
    Arrays.sort(s);
    int n = s.length;
    return n == 0 ? Double.NaN : n % 2 == 1 ? s[n / 2] : (s[n / 2 - 1] + s[n / 2]) / 2;
  }

  static long percentile(long[] sorted, double p) {
    if (sorted.length == 0) {
      return 0;
    }
    int i = (int) Math.ceil(p / 100.0 * sorted.length) - 1;
    return sorted[Math.max(0, Math.min(sorted.length - 1, i))];
  }

  static String reason(Throwable e) {
    String m = e.getMessage();
    return e.getClass().getSimpleName()
        + (m == null ? "" : ": " + m.lines().findFirst().orElse(""));
  }
}
