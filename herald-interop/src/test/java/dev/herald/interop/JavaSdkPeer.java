package dev.herald.interop;

import dev.herald.transport.stdio.SubprocessTransport;
import java.io.BufferedReader;
import java.io.File;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.UncheckedIOException;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.stream.Stream;

/**
 * The official Java SDK peer: {@link JavaSdkServerMain} run as a subprocess on this JVM's test
 * classpath (failsafe runs with {@code useManifestOnlyJar=false}, so {@code java.class.path} holds
 * the SDK, Reactor and the test classes), except for Jackson: the peer gets the Jackson 3 release
 * that the SDK's {@code mcp-json-jackson3} declares (copied by the build into
 * {@code herald.interop.sdkJackson}), not the newer one Maven mediates to for Herald. On Herald's
 * Jackson 3.2 the SDK 2.1.0 fails to serialize {@code elicitation/create} ("Conflict between type id
 * property 'mode' and bean property"), its stdio outbound pipeline dies and the session goes silent.
 */
final class JavaSdkPeer {
  private JavaSdkPeer() {}

  static String classpath() {
    Path sdkJackson =
        Path.of(System.getProperty("herald.interop.sdkJackson", "target/java-sdk-peer-jackson"))
            .toAbsolutePath();
    List<String> own;
    try (Stream<Path> jars = Files.list(sdkJackson)) {
      own = jars.filter(p -> p.toString().endsWith(".jar")).map(Path::toString).sorted().toList();
    } catch (IOException e) {
      throw new UncheckedIOException(
          "the SDK's Jackson was not copied to " + sdkJackson + " (run through Maven verify)", e);
    }
    if (own.size() != 2) {
      throw new IllegalStateException(
          "expected jackson-core and jackson-databind in " + sdkJackson + ", found " + own);
    }
    List<String> cp = new ArrayList<>(own);
    for (String entry : System.getProperty("java.class.path").split(File.pathSeparator)) {
      String name = Path.of(entry).getFileName().toString();
      if (!name.startsWith("jackson-databind-3") && !name.startsWith("jackson-core-3")) {
        cp.add(entry);
      }
    }
    return String.join(File.pathSeparator, cp);
  }

  /** {@link JavaSdkServerMain} over the SDK's Streamable HTTP servlet: the process and its endpoint. */
  record HttpServer(Process process, URI uri, BlockingQueue<String> standingStreams)
      implements AutoCloseable {
    /** Waits (bounded) until the servlet holds a standing GET stream open for this session. */
    void awaitStandingStream(String sessionId) throws InterruptedException {
      long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
      while (System.nanoTime() < deadline) {
        String line = standingStreams.poll(100, TimeUnit.MILLISECONDS);
        if (line != null && line.startsWith("STANDING " + sessionId + " ")) {
          return;
        }
      }
      throw new AssertionError(
          "the SDK server did not take a standing GET stream for session " + sessionId);
    }

    @Override
    public void close() throws InterruptedException {
      try {
        process.getOutputStream().close(); // its cue to stop
      } catch (IOException e) {
        // gone already
      }
      if (!process.waitFor(5, TimeUnit.SECONDS)) {
        process.destroyForcibly();
        process.waitFor(5, TimeUnit.SECONDS);
      }
    }
  }

  /** Starts {@code JavaSdkServerMain --http} and waits (bounded) for the port it prints. */
  static HttpServer httpServer() throws IOException, InterruptedException {
    String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
    Process p =
        new ProcessBuilder(
                java,
                "-XX:+UseSerialGC",
                "-XX:TieredStopAtLevel=1",
                "-cp",
                classpath(),
                JavaSdkServerMain.class.getName(),
                "--http")
            .redirectError(ProcessBuilder.Redirect.INHERIT)
            .start();
    CompletableFuture<String> portLine = new CompletableFuture<>();
    BlockingQueue<String> standing = new LinkedBlockingQueue<>();
    Thread.ofPlatform()
        .daemon()
        .name("java-sdk-http-server-stdout")
        .start(() -> {
          try (BufferedReader out =
              new BufferedReader(
                  new InputStreamReader(p.getInputStream(), StandardCharsets.UTF_8))) {
            String line;
            while ((line = out.readLine()) != null) {
              if (!portLine.isDone() && line.startsWith("PORT ")) {
                portLine.complete(line);
              } else if (line.startsWith("STANDING ")) {
                standing.add(line);
                System.err.println("[java-sdk-http-server] " + line);
              } else {
                System.err.println("[java-sdk-http-server] " + line);
              }
            }
            portLine.completeExceptionally(
                new IOException("the SDK server ended without printing its port"));
          } catch (IOException e) {
            portLine.completeExceptionally(e);
          }
        });
    try {
      // generous: a JVM loading Jetty and the SDK on a machine whose cores are busy took over 20 s
      int port = Integer.parseInt(portLine.get(90, TimeUnit.SECONDS).substring(5).trim());
      return new HttpServer(p, URI.create("http://127.0.0.1:" + port + "/mcp"), standing);
    } catch (ExecutionException | TimeoutException | RuntimeException e) {
      p.destroyForcibly();
      throw new IOException("the SDK's HTTP server did not start", e);
    }
  }

  static SubprocessTransport stdioServer() {
    String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
    return SubprocessTransport.builder(
            java,
            "-XX:+UseSerialGC",
            "-XX:TieredStopAtLevel=1",
            "-cp",
            classpath(),
            JavaSdkServerMain.class.getName())
        .stderr(line -> System.err.println("[java-sdk-server] " + line))
        .build();
  }
}
