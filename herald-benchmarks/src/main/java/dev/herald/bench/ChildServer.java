package dev.herald.bench;

import dev.herald.http.McpHttpServer;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;

/**
 * The command loop of a benchmark server in a child JVM: prints {@code PORT <n>}, then answers
 * {@code cpu} with {@code CPU <process CPU nanos>} and {@code quit} with {@code BYE} (and exits),
 * one line each on stdin and stdout, until stdin ends.
 */
final class ChildServer {
  private ChildServer() {}

  static void serve(McpHttpServer http) throws IOException {
    PrintStream out = System.out;
    out.println("PORT " + http.port());
    out.flush();
    BufferedReader in =
        new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8));
    for (String line; (line = in.readLine()) != null; ) {
      switch (line.trim()) {
        case "cpu" -> out.println("CPU " + FanoutServer.processCpu());
        case "quit" -> {
          http.close();
          out.println("BYE");
          out.flush();
          System.exit(0);
        }
        default -> out.println("ERROR unknown command " + line);
      }
      out.flush();
    }
    http.close();
    System.exit(0);
  }
}
