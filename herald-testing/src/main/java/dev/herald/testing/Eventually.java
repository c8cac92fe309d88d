package dev.herald.testing;

import java.time.Duration;
import java.util.concurrent.locks.LockSupport;
import java.util.function.BooleanSupplier;

/**
 * Waits for a condition that another thread or process makes true: the one way Herald's tests
 * synchronise. The timeout is a safety net that a passing test never reaches, never a pause that
 * decides an outcome; to show that something does <em>not</em> happen, wait for a later event that
 * must come after it instead.
 */
public final class Eventually {
  /** The safety net: generous, so that a loaded machine does not fail a correct test. */
  public static final Duration TIMEOUT = Duration.ofSeconds(10);

  private static final long POLL_NANOS = Duration.ofMillis(1).toNanos();

  private Eventually() {}

  /**
   * Returns as soon as {@code condition} holds.
   *
   * @param what the condition in words, for the failure message ("the handler runs")
   * @throws AssertionError if it does not hold within {@link #TIMEOUT}, or the thread is interrupted
   */
  public static void eventually(BooleanSupplier condition, String what) {
    eventually(TIMEOUT, condition, what);
  }

  /** Like {@link #eventually(BooleanSupplier, String)}, with another safety net. */
  public static void eventually(Duration timeout, BooleanSupplier condition, String what) {
    long deadline = System.nanoTime() + timeout.toNanos();
    while (!condition.getAsBoolean()) {
      if (System.nanoTime() - deadline > 0) {
        throw new AssertionError(
            "timed out after " + timeout.toMillis() + " ms waiting until " + what);
      }
      LockSupport.parkNanos(POLL_NANOS);
      if (Thread.interrupted()) {
        Thread.currentThread().interrupt();
        throw new AssertionError("interrupted while waiting until " + what);
      }
    }
  }
}
