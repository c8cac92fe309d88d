package dev.herald.cli;

import dev.herald.wire.McpJson;
import java.io.Console;
import tools.jackson.core.json.JsonWriteFeature;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.ObjectWriter;

/**
 * Whether standard output is an interactive terminal (animation allowed) or a pipe/file (plain
 * lines); and JSON for the terminal.
 */
final class Terminal {
  /**
   * Exact JSON that is safe on a terminal: every character outside ASCII is written as a JSON unicode
   * escape, so no C1 control (U+0080 to U+009F) or bidirectional override a server put in
   * a string reaches the terminal raw (the encoder escapes C0 controls and ESC already).
   */
  private static final ObjectWriter JSON =
      McpJson.mapper().writer().with(JsonWriteFeature.ESCAPE_NON_ASCII);

  private Terminal() {}

  /** {@code value} as compact JSON, terminal-safe. */
  static String json(Object value) {
    return escapeDel(JSON.writeValueAsString(value));
  }

  /** {@code node} as indented JSON, terminal-safe. */
  static String prettyJson(JsonNode node) {
    return escapeDel(JSON.withDefaultPrettyPrinter().writeValueAsString(node));
  }

  /** DEL is ASCII, so the encoder leaves it raw; it can only be inside a string, where its escape means the same. */
  private static String escapeDel(String json) {
    return json.indexOf('\u007f') < 0 ? json : json.replace("\u007f", "\\u007F");
  }

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
