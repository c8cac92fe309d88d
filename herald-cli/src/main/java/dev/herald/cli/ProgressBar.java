package dev.herald.cli;

import dev.herald.session.ProgressUpdate;
import java.io.PrintStream;
import java.util.Locale;

/**
 * Draws one call's progress in a terminal: a determinate bar with a percentage when the server
 * gave a total, an honest indeterminate spinner with elapsed time otherwise. On a terminal it
 * redraws one line; elsewhere it prints plain lines, no animation. It never moves backwards: the
 * receiver only delivers strictly increasing values.
 */
final class ProgressBar {
  private static final String SPIN = "|/-\\";
  private final PrintStream out;
  private final boolean terminal;
  private final String label;
  private final int width;
  private int frames;
  private String lastLine = "";

  ProgressBar(PrintStream out, boolean terminal, String label) {
    this.out = out;
    this.terminal = terminal;
    this.label = label;
    this.width = 24;
  }

  synchronized void show(ProgressUpdate u) {
    String line = format(u);
    lastLine = line;
    if (terminal) {
      out.print("\r\033[2K" + line);
    } else {
      out.println(line);
    }
    out.flush();
  }

  synchronized void finish(String outcome) {
    if (terminal) {
      out.print("\r\033[2K" + (lastLine.isEmpty() ? label : lastLine) + "  " + outcome + System.lineSeparator());
    } else {
      out.println(label + ": " + outcome);
    }
    out.flush();
  }

  String format(ProgressUpdate u) {
    StringBuilder b = new StringBuilder(label).append(' ');
    String msg = u.message() == null ? "" : "  " + u.message();
    if (u.determinate()) {
      double f = u.fraction().orElse(0);
      int filled = (int) Math.round(f * width);
      b.append('[').append("#".repeat(filled)).append("-".repeat(width - filled)).append("] ");
      b.append(String.format(Locale.ROOT, "%3d%%", (int) Math.floor(f * 100)));
      b.append(String.format(Locale.ROOT, " (%s/%s)", num(u.progress()), num(u.total())));
    } else {
      b.append('[').append(SPIN.charAt(frames++ % SPIN.length())).append("] ");
      b.append(num(u.progress())).append(" so far, ");
      b.append(String.format(Locale.ROOT, "%.1fs", u.elapsed().toMillis() / 1000.0));
    }
    return b.append(msg).toString();
  }

  private static String num(double v) {
    return v == Math.rint(v) && Math.abs(v) < 1e15 ? Long.toString((long) v) : String.format(Locale.ROOT, "%.2f", v);
  }
}
