package dev.herald.spring.boot.app;

import dev.herald.server.ResourceHandler;
import dev.herald.server.ToolCall;
import dev.herald.spring.boot.McpServerCustomizer;
import dev.herald.wire.CallToolResult;
import dev.herald.wire.LoggingLevel;
import dev.herald.wire.McpJson;
import dev.herald.wire.Resource;
import dev.herald.wire.Tool;
import java.time.Duration;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import org.springframework.boot.autoconfigure.SpringBootApplication;
import org.springframework.context.annotation.Bean;
import tools.jackson.databind.node.ObjectNode;

/**
 * A Spring Boot application with only the starter and its tool beans: what the starter's tests
 * start. {@code countdown} reports progress and stops when cancelled; {@code demo://counter} is a
 * subscribable resource that {@code bump} changes; {@code emit_logs} logs once at every level.
 */
@SpringBootApplication
public class TestApplication {
  /** The subscribable resource. */
  public static final String COUNTER = "demo://counter";

  /** Calls of {@code countdown} that saw their cancellation. */
  public static final AtomicInteger CANCELLED = new AtomicInteger();

  /** Calls of {@code countdown} that ran to the end. */
  public static final AtomicInteger COMPLETED = new AtomicInteger();

  private static final AtomicLong counter = new AtomicLong();

  @Bean
  McpServerCustomizer tools() {
    return b -> {
      b.tool(
          Tool.builder("countdown")
              .description("Counts `steps` steps of `delayMs`, reporting progress after each.")
              .inputSchema(countdownSchema())
              .build(),
          TestApplication::countdown);
      b.tool(
          Tool.builder("bump")
              .description("Increments demo://counter; its subscribers hear of it.")
              .inputSchema(McpJson.mapper().createObjectNode().put("type", "object"))
              .build(),
          call -> {
            long now = counter.incrementAndGet();
            call.context().session().server().notifyResourceUpdated(COUNTER);
            return CallToolResult.text("counter " + now);
          });
      b.tool(
          Tool.builder("emit_logs")
              .description("Logs one message at every level, from debug to emergency.")
              .inputSchema(McpJson.mapper().createObjectNode().put("type", "object"))
              .build(),
          call -> {
            for (LoggingLevel level : LoggingLevel.values()) {
              call.context().log(level, "test", "at " + level.wire());
            }
            return CallToolResult.text("logged");
          });
      b.resource(
          new Resource(
              COUNTER,
              "counter",
              null,
              "A counter that bump increments.",
              "text/plain",
              null,
              null,
              null,
              null),
          ResourceHandler.text("text/plain", () -> Long.toString(counter.get())));
    };
  }

  private static ObjectNode countdownSchema() {
    ObjectNode schema = McpJson.mapper().createObjectNode().put("type", "object");
    ObjectNode properties = schema.putObject("properties");
    properties.putObject("steps").put("type", "integer").put("description", "Steps (default 3)");
    properties
        .putObject("delayMs")
        .put("type", "integer")
        .put("description", "Milliseconds per step (default 10)");
    return schema;
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
    COMPLETED.incrementAndGet();
    return CallToolResult.text("counted " + steps);
  }
}
