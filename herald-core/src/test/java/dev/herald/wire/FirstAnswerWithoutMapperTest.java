package dev.herald.wire;

import static org.assertj.core.api.Assertions.assertThat;

import dev.herald.FreshJvm;
import java.util.List;
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
    String out = FreshJvm.run(Child.class, List.of());
    assertThat(out).contains("\"protocolVersion\":\"2025-11-25\"");
    assertThat(out).contains("mapper built after initialize: false");
    assertThat(out).contains("mapper built after a call: true"); // the check can tell
  }

  /** Serves one session over pipes; says whether the mapper exists after each answer. */
  public static final class Child {
    public static void main(String[] args) throws Exception {
      FreshJvm.PipedEchoServer server = new FreshJvm.PipedEchoServer();
      System.out.println(server.initialize());
      System.out.println("mapper built after initialize: " + McpJson.mapperBuilt());
      server.send("{\"jsonrpc\":\"2.0\",\"method\":\"notifications/initialized\"}");
      server.send("{\"jsonrpc\":\"2.0\",\"id\":2,\"method\":\"tools/list\",\"params\":{}}");
      System.out.println(server.readLine());
      McpJson.mapper(); // what any later request may do; the flag must see it
      System.out.println("mapper built after a call: " + McpJson.mapperBuilt());
      System.out.flush();
      System.exit(0);
    }
  }
}
