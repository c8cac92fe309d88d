package dev.herald.cli;

import dev.herald.session.ProgressUpdate;
import java.io.PrintStream;
import java.util.Locale;
import java.util.concurrent.locks.ReentrantLock;
import java.util.function.LongSupplier;
import org.jspecify.annotations.Nullable;

/**
 * Draws one call's progress (docs/notifications.md, "The receiver's rules"). With a total: a
 * determinate bar, percentage, counts with the unit, elapsed time and the latest message. Without
 * one: an honest indeterminate spinner with the count so far, elapsed time and the latest message;
 * a percentage is never invented. Before the first update it says it is waiting.
 *
 * <p>On a terminal it redraws one line, animated every 100 ms so the spinner and the clock move
 * even when the server is quiet, and {@link #log} prints lines above it. Elsewhere it prints plain
 * lines, no animation. It never moves backwards: the receiver delivers strictly increasing values,
 * and the filled cells and percentage only grow even if a server raises its total.
 *
 * <p>For a task ({@code herald call --task}) the line also carries the task's status and status
 * message ({@link #status}), the server's text cleaned for the terminal; a terminal status is drawn
 * at once, with the last progress value the receiver flushed before it.
 *
 * <p>Thread-safe: {@link #lock} guards every field below it and every write to {@link #out}.
 */
final class ProgressBar {
  private static final String SPIN = "|/-\\";
  private static final int WIDTH = 24;
  private final PrintStream out;
  private final boolean terminal;
  private final String label;
  private final @Nullable String unit;
  private final LongSupplier nanoTime;
  private final boolean animate;
  private final int columns;
  private final ReentrantLock lock = new ReentrantLock();
  private @Nullable ProgressUpdate last;
  private int filled;
  private int percent;
  private int frames;
  private String drawn = "";
  private boolean finished;
  private long started;
  private @Nullable String status;
  private @Nullable String statusMessage;

  ProgressBar(PrintStream out, boolean terminal, String label) {
    this(out, terminal, label, null, System::nanoTime, columns(), terminal);
    begin();
  }

  ProgressBar(
      PrintStream out,
      boolean terminal,
      String label,
      @Nullable String unit,
      LongSupplier nanoTime,
      int columns,
      boolean animate) {
    this.out = out;
    this.terminal = terminal;
    this.label = label;
    this.unit = unit == null || unit.isBlank() ? null : unit;
    this.nanoTime = nanoTime;
    this.started = nanoTime.getAsLong();
    this.columns = columns;
    this.animate = animate;
  }

  /**
   * Starts the clock (and, on a terminal, the animation) as the call goes out; without it, both
   * start at construction, as the demo wants.
   */
  ProgressBar begin() {
    lock.lock();
    try {
      started = nanoTime.getAsLong();
    } finally {
      lock.unlock();
    }
    if (animate) {
      Thread.ofVirtual().name("herald-progress-bar").start(this::animate);
    }
    return this;
  }

  /** The progress listener: draws {@code u} (a line of its own when not on a terminal). */
  void show(ProgressUpdate u) {
    lock.lock();
    try {
      if (finished) {
        return;
      }
      ProgressUpdate prev = last;
      if (prev != null && u.progress() < prev.progress()) {
        return; // cannot happen with Herald's receiver; never draw a step back
      }
      last = u;
      if (terminal) {
        redraw();
      } else {
        out.println(format(u, false));
        out.flush();
      }
    } finally {
      lock.unlock();
    }
  }

  /**
   * Shows a task's status and status message (both cleaned for the terminal by the caller): drawn
   * at once on a terminal, a line of its own elsewhere.
   */
  void status(String newStatus, @Nullable String message) {
    lock.lock();
    try {
      if (finished) {
        return;
      }
      String m = message == null || message.isBlank() ? null : message;
      if (newStatus.equals(status) && java.util.Objects.equals(m, statusMessage)) {
        return;
      }
      status = newStatus;
      statusMessage = m;
      if (terminal) {
        redraw();
      } else {
        out.println(label + ": " + newStatus + (m == null ? "" : "  " + m));
        out.flush();
      }
    } finally {
      lock.unlock();
    }
  }

