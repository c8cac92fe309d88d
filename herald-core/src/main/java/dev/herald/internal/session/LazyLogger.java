package dev.herald.internal.session;

import java.util.ResourceBundle;
import org.jspecify.annotations.Nullable;

/**
 * A {@link System.Logger} that asks {@link System#getLogger} for the real one on its first use.
 *
 * <p>{@code System.getLogger} finds the logging back end as it is called: it looks for a {@code
 * LoggerFinder} service on the class path (opening every jar) and then starts {@code
 * java.util.logging}, tens of milliseconds of a cold process. A class that keeps its logger in a
 * static field paid that as the class was first used, so a stdio server paid it before its first
 * answer although nothing was logged (docs/benchmarks.md, "Cold start"). The same logger comes out
 * of it, under the same name, when something is first logged or a level is asked for.
 *
 * <p>The log records name the caller as before: the JDK's logging skips the frames of {@link
 * System.Logger} implementations when it infers a record's source class and method.
 */
public final class LazyLogger implements System.Logger {
  private final String name;
  private volatile System.@Nullable Logger delegate;

  private LazyLogger(String name) {
    this.name = name;
  }

  /** A logger that is {@code System.getLogger(name)} once first used. */
  public static System.Logger of(String name) {
    return new LazyLogger(name);
  }

  private System.Logger delegate() {
    System.Logger d = delegate;
    if (d == null) {
      d = System.getLogger(name);
      delegate = d;
    }
    return d;
  }

  @Override
  public String getName() {
    return name;
  }

  @Override
  public boolean isLoggable(Level level) {
    return delegate().isLoggable(level);
  }

  @Override
  public void log(Level level, @Nullable ResourceBundle bundle, String msg, @Nullable Throwable t) {
    delegate().log(level, bundle, msg, t);
  }

  @Override
  public void log(
      Level level, @Nullable ResourceBundle bundle, String format, @Nullable Object... params) {
    delegate().log(level, bundle, format, params);
  }
}
