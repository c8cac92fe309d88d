package dev.herald.internal.session;

import org.jetbrains.lincheck.datastructures.ModelCheckingOptions;
import org.jetbrains.lincheck.datastructures.StressOptions;

/**
 * How the engine's tables are checked with Lincheck: every concurrent history of a few operations
 * must be explainable by some order of them one at a time (linearizability). Model checking
 * explores thread switches at every shared-memory access of a few scenarios; stress runs many
 * scenarios on real threads. The counts are small so the test command stays quick on two cores;
 * {@code -Dherald.lincheck.scale=N} (used by {@code scripts/stress}) multiplies the iterations for
 * a longer run.
 */
final class TableChecks {
  /** Multiplies the number of scenarios of both modes; 1 in the test command. */
  static final int SCALE = Math.max(1, Integer.getInteger("herald.lincheck.scale", 1));

  private TableChecks() {}

  /** Model checking, then stress, of one table's test class. */
  static void check(Class<?> table) {
    new ModelCheckingOptions()
        .iterations(10 * SCALE)
        .invocationsPerIteration(200)
        .threads(2)
        .actorsPerThread(3)
        .actorsBefore(1)
        .actorsAfter(1)
        .check(table);
    new StressOptions()
        .iterations(10 * SCALE)
        .invocationsPerIteration(500)
        .threads(2)
        .actorsPerThread(3)
        .actorsBefore(1)
        .actorsAfter(1)
        .check(table);
  }
}
