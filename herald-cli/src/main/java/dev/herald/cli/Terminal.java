package dev.herald.cli;

import java.io.Console;

/** Whether standard output is an interactive terminal (animation allowed) or a pipe/file (plain lines). */
final class Terminal {
  private Terminal() {}

  @SuppressWarnings("SystemConsoleNull") // handled: isTerminal() is asked for where it exists
  static boolean interactive() {
    Console c = System.console();
    if (c == null) {
      return false;
    }
    try {
      // Console.isTerminal() exists from Java 22; on 21 a non-null console means a terminal.
      return (Boolean) Console.class.getMethod("isTerminal").invoke(c);
    } catch (ReflectiveOperationException e) {
      return true;
    }
  }
}
