package dev.herald.cli;

import java.time.Duration;
import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import picocli.CommandLine;

/** Parses the durations a person types: {@code 500ms}, {@code 30s}, {@code 5m}, {@code 1h} (or ISO-8601 {@code PT30S}). */
final class Durations implements CommandLine.ITypeConverter<Duration> {
  private static final Pattern SHORT = Pattern.compile("(\\d+)(ms|s|m|h)");

  @Override
  public Duration convert(String value) {
    return parse(value);
  }

  static Duration parse(String value) {
    String v = value.trim().toLowerCase(Locale.ROOT);
    Matcher m = SHORT.matcher(v);
    Duration d;
    if (m.matches()) {
      long n = Long.parseLong(m.group(1));
      d =
          switch (m.group(2)) {
            case "ms" -> Duration.ofMillis(n);
            case "s" -> Duration.ofSeconds(n);
            case "m" -> Duration.ofMinutes(n);
            default -> Duration.ofHours(n);
          };
    } else {
      try {
        d = Duration.parse(value.trim().toUpperCase(Locale.ROOT));
      } catch (java.time.format.DateTimeParseException e) {
        throw new CommandLine.TypeConversionException(
            "'" + value + "' is not a duration (try 500ms, 30s, 5m or 1h)");
      }
    }
    if (d.isZero() || d.isNegative()) {
      throw new CommandLine.TypeConversionException("'" + value + "' must be a positive duration");
    }
    return d;
  }

  /** {@code 30s}, {@code 1m30s}, {@code 500ms}: how a duration reads in an error line. */
  static String format(Duration d) {
    if (d.toMillis() < 1000) {
      return d.toMillis() + "ms";
    }
    long s = d.toSeconds();
    if (s < 60 || d.toMillisPart() != 0) {
      return String.format(Locale.ROOT, "%.1fs", d.toMillis() / 1000.0).replace(".0s", "s");
    }
    return (s / 60) + "m" + (s % 60 == 0 ? "" : (s % 60) + "s");
  }
}