  /** Prints a line above the bar (log messages). */
  void log(String line) {
    lock.lock();
    try {
      if (terminal && !drawn.isEmpty() && !finished) {
        out.print("\r\033[2K" + line + System.lineSeparator() + drawn);
      } else {
        out.println(line);
      }
      out.flush();
    } finally {
      lock.unlock();
    }
  }

  /**
   * Ends the bar: on a terminal the last line stays, followed by {@code outcome}; a bar that never
   * saw progress is erased. In plain mode only a non-empty outcome is printed.
   */
  void finish(String outcome) {
    lock.lock();
    try {
      if (finished) {
        return;
      }
      finished = true;
      if (terminal) {
        String line =
            last == null
                ? (outcome.isEmpty() ? "" : label + "  " + outcome)
                : format(last, true) + (outcome.isEmpty() ? "" : "  " + outcome);
        out.print("\r\033[2K" + fit(line) + (line.isEmpty() ? "" : System.lineSeparator()));
      } else if (!outcome.isEmpty()) {
        out.println(label + ": " + outcome);
      }
      out.flush();
    } finally {
      lock.unlock();
    }
  }

  private void animate() {
    while (true) {
      try {
        Thread.sleep(100);
      } catch (InterruptedException e) {
        return;
      }
      lock.lock();
      try {
        if (finished) {
          return;
        }
        frames++;
        redraw();
      } finally {
        lock.unlock();
      }
    }
  }

  /** Called with {@link #lock} held. */
  private void redraw() {
    ProgressUpdate u = last;
    String line = u == null ? waiting() : format(u, true);
    drawn = fit(line);
    out.print("\r\033[2K" + drawn);
    out.flush();
  }

  private String waiting() {
    return label
        + (status == null ? "" : " " + status)
        + " ["
        + SPIN.charAt(frames % SPIN.length())
        + "] waiting for progress, "
        + seconds(nanoTime.getAsLong() - started)
        + statusMessageSuffix();
  }

  private String statusMessageSuffix() {
    return statusMessage == null ? "" : "  | " + statusMessage;
  }

  /** One line for {@code u}; with {@code bar}, the cells or the spinner. Called with {@link #lock} held, or from tests. */
  String format(ProgressUpdate u, boolean bar) {
    StringBuilder b = new StringBuilder(label).append(' ');
    if (status != null) {
      b.append(status).append(' ');
    }
    String suffix = unit == null ? "" : " " + unit;
    String elapsed = seconds(Math.max(nanoTime.getAsLong() - started, u.elapsed().toNanos()));
    if (u.determinate()) {
      double f = u.fraction().orElse(0);
      filled = Math.max(filled, (int) Math.round(f * WIDTH));
      percent = Math.max(percent, (int) Math.floor(f * 100));
      if (bar) {
        b.append('[').append("#".repeat(filled)).append("-".repeat(WIDTH - filled)).append("] ");
      }
      b.append(String.format(Locale.ROOT, "%3d%%", percent));
      b.append(" (")
          .append(num(u.progress()))
          .append('/')
          .append(num(u.total()))
          .append(suffix)
          .append(") ")
          .append(elapsed);
    } else {
      if (bar) {
        b.append('[').append(SPIN.charAt(frames % SPIN.length())).append("] ");
      }
      b.append(num(u.progress())).append(suffix).append(" so far, ").append(elapsed);
    }
    if (u.message() != null && !u.message().isEmpty()) {
      b.append("  ").append(u.message());
    }
    return b.append(statusMessageSuffix()).toString();
  }

  private String fit(String line) {
    return line.length() < columns ? line : line.substring(0, Math.max(0, columns - 2)) + "…";
  }

  private static String seconds(long nanos) {
    return String.format(Locale.ROOT, "%.1fs", nanos / 1e9);
  }

  private static String num(@Nullable Double v) {
    if (v == null) {
      return "?";
    }
    return v == Math.rint(v) && Math.abs(v) < 1e15
        ? Long.toString(v.longValue())
        : String.format(Locale.ROOT, "%.2f", v);
  }

  /** The terminal's width from {@code COLUMNS} when the shell exports it, else 80. */
  static int columns() {
    try {
      String c = System.getenv("COLUMNS");
      return c == null ? 80 : Math.max(20, Integer.parseInt(c.trim()));
    } catch (NumberFormatException e) {
      return 80;
    }
  }
}
