package dev.herald.cli;

import java.util.concurrent.atomic.AtomicBoolean;

/**
 * What Ctrl-C does while a command runs. SIGINT starts the JVM's shutdown (exit status 130); a
 * shutdown hook runs {@code action} first, so the call is cancelled on the wire and the server is
 * stopped before the process ends. Closing disarms it, so a normal {@code System.exit} runs
 * nothing. A shutdown hook rather than {@code sun.misc.Signal}: standard API, and SIGTERM gets the
 * same clean-up.
 */
final class CtrlC implements AutoCloseable {
  private final AtomicBoolean armed = new AtomicBoolean(true);
  private final Thread hook;
  private volatile boolean fired;

  private CtrlC(Runnable action) {
    this.hook =
        new Thread(
            () -> {
              if (armed.compareAndSet(true, false)) {
                fired = true;
                action.run();
              }
            },
            "herald-ctrl-c");
  }

  static CtrlC onInterrupt(Runnable action) {
    CtrlC c = new CtrlC(action);
    Runtime.getRuntime().addShutdownHook(c.hook);
    return c;
  }

  /** Whether Ctrl-C (or SIGTERM) ran the action; the process is then exiting with 130. */
  boolean fired() {
    return fired;
  }

  @Override
  public void close() {
    if (armed.compareAndSet(true, false)) {
      try {
        Runtime.getRuntime().removeShutdownHook(hook);
      } catch (IllegalStateException shuttingDown) {
        // the JVM is already exiting
      }
    }
  }
}
