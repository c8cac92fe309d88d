package dev.herald;

import static org.assertj.core.api.Assertions.assertThat;

import dev.herald.server.McpServer;
import dev.herald.transport.stdio.StdioTransport;
import dev.herald.wire.CallToolResult;
import dev.herald.wire.Tool;
import java.io.BufferedReader;
import java.io.File;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.OutputStream;
import java.nio.channels.Channels;
import java.nio.channels.Pipe;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * Runs a {@code main} of the tests in a fresh JVM, for checks of what a cold process does (which
 * classes it loads or initialises before an answer), and serves a child's stdio server over pipes.
 */
public final class FreshJvm {
  private FreshJvm() {}

  /**
   * Runs {@code main} in a new JVM with this JVM's classes, the given JVM options and arguments,
   * and returns what it wrote to stdout (its stderr goes to this process's). Fails unless it ends
   * within 90 seconds; the child is destroyed on every path, a timeout of the test included.
   */
  public static String run(Class<?> main, List<String> jvmOptions, String... args)
      throws IOException, InterruptedException {
    List<String> command = new ArrayList<>();
    command.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
    command.addAll(jvmOptions);
    command.add("-cp");
    command.add(classPath());
    command.add(main.getName());
    command.addAll(List.of(args));
    Process child =
        new ProcessBuilder(command).redirectError(ProcessBuilder.Redirect.INHERIT).start();
    try {
      String out = new String(child.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
      assertThat(child.waitFor(90, TimeUnit.SECONDS)).isTrue();
      return out;
    } finally {
      child.destroyForcibly();
    }
  }

  /** This JVM's class path and module path as one class path (the tests may run on either). */
  private static String classPath() {
    String cp = System.getProperty("java.class.path", "");
    String mp = System.getProperty("jdk.module.path", "");
    return mp.isEmpty() ? cp : cp.isEmpty() ? mp : cp + File.pathSeparator + mp;
  }

  /**
   * A server with one {@code echo} tool connected over pipes in this process, as a child's stdio
   * server: {@link #send} writes a line to it, {@link #readLine} reads its next line.
   */
  public static final class PipedEchoServer {
    private final OutputStream toServer;
    private final BufferedReader fromServer;

    public PipedEchoServer() throws IOException {
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
      toServer = Channels.newOutputStream(in.sink());
      fromServer =
          new BufferedReader(
              new InputStreamReader(Channels.newInputStream(out.source()), StandardCharsets.UTF_8));
      server.connect(
          StdioTransport.of(
              Channels.newInputStream(in.source()), Channels.newOutputStream(out.sink())));
    }

    /** Sends {@code initialize} (2025-11-25) and returns the answer's line. */
    public String initialize() throws IOException {
      send(
          "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"initialize\",\"params\":{\"protocolVersion\":"
              + "\"2025-11-25\",\"capabilities\":{},\"clientInfo\":{\"name\":\"t\",\"version\":\"1\"}}}");
      return readLine();
    }

    public void send(String line) throws IOException {
      toServer.write((line + "\n").getBytes(StandardCharsets.UTF_8));
      toServer.flush();
    }

    public String readLine() throws IOException {
      return fromServer.readLine();
    }
  }
}
