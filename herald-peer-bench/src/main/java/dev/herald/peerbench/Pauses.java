package dev.herald.peerbench;

import java.lang.management.CompilationMXBean;
import java.lang.management.GarbageCollectorMXBean;
import java.lang.management.ManagementFactory;

/**
 * What this JVM spent outside the code being measured, so far: garbage collections (count and
 * milliseconds, summed over the collectors; under G1 the young and mixed pauses and the concurrent
 * cycle's pauses) and the JIT compilers' milliseconds. Read before and after a measured step, the
 * differences say whether a slow step had a collection or compilations in it.
 */
record Pauses(long collections, long gcMillis, long jitMillis) {
  static Pauses now() {
    long n = 0;
    long ms = 0;
    for (GarbageCollectorMXBean gc : ManagementFactory.getGarbageCollectorMXBeans()) {
      n += Math.max(0, gc.getCollectionCount());
      ms += Math.max(0, gc.getCollectionTime());
    }
    CompilationMXBean jit = ManagementFactory.getCompilationMXBean();
    long jitMs =
        jit != null && jit.isCompilationTimeMonitoringSupported()
            ? jit.getTotalCompilationTime()
            : 0;
    return new Pauses(n, ms, jitMs);
  }

  /** {@code "<collections> <gcMillis> <jitMillis>"}, as the {@code gc} command answers. */
  static String read() {
    Pauses p = now();
    return p.collections + " " + p.gcMillis + " " + p.jitMillis;
  }

  static Pauses parse(String[] f) {
    return new Pauses(Long.parseLong(f[1]), Long.parseLong(f[2]), Long.parseLong(f[3]));
  }

  Pauses minus(Pauses before) {
    return new Pauses(
        collections - before.collections, gcMillis - before.gcMillis, jitMillis - before.jitMillis);
  }
}
