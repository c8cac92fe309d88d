package dev.herald.cli;

import java.util.logging.ConsoleHandler;
import java.util.logging.Level;
import java.util.logging.Logger;
import java.util.logging.SimpleFormatter;

/** Routes Herald's logs to stderr, one line each, at a level set by HERALD_LOG (default warning). */
final class Logging {
  private Logging() {}

  static void configure() {
    System.setProperty("java.util.logging.SimpleFormatter.format", "herald %4$s %3$s: %5$s%6$s%n");
    Logger root = Logger.getLogger("");
    for (var h : root.getHandlers()) {
      root.removeHandler(h);
    }
    Level level = parse(System.getenv("HERALD_LOG"));
    ConsoleHandler handler = new ConsoleHandler(); // writes to System.err
    handler.setFormatter(new SimpleFormatter());
    handler.setLevel(level);
    root.addHandler(handler);
    root.setLevel(level);
  }

  private static Level parse(String name) {
    if (name == null) {
      return Level.WARNING;
    }
    return switch (name.toLowerCase(java.util.Locale.ROOT)) {
      case "debug", "fine" -> Level.FINE;
      case "trace", "all" -> Level.ALL;
      case "info" -> Level.INFO;
      case "error", "severe" -> Level.SEVERE;
      case "off" -> Level.OFF;
      default -> Level.WARNING;
    };
  }
}
