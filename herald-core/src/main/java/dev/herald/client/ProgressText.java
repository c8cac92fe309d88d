package dev.herald.client;

import dev.herald.session.ProgressUpdate;
import java.util.Locale;
import org.jspecify.annotations.Nullable;

/**
 * Turns a progress update into one honest line of text for any UI: a percentage with the unit
 * when the server gave a total, otherwise "indeterminate" with the raw count so far and the
 * elapsed time (a percentage is never invented). The message is already sanitized plain text.
 *
 * {@snippet :
 * ProgressText.format(update, "files"); // "42% (42/100 files) scanning"  or  "indeterminate: 42 files, 3.2s"
 * }
 */
public final class ProgressText {
  private ProgressText() {}

  public static String format(ProgressUpdate u, @Nullable String unit) {
    String suffix = unit == null || unit.isBlank() ? "" : " " + unit;
    StringBuilder b = new StringBuilder();
    if (u.determinate()) {
      double f = u.fraction().orElse(0);
      b.append(
          String.format(
              Locale.ROOT,
              "%d%% (%s/%s%s)",
              (int) Math.floor(f * 100),
              num(u.progress()),
              num(u.total()),
              suffix));
    } else {
      b.append(
          String.format(
              Locale.ROOT,
              "indeterminate: %s%s, %.1fs",
              num(u.progress()),
              suffix,
              u.elapsed().toMillis() / 1000.0));
    }
    if (u.message() != null && !u.message().isEmpty()) {
      b.append(' ').append(u.message());
    }
    return b.toString();
  }

  static String num(@Nullable Double v) {
    if (v == null) {
      return "?";
    }
    return v == Math.rint(v) && Math.abs(v) < 1e15
        ? Long.toString(v.longValue())
        : String.format(Locale.ROOT, "%.2f", v);
  }
}
