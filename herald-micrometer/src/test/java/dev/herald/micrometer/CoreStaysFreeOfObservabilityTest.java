package dev.herald.micrometer;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;

/**
 * Herald's core depends on no metrics, tracing or application framework: Micrometer and
 * OpenTelemetry are bound in their own modules (this one and herald-opentelemetry), through the
 * core's EventListener and Interceptor.
 */
class CoreStaysFreeOfObservabilityTest {
  @Test
  void theCoresPomAndModuleNameNoMicrometerOpenTelemetryOrSpring() throws Exception {
    Path core = Path.of("..", "herald-core");
    String pom = Files.readString(core.resolve("pom.xml"));
    String module = Files.readString(core.resolve("src/main/java/module-info.java"));
    for (String text : new String[] {pom, module}) {
      assertThat(text).doesNotContain("micrometer", "opentelemetry", "springframework");
    }
  }
}
