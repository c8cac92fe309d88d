package dev.herald.internal.session;

import static org.jetbrains.lincheck.datastructures.ManagedStrategyGuaranteeKt.forClasses;

import java.lang.reflect.Method;
import kotlin.reflect.KFunction;
import kotlin.reflect.jvm.ReflectJvmMapping;
import org.jetbrains.kotlinx.lincheck.execution.ExecutionScenario;
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
public final class TableChecks {
  /**
   * How long one invocation of a scenario may run before Lincheck calls it hung (its default is
   * 30 s). Lincheck instruments classes during the first invocations; on a machine whose cores are
   * busy with other work that alone took longer than that, twice, a false "hung" failure.
   */
  static final long INVOCATION_TIMEOUT_MS = 120_000;

  /** Multiplies the number of scenarios of both modes; 1 in the test command. */
  static final int SCALE = Math.max(1, Integer.getInteger("herald.lincheck.scale", 1));

  private TableChecks() {}

  /** An operation of a table's test class, by name, for a known scenario. */
  static KFunction<?> operation(Class<?> table, String name, Class<?>... parameters) {
    try {
      Method method = table.getMethod(name, parameters);
      KFunction<?> function = ReflectJvmMapping.getKotlinFunction(method);
      if (function == null) {
        throw new IllegalArgumentException(name + " is not a function");
      }
      return function;
    } catch (NoSuchMethodException e) {
      throw new IllegalArgumentException(e);
    }
  }

  /** Model checking, then stress, of one table's test class: five scenarios of each. */
  public static void check(Class<?> table) {
    check(table, 5);
  }

  /**
   * Model checking, then stress, of one table's test class, with {@code scenarios} scenarios of
   * each (times {@link #SCALE}); fewer for a table whose steps are many to explore. {@code known}
   * scenarios (one that once found a race) are model checked first, every time.
   */
  public static void check(Class<?> table, int scenarios, ExecutionScenario... known) {
    long start = System.nanoTime();
    ModelCheckingOptions modelChecking = new ModelCheckingOptions();
    for (ExecutionScenario scenario : known) {
      modelChecking.addCustomScenario(scenario);
    }
    modelChecking
        // immutable values (and an error) built and read by one thread: no switch point inside them
        .addGuarantee(
            forClasses(
                    "java.math.BigDecimal",
                    "java.time.Duration",
                    "java.util.Optional",
                    "dev.herald.wire.McpException")
                .allMethods()
                .ignore())
        .iterations(scenarios * SCALE)
        .invocationsPerIteration(100)
        .threads(2)
        .actorsPerThread(3)
        .actorsBefore(1)
        .actorsAfter(1)
        // Kotlin-internal in Lincheck 3.7 (no public setter), hence the mangled name
        .invocationTimeout$lincheck(INVOCATION_TIMEOUT_MS)
        .check(table);
    long modelChecked = System.nanoTime();
    new StressOptions()
        .iterations(scenarios * SCALE)
        .invocationsPerIteration(100)
        .threads(2)
        .actorsPerThread(3)
        .actorsBefore(1)
        .actorsAfter(1)
        .invocationTimeout$lincheck(INVOCATION_TIMEOUT_MS)
        .check(table);
    System.out.printf(
        "%s: model checking %d ms, stress %d ms (scale %d)%n",
        table.getSimpleName(),
        (modelChecked - start) / 1_000_000,
        (System.nanoTime() - modelChecked) / 1_000_000,
        SCALE);
  }
}
