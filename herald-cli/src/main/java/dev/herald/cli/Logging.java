package dev.herald.cli;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.util.Properties;
import java.util.logging.ConsoleHandler;
import java.util.logging.Level;
import java.util.logging.LogManager;
import java.util.logging.Logger;
import java.util.logging.SimpleFormatter;

/**
 * Routes Herald's logs to stderr, one line each, at a level set by HERALD_LOG (default warning).
 *
 * <p>A fresh {@code herald} process sets this up when something first logs ({@link
 * #configureOnFirstUse}), not as it starts: starting {@code java.util.logging} (its configuration
 * file, the console handler, the formatter's time zone data) cost {@code herald serve --stdio} tens
 * of milliseconds before its first answer, and a stdio session that logs nothing never needs it
 * (docs/benchmarks.md, "Cold start"). The lines are the same either way.
 */
final class Logging {
  private static final String FORMAT = "herald %4$s %3$s: %5$s%6$s%n";
  private static final String FORMAT_PROPERTY = "java.util.logging.SimpleFormatter.format";
  private static final String CONFIG_CLASS = "java.util.logging.config.class";
  private static final String CONFIG_FILE = "java.util.logging.config.file";

  private Logging() {}

  /**
   * For a fresh process, before anything logs: {@code java.util.logging} reads its configuration
   * from {@link Config} when it starts. With a configuration of the user's own ({@code
   * -Djava.util.logging.config.file} or {@code .class}), the handler is set up at once on top of
   * it, as {@link #configure} always did.
   */
  static void configureOnFirstUse() {
    if (System.getProperty(CONFIG_CLASS) != null || System.getProperty(CONFIG_FILE) != null) {
      configure();
      return;
    }
    System.setProperty(FORMAT_PROPERTY, FORMAT);
    System.setProperty(CONFIG_CLASS, Config.class.getName());
  }

  /** Sets the handler up now (a process where logging may have started already: tests). */
  static void configure() {
    System.setProperty(FORMAT_PROPERTY, FORMAT);
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

  /**
   * The configuration {@code java.util.logging} reads as it starts ({@code
   * java.util.logging.config.class}): the root logger and one console handler on stderr at the
   * HERALD_LOG level, with the one-line format; what {@link #configure} sets up by hand.
   */
  public static final class Config {
    public Config() throws IOException {
      String level = parse(System.getenv("HERALD_LOG")).getName();
      Properties p = new Properties();
      p.setProperty("handlers", ConsoleHandler.class.getName());
      p.setProperty(".level", level);
      p.setProperty(ConsoleHandler.class.getName() + ".level", level);
      p.setProperty(ConsoleHandler.class.getName() + ".formatter", SimpleFormatter.class.getName());
      p.setProperty(FORMAT_PROPERTY, FORMAT);
      ByteArrayOutputStream bytes = new ByteArrayOutputStream();
      p.store(bytes, null);
      LogManager.getLogManager().readConfiguration(new ByteArrayInputStream(bytes.toByteArray()));
    }
  }
}
