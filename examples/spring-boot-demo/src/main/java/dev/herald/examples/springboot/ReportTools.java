package dev.herald.examples.springboot;

import dev.herald.server.RequestContext;
import dev.herald.server.annotation.McpParam;
import dev.herald.server.annotation.McpResource;
import dev.herald.server.annotation.McpTool;
import java.time.Duration;
import java.util.concurrent.atomic.AtomicReference;
import org.springframework.stereotype.Component;

/**
 * One annotated tool with progress and one resource with subscriptions (MCP 2025-11-25
 * server/tools, server/resources, basic/utilities/progress). {@code generate_report} works
 * section by section, reporting progress after each and stopping at once when the client cancels;
 * when it is done, the report becomes the content of {@code reports://latest} and every session
 * subscribed to it is told with {@code notifications/resources/updated}.
 */
@Component
public class ReportTools {
  /** The resource that holds the last report. */
  public static final String LATEST = "reports://latest";

  private final AtomicReference<String> latest = new AtomicReference<>("no report yet");

  /** Builds a report of {@code sections} sections, reporting progress after each. */
  @McpTool(description = "Builds a report section by section, reporting progress after each.")
  public String generateReport(
      @McpParam(description = "Report title") String title,
      @McpParam(description = "Number of sections (1 to 100)") int sections,
      RequestContext context)
      throws InterruptedException {
    if (sections < 1 || sections > 100) {
      throw new IllegalArgumentException("sections must be 1 to 100, not " + sections);
    }
    StringBuilder report = new StringBuilder(title).append('\n');
    for (int i = 1; i <= sections; i++) {
      context.cancellation().throwIfCancelled();
      Thread.sleep(Duration.ofMillis(50)); // the work of one section
      report.append("section ").append(i).append(": ok\n");
      context.progress().report((double) i, (double) sections, "section " + i + " of " + sections);
    }
    latest.set(report.toString());
    context.session().server().notifyResourceUpdated(LATEST);
    return "report '" + title + "' has " + sections + " sections; read " + LATEST;
  }

  /** The last report generated. */
  @McpResource(
      uri = LATEST,
      name = "latest-report",
      mimeType = "text/plain",
      description = "The last report generate_report built; subscribe to hear of the next one.")
  public String latestReport() {
    return latest.get();
  }
}
