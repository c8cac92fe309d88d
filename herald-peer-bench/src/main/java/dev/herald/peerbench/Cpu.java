package dev.herald.peerbench;

import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import org.jspecify.annotations.Nullable;

/**
 * This process's CPU time in nanoseconds. On Linux it is the sum of the first field of {@code
 * /proc/self/task/<tid>/schedstat} (time on CPU, in nanoseconds) over the threads alive, JIT and
 * GC threads included: {@code OperatingSystemMXBean.getProcessCpuTime} counts in the kernel's
 * 10 ms ticks there, too coarse for a few hundred milliseconds of work. A thread that ends between
 * two readings takes its time with it; a warm server starts and ends few. Elsewhere, or when
 * {@code /proc} cannot be read, the MXBean's figure.
 */
final class Cpu {
  private Cpu() {}

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
   * The schedstat sum over a process's threads, but those whose name starts with {@code skip}, or
   * -1 when it cannot be read.
   */
  private static long threads(Path dir, @Nullable String skip) {
    if (Files.isDirectory(dir)) {
      long sum = 0;
      try (DirectoryStream<Path> tasks = Files.newDirectoryStream(dir)) {
        for (Path t : tasks) {
          try {
            if (skip != null && Files.readString(t.resolve("comm")).startsWith(skip)) {
              continue;
            }
            String s = Files.readString(t.resolve("schedstat"));
            int space = s.indexOf(' ');
            sum += Long.parseLong(space < 0 ? s.trim() : s.substring(0, space));
          } catch (IOException | NumberFormatException e) {
            // the thread ended while we looked
          }
        }
        return sum;
      } catch (IOException e) {
        // fall back below
      }
    }
    return -1;
  }
}
