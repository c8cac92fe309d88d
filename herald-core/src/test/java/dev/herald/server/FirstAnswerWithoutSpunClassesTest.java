package dev.herald.server;

import static org.assertj.core.api.Assertions.assertThat;

import dev.herald.transport.stdio.StdioTransport;
import dev.herald.wire.CallToolResult;
import dev.herald.wire.Tool;
import java.io.BufferedReader;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.io.OutputStream;
import java.nio.channels.Channels;
import java.nio.channels.Pipe;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * Up to its {@code initialize} answer, a stdio server starts no {@code java.util.logging}, links
 * no type switch and no record's generated {@code equals}/{@code hashCode}: each of them costs a
 * cold process tens of milliseconds (the JVM spins classes for them, which no AOT cache keeps;
 * docs/benchmarks.md, "Cold start"). Checked in a fresh JVM from its class initialisation log,
 * with the same three things done by the child afterwards to show that the check sees them.
 */
@Timeout(120)
class FirstAnswerWithoutSpunClassesTest {
  private static final String ANSWERED = "-- initialize answered --";
  private static final String CONTROL = "-- control done --";

  @Test
  void aFreshServerProcessAnswersInitializeWithoutLoggingSetUpOrSpunClasses() throws Exception {
    String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
    Process child =
        new ProcessBuilder(
                List.of(
                    java,
                    "-Xlog:disable",
                    "-Xlog:class+init=info:stdout",
                    "-cp",
                    classPath(),
                    FirstAnswerWithoutSpunClassesTest.class.getName() + "$Child"))
            .redirectError(ProcessBuilder.Redirect.INHERIT)
            .start();
    String out;
    try {
      out = new String(child.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
      assertThat(child.waitFor(90, TimeUnit.SECONDS)).isTrue();
    } finally {
      child.destroyForcibly(); // on every path, a timeout of this test included
    }
    assertThat(out).contains("\"protocolVersion\":\"2025-11-25\"").contains(ANSWERED, CONTROL);
    String before = out.substring(0, out.indexOf(ANSWERED));
    String control = out.substring(out.indexOf(ANSWERED), out.indexOf(CONTROL));
    for (String spun : spunClasses()) {
      assertThat(linesWith(before, spun)).as("before the answer").isEmpty();
      assertThat(linesWith(control, spun))
          .as("the control step")
          .isNotEmpty(); // the check can tell
    }
  }

  /** How the class initialisation log shows each of the three. */
  private static List<String> spunClasses() {
    return List.of(
        "'java/util/logging/LogManager'", "$$TypeSwitch", "'java/lang/runtime/ObjectMethods'");
  }

  private static List<String> linesWith(String log, String text) {
    return log.lines().filter(l -> l.contains(text)).toList();
  }

  /** This JVM's class path and module path as one class path (the tests may run on either). */
  private static String classPath() {
    String cp = System.getProperty("java.class.path", "");
    String mp = System.getProperty("jdk.module.path", "");
    return mp.isEmpty() ? cp : cp.isEmpty() ? mp : cp + java.io.File.pathSeparator + mp;
  }

  /** Serves one session over pipes; marks the answer in its output, then does the three itself. */
  public static final class Child {
    record Pair(int a, int b) {}

    public static void main(String[] args) throws Exception {
      McpServer server =
          McpServer.builder()
              .info("cold", "1")
              .tool(
                  Tool.builder("echo").description("Returns the text").build(),
                  call -> CallToolResult.text(call.arguments().path("text").asString("")))
              .build();
      // NIO pipes: java.io's piped streams refuse to read once the thread that wrote last ended
      Pipe in = Pipe.open();
      Pipe out = Pipe.open();
      OutputStream toServer = Channels.newOutputStream(in.sink());
      InputStream serverIn = Channels.newInputStream(in.source());
      OutputStream serverOut = Channels.newOutputStream(out.sink());
      BufferedReader fromServer =
          new BufferedReader(
              new InputStreamReader(Channels.newInputStream(out.source()), StandardCharsets.UTF_8));
      server.connect(StdioTransport.of(serverIn, serverOut));
      toServer.write(
          ("{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"initialize\",\"params\":{\"protocolVersion\":"
                  + "\"2025-11-25\",\"capabilities\":{},\"clientInfo\":{\"name\":\"t\",\"version\":"
                  + "\"1\"}}}\n")
              .getBytes(StandardCharsets.UTF_8));
      toServer.flush();
      System.out.println(fromServer.readLine());
      System.out.println(ANSWERED);
      System.out.flush();
      // the control: each of the three, which the log must show after the mark
      System.getLogger("cold").isLoggable(System.Logger.Level.INFO);
      Object o = args.length == 0 ? new Pair(1, 2) : "x";
      String kind =
          switch (o) {
            case Pair p -> "pair " + p.hashCode();
            case String s -> s;
            default -> "other";
          };
      System.out.println(kind.isEmpty() ? "" : CONTROL);
      System.out.flush();
      System.exit(0);
    }
  }
}
