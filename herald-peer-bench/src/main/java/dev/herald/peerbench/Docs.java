package dev.herald.peerbench;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;

/**
 * Puts the latest table into docs/benchmarks.md: what stands between the lines {@code <!--
 * peer-comparison:start -->} and {@code <!-- peer-comparison:end -->} is replaced by the date, the
 * JDK, the machine (cores, {@code nproc}, load average at the start and the end) and the table.
 */
final class Docs {
  static final String START = "<!-- peer-comparison:start -->";
  static final String END = "<!-- peer-comparison:end -->";

  private Docs() {}

  static void write(Path file, Map<String, String> c, String table) throws IOException {
    String doc = Files.readString(file);
    int a = doc.indexOf(START);
    int z = doc.indexOf(END);
    if (a < 0 || z < a) {
      throw new IllegalStateException(file + " has no " + START + " ... " + END + " section");
    }
    String block =
        START
            + "\n\nRun "
            + c.get("date")
            + " on "
            + c.get("cpu")
            + ", "
            + c.get("cores")
            + " cores (nproc "
            + c.get("nproc")
            + "), load average "
            + c.get("loadAverageAtStart")
            + " at the start and "
            + c.get("loadAverageAtEnd")
            + " at the end; "
            + c.get("jdk")
            + ".\n\n"
            + table
            + "\n";
    Files.writeString(file, doc.substring(0, a) + block + doc.substring(z));
  }
}
