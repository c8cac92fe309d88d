package dev.herald.cli;

import dev.herald.client.TerminalText;
import dev.herald.session.ProgressUpdate;
import java.io.PrintStream;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.locks.ReentrantLock;
import org.jspecify.annotations.Nullable;

/**
 * The demo's display: a few progress rows redrawn in place on a terminal (one line each, with a
 * bar when a total is known and an honest spinner when not), and ordinary lines printed above
 * them. Without a terminal it prints plain lines and never animates.
 */
final class DemoBoard {
  private static final String SPIN = "|/-\\";
  private final PrintStream out;
  private final boolean terminal;
  private final ReentrantLock lock = new ReentrantLock();
  private final List<Row> rows = new ArrayList<>();
  private int drawn; // rows currently on screen below the text
  private final int columns = ProgressBar.columns();

  /** One progress row; a task's row also shows the task's status and status message. */
  final class Row {
    private final String label;
    private String text = "waiting";
    private String progress = "waiting";
    private @Nullable String status;
    private @Nullable String statusMessage;
    private int frame;

    private Row(String label) {
      this.label = label;
    }

    void show(ProgressUpdate u) {
      lock.lock();
      try {
        progress = format(u);
        text = compose();
        if (terminal) {
          redraw();
        } else {
          out.println("  " + label + " " + text);
        }
      } finally {
        lock.unlock();
      }
    }

    /** A task's status change: drawn at once, with the latest progress beside it. */
    void status(String newStatus, @Nullable String message) {
      lock.lock();
      try {
        status = newStatus;
        statusMessage = message == null || message.isBlank() ? null : TerminalText.line(message);
        text = compose();
        if (terminal) {
          redraw();
        } else {
          out.println(
              "  "
                  + label
                  + " "
                  + newStatus
                  + (statusMessage == null ? "" : "  | " + statusMessage));
        }
      } finally {
        lock.unlock();
      }
    }

    void finish(String outcome) {
      lock.lock();
      try {
        text = text + "  " + outcome;
        if (terminal) {
          redraw();
        } else {
          out.println("  " + label + " " + outcome);
        }
      } finally {
        lock.unlock();
      }
    }

    private String compose() {
      return (status == null ? "" : status + " ")
          + progress
          + (statusMessage == null ? "" : "  | " + statusMessage);
    }

    private String format(ProgressUpdate u) {
      if (u.determinate()) {
        double f = u.fraction().orElse(0);
        int filled = (int) Math.round(f * 24);
        return String.format(
            Locale.ROOT,
            "[%s%s] %3d%% %s",
            "#".repeat(filled),
            "-".repeat(24 - filled),
            (int) Math.floor(f * 100),
            u.message() == null ? "" : u.message());
      }
      return String.format(
          Locale.ROOT,
          "[%c] %.0f so far, %.1fs %s",
          SPIN.charAt(frame++ % 4),
          u.progress(),
          u.elapsed().toMillis() / 1000.0,
          u.message() == null ? "" : u.message());
    }
  }

  DemoBoard(PrintStream out, boolean terminal) {
    this.out = out;
    this.terminal = terminal;
  }

  Row row(String label) {
    lock.lock();
    try {
      Row r = new Row(String.format(Locale.ROOT, "%-12s", label));
      rows.add(r);
      if (terminal) {
        redraw();
      }
      return r;
    } finally {
      lock.unlock();
    }
  }

  /** Ends the current rows: they stay on screen as they are, and new text goes below them. */
  void settle() {
    lock.lock();
    try {
      rows.clear();
      drawn = 0;
    } finally {
      lock.unlock();
    }
  }

  /** Prints a line above the progress rows. */
  void println(String line) {
    lock.lock();
    try {
      if (terminal && drawn > 0) {
        out.print("\033[" + drawn + "A\r\033[J");
        drawn = 0;
        out.println(line);
        redraw();
      } else {
        out.println(line);
      }
      out.flush();
    } finally {
      lock.unlock();
    }
  }

  /** One screen line: a row that wrapped would break the redraw in place. */
  private String fit(String line) {
    return line.length() < columns ? line : line.substring(0, Math.max(0, columns - 2)) + "…";
  }

  private void redraw() {
    if (drawn > 0) {
      out.print("\033[" + drawn + "A\r");
    }
    for (Row r : rows) {
      out.print("\033[2K" + fit("  " + r.label + " " + r.text) + "\n");
    }
    drawn = rows.size();
    out.flush();
  }
}
