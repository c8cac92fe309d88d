package dev.herald.session;

/** A monotonic nanosecond clock. Tests pass a manual one; production uses {@link #system()}. */
@FunctionalInterface
public interface Ticker {
  long nanos();

  static Ticker system() {
    return System::nanoTime;
  }
}
