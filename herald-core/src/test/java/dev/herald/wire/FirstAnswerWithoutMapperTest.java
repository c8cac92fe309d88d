package dev.herald.wire;

import static org.assertj.core.api.Assertions.assertThat;

import dev.herald.server.McpServer;
import dev.herald.transport.stdio.StdioTransport;
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
 * A stdio server answers {@code initialize} without building the JSON mapper (most of a process's
 * start-up: docs/benchmarks.md, "Cold start"), checked in a fresh JVM, where nothing else built it
 * before. The first call after it may build it.
 */
@Timeout(120)
class FirstAnswerWithoutMapperTest {

  @Test
  void aFreshServerProcessAnswersInitializeWithoutBuildingTheMapper() throws Exception {
    String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
    Process child =
        new ProcessBuilder(
                List.of(
                    java,
                    "-cp",
                    classPath(),
                    FirstAnswerWithoutMapperTest.class.getName() + "$Child"))
            .redirectError(ProcessBuilder.Redirect.INHERIT)
            .start();
    String out;
    try {
      out = new String(child.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
      assertThat(child.waitFor(90, TimeUnit.SECONDS)).isTrue();
    } finally {
      child.destroyForcibly(); // on every path, a timeout of this test included
    }
    assertThat(out).contains("\"protocolVersion\":\"2025-11-25\"");
    assertThat(out).contains("mapper built after initialize: false");
    assertThat(out).contains("mapper built after a call: true"); // the check can tell
  }

  /** This JVM's class path and module path as one class path (the tests may run on either). */
  private static String classPath() {
    String cp = System.getProperty("java.class.path", "");
    String mp = System.getProperty("jdk.module.path", "");
    return mp.isEmpty() ? cp : cp.isEmpty() ? mp : cp + java.io.File.pathSeparator + mp;
  }

  /** Serves one session over pipes; says whether the mapper exists after each answer. */
  public static final class Child {
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
      send(
          toServer,
          "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"initialize\",\"params\":{\"protocolVersion\":"
              + "\"2025-11-25\",\"capabilities\":{},\"clientInfo\":{\"name\":\"t\",\"version\":\"1\"}}}");
      System.out.println(fromServer.readLine());
      System.out.println("mapper built after initialize: " + McpJson.mapperBuilt());
      send(toServer, "{\"jsonrpc\":\"2.0\",\"method\":\"notifications/initialized\"}");
      send(toServer, "{\"jsonrpc\":\"2.0\",\"id\":2,\"method\":\"tools/list\",\"params\":{}}");
      System.out.println(fromServer.readLine());
      McpJson.mapper(); // what any later request may do; the flag must see it
      System.out.println("mapper built after a call: " + McpJson.mapperBuilt());
      System.out.flush();
      System.exit(0);
    }

    private static void send(OutputStream to, String line) throws Exception {
      to.write((line + "\n").getBytes(StandardCharsets.UTF_8));
      to.flush();
    }
  }
}
