package dev.herald.interop;

import dev.herald.transport.stdio.SubprocessTransport;
import java.io.File;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
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
    Path sdkJackson = Path.of(System.getProperty("herald.interop.sdkJackson", "target/java-sdk-peer-jackson")).toAbsolutePath();
    List<String> own;
    try (Stream<Path> jars = Files.list(sdkJackson)) {
      own = jars.filter(p -> p.toString().endsWith(".jar")).map(Path::toString).sorted().toList();
    } catch (IOException e) {
      throw new UncheckedIOException("the SDK's Jackson was not copied to " + sdkJackson + " (run through Maven verify)", e);
    }
    if (own.size() != 2) {
      throw new IllegalStateException("expected jackson-core and jackson-databind in " + sdkJackson + ", found " + own);
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

  static SubprocessTransport stdioServer() {
    String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
    return SubprocessTransport.builder(java, "-XX:+UseSerialGC", "-XX:TieredStopAtLevel=1",
            "-cp", classpath(), JavaSdkServerMain.class.getName())
        .stderr(line -> System.err.println("[java-sdk-server] " + line))
        .build();
  }
}
