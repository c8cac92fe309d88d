package dev.herald.spring.boot.app;

import dev.herald.server.ToolCall;
import dev.herald.spring.boot.McpServerCustomizer;
import dev.herald.wire.CallToolResult;
import dev.herald.wire.McpJson;
import dev.herald.wire.Tool;
import java.time.Duration;
import java.util.concurrent.atomic.AtomicInteger;
import org.springframework.boot.autoconfigure.SpringBootApplication;
import org.springframework.context.annotation.Bean;
import tools.jackson.databind.node.ObjectNode;

/** A Spring Boot application with the starter and one tool bean: what the starter's tests start. */
@SpringBootApplication
public class TestApplication {
  /** Calls of {@code countdown} that saw their cancellation. */
  public static final AtomicInteger CANCELLED = new AtomicInteger();

  /** {@code countdown}: {@code steps} steps of {@code delayMs}, progress after each. */
  @Bean
  McpServerCustomizer countdown() {
    ObjectNode schema = McpJson.mapper().createObjectNode().put("type", "object");
    schema.putObject("properties").putObject("steps").put("type", "integer");
    schema.withObject("properties").putObject("delayMs").put("type", "integer");
    return b ->
        b.tool(
            Tool.builder("countdown")
                .description("Counts `steps` steps of `delayMs`, reporting progress after each.")
                .inputSchema(schema)
                .build(),
            TestApplication::countdown);
  }

  static CallToolResult countdown(ToolCall call) throws InterruptedException {
    long steps = call.integer("steps", 3);
    long delay = call.integer("delayMs", 10);
    try {
      for (long i = 1; i <= steps; i++) {
        call.context().cancellation().throwIfCancelled();
        Thread.sleep(Duration.ofMillis(delay));
        call.context().progress().report((double) i, (double) steps, "step " + i);
      }
    } catch (InterruptedException | RuntimeException e) {
      if (call.context().cancellation().isCancelled()) {
        CANCELLED.incrementAndGet();
      }
      throw e;
    }
    return CallToolResult.text("counted " + steps);
  }
}
