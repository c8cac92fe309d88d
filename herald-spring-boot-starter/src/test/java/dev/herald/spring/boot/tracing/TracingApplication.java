package dev.herald.spring.boot.tracing;

import dev.herald.server.annotation.McpTool;
import dev.herald.spring.boot.app.CountdownTools;
import dev.herald.wire.TaskSupport;
import io.opentelemetry.api.trace.propagation.W3CTraceContextPropagator;
import io.opentelemetry.context.propagation.ContextPropagators;
import io.opentelemetry.sdk.OpenTelemetrySdk;
import io.opentelemetry.sdk.testing.exporter.InMemorySpanExporter;
import io.opentelemetry.sdk.trace.SdkTracerProvider;
import io.opentelemetry.sdk.trace.export.SimpleSpanProcessor;
import org.springframework.boot.autoconfigure.SpringBootApplication;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Import;

/**
 * The test application's tool bean, with an {@code OpenTelemetry} bean whose spans go to an
 * in-memory exporter: the starter traces Herald's requests with it.
 */
@SpringBootApplication
@Import({CountdownTools.class, TracingApplication.Jobs.class})
public class TracingApplication {
  /** A tool that may run as a task. */
  public static class Jobs {
    /** Answers at once, as a task when asked to. */
    @McpTool(description = "A job that may run as a task", taskSupport = TaskSupport.OPTIONAL)
    public String job() {
      return "job done";
    }
  }

  @Bean
  InMemorySpanExporter spans() {
    return InMemorySpanExporter.create();
  }

  @Bean(destroyMethod = "close")
  OpenTelemetrySdk openTelemetry(InMemorySpanExporter spans) {
    return OpenTelemetrySdk.builder()
        .setPropagators(ContextPropagators.create(W3CTraceContextPropagator.getInstance()))
        .setTracerProvider(
            SdkTracerProvider.builder().addSpanProcessor(SimpleSpanProcessor.create(spans)).build())
        .build();
  }
}
