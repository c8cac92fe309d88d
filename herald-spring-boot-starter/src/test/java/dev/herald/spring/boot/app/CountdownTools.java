package dev.herald.spring.boot.app;

import dev.herald.server.RequestContext;
import dev.herald.server.annotation.McpParam;
import dev.herald.server.annotation.McpResource;
import dev.herald.server.annotation.McpTool;
import dev.herald.wire.LoggingLevel;
import java.time.Duration;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import org.jspecify.annotations.Nullable;
import org.springframework.stereotype.Component;

/**
 * The test application's one annotated bean: {@code countdown} reports progress and stops when
 * cancelled; {@code demo://counter} is a subscribable resource that {@code bump} changes; {@code
 * emit_logs} logs once at every level.
 */
@Component
public class CountdownTools {
  /** The subscribable resource. */
  public static final String COUNTER = "demo://counter";

  /** Calls of {@code countdown} stopped early: cancelled, or interrupted by the shutdown. */
  public static final AtomicInteger CANCELLED = new AtomicInteger();

  /** Calls of {@code countdown} that ran to the end. */
  public static final AtomicInteger COMPLETED = new AtomicInteger();

  private final AtomicLong counter = new AtomicLong();

  /** Counts steps, reporting progress after each; stops at once when cancelled. */
  @McpTool(description = "Counts `steps` steps of `delayMs`, reporting progress after each.")
  public String countdown(
      @McpParam(description = "Steps (default 3)", required = false) @Nullable Integer steps,
      @McpParam(description = "Milliseconds per step (default 10)", required = false)
          @Nullable Integer delayMs,
      RequestContext context)
      throws InterruptedException {
    int n = steps == null ? 3 : steps;
    int delay = delayMs == null ? 10 : delayMs;
    try {
      for (int i = 1; i <= n; i++) {
        context.cancellation().throwIfCancelled();
        Thread.sleep(Duration.ofMillis(delay));
        context.progress().report((double) i, (double) n, "step " + i);
      }
    } catch (InterruptedException | RuntimeException e) {
      if (context.cancellation().isCancelled() || e instanceof InterruptedException) {
        CANCELLED.incrementAndGet();
      }
      throw e;
    }
    COMPLETED.incrementAndGet();
    return "counted " + n;
  }

  /** Increments the counter; its subscribers hear of it. */
  @McpTool(description = "Increments demo://counter; its subscribers hear of it.")
  public String bump(RequestContext context) {
    long now = counter.incrementAndGet();
    context.session().server().notifyResourceUpdated(COUNTER);
    return "counter " + now;
  }

  /** Logs once at every level. */
  @McpTool(description = "Logs one message at every level, from debug to emergency.")
  public String emitLogs(RequestContext context) {
    for (LoggingLevel level : LoggingLevel.values()) {
      context.log(level, "test", "at " + level.wire());
    }
    return "logged";
  }

  /** The counter's value. */
  @McpResource(
      uri = COUNTER,
      mimeType = "text/plain",
      description = "A counter that bump increments.")
  public String counter() {
    return Long.toString(counter.get());
  }
}
