package dev.herald.peerbench;

import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.Map;
import org.jspecify.annotations.Nullable;

/**
 * This process's CPU time in nanoseconds. On Linux it is the sum of the first field of {@code
 * /proc/self/task/<tid>/schedstat} (time on CPU, in nanoseconds) over the threads alive, JIT and
 * GC threads included: {@code OperatingSystemMXBean.getProcessCpuTime} counts in the kernel's
 * 10 ms ticks there, too coarse for a few hundred milliseconds of work. Threads that ended keep
 * counting with the time they had at the last reading that saw them (a JIT compiler thread the JVM
 * retires after the warm-up would otherwise take its seconds of compiling out of the next
 * difference, and make it small or negative); only what such a thread spent after that reading is
 * lost. Elsewhere, or when {@code /proc} cannot be read, the MXBean's figure.
 *
 * <p>Thread-safe (readings are serialised).
 */
final class Cpu {
  private Cpu() {}

  /**
   * The readings of one {@code /proc/<pid>/task} directory (with one set of threads left out):
   * each thread's time at the last reading, and the time of the threads that ended, as last seen.
   */
  private static final class Series {
    Map<String, Long> seen = Map.of();
    long ended;
  }

  /** Guarded by the class: the series by directory and the prefix it leaves out. */
  private static final Map<String, Series> SERIES = new HashMap<>();

  static long processNanos() {
    return processNanosExcept(null);
  }

  /**
   * As {@link #processNanos()}, leaving out the threads whose name starts with {@code prefix}
   * (their native name, which the JVM sets from the thread's): a caller that counts their CPU
   * itself cannot then have a thread counted at one reading and gone at the next (a joined
   * thread's kernel task may outlive {@code join} for a moment). Without {@code /proc}, every
   * thread is counted.
   */
  static long processNanosExcept(@Nullable String prefix) {
    long own = threads(Path.of("/proc/self/task"), prefix);
    return own >= 0
        ? own
        : ((com.sun.management.OperatingSystemMXBean) ManagementFactory.getOperatingSystemMXBean())
            .getProcessCpuTime();
  }

  /** Another process's CPU time, read the same way; from its ProcessHandle (10 ms steps) elsewhere. */
  static long processNanos(ProcessHandle process) {
    long sum = threads(Path.of("/proc/" + process.pid() + "/task"), null);
    return sum >= 0
        ? sum
        : process.info().totalCpuDuration().orElse(java.time.Duration.ZERO).toNanos();
  }

  /**
   * The schedstat sum over a process's threads but those whose name starts with {@code skip}, those
   * that ended since earlier readings included (as last seen), or -1 when it cannot be read.
   */
  private static synchronized long threads(Path dir, @Nullable String skip) {
    if (!Files.isDirectory(dir)) {
      return -1;
    }
    Map<String, Long> now = new HashMap<>();
    try (DirectoryStream<Path> tasks = Files.newDirectoryStream(dir)) {
      for (Path t : tasks) {
        try {
          if (skip != null && Files.readString(t.resolve("comm")).startsWith(skip)) {
            continue;
          }
          String st = Files.readString(t.resolve("schedstat"));
          int space = st.indexOf(' ');
          now.put(
              t.getFileName().toString(),
              Long.parseLong(space < 0 ? st.trim() : st.substring(0, space)));
        } catch (IOException | NumberFormatException e) {
          // the thread ended while we looked: the next reading counts it as ended
        }
      }
    } catch (IOException e) {
      return -1;
    }
    // a reading that leaves threads out is a series of its own
    Series series = SERIES.computeIfAbsent(dir + "|" + skip, k -> new Series());
    for (Map.Entry<String, Long> b : series.seen.entrySet()) {
      Long n = now.get(b.getKey());
      if (n == null || n < b.getValue()) { // gone, or its id taken by a new thread
        series.ended += b.getValue();
        if (b.getValue() >= 10_000_000L) { // worth knowing: it would have skewed the difference
          System.err.printf(
              "cpu: %s/%s ended with %.0f ms of CPU, still counted%n",
              dir, b.getKey(), b.getValue() / 1e6);
        }
      }
    }
    series.seen = now;
    long sum = series.ended;
    for (long v : now.values()) {
      sum += v;
    }
    return sum;
  }
}
