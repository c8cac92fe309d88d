package dev.herald.spring.boot;

import static dev.herald.testing.Eventually.eventually;
import static org.assertj.core.api.Assertions.assertThat;

import dev.herald.client.EraPreference;
import dev.herald.client.McpClient;
import dev.herald.opentelemetry.HeraldTracing;
import dev.herald.session.CallOptions;
import dev.herald.spring.boot.tracing.TracingApplication;
import dev.herald.transport.http.StreamableHttpClientTransport;
import io.opentelemetry.api.OpenTelemetry;
import io.opentelemetry.api.common.AttributeKey;
import io.opentelemetry.api.trace.SpanKind;
import io.opentelemetry.sdk.testing.exporter.InMemorySpanExporter;
import io.opentelemetry.sdk.trace.data.SpanData;
import java.util.Objects;
import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * With herald-opentelemetry on the class path and an {@code OpenTelemetry} bean, every request
 * the server receives through Tomcat gets a server span, the child of the client's span whose
 * trace context came in {@code params._meta}; every task a span of its own, linked to the request
 * that created it.
 */
@Timeout(120)
class TracingTest {
  @Test
  void aToolCallThroughTomcatGetsAServerSpanChildOfTheClientsSpan() throws Exception {
    try (RunningApp app = RunningApp.start(TracingApplication.class)) {
      InMemorySpanExporter spans = app.context().getBean(InMemorySpanExporter.class);
      OpenTelemetry openTelemetry = app.context().getBean(OpenTelemetry.class);
      try (McpClient client =
          McpClient.builder()
              .eras(EraPreference.HANDSHAKE_ONLY)
              .interceptor(HeraldTracing.create(openTelemetry).clientInterceptor())
              .connect(new StreamableHttpClientTransport(app.mcp()))) {
        client.callTool("countdown", null);
      }

      eventually(
          () -> span(spans, SpanKind.SERVER) != null && span(spans, SpanKind.CLIENT) != null,
          "the server's and the client's spans of the tool call are exported");
      SpanData server = Objects.requireNonNull(span(spans, SpanKind.SERVER));
      SpanData clientSpan = Objects.requireNonNull(span(spans, SpanKind.CLIENT));
      assertThat(server.getAttributes().get(AttributeKey.stringKey("mcp.method.name")))
          .isEqualTo("tools/call");
      assertThat(server.getAttributes().get(AttributeKey.stringKey("network.transport")))
          .isEqualTo("tcp");
      assertThat(server.getTraceId()).isEqualTo(clientSpan.getTraceId());
      assertThat(server.getParentSpanId()).isEqualTo(clientSpan.getSpanId());
    }
  }

  @Test
  void aTaskGetsASpanLinkedToTheRequestThatCreatedIt() throws Exception {
    try (RunningApp app = RunningApp.start(TracingApplication.class)) {
      InMemorySpanExporter spans = app.context().getBean(InMemorySpanExporter.class);
      OpenTelemetry openTelemetry = app.context().getBean(OpenTelemetry.class);
      try (McpClient client =
          McpClient.builder()
              .eras(EraPreference.HANDSHAKE_ONLY)
              .interceptor(HeraldTracing.create(openTelemetry).clientInterceptor())
              .connect(new StreamableHttpClientTransport(app.mcp()))) {
        assertThat(
                client
                    .callToolAsTask("job", null, CallOptions.defaults(), null)
                    .await()
                    .firstText())
            .isEqualTo("job done");
      }

      eventually(
          () -> named(spans, "mcp task") != null && named(spans, "tools/call job") != null,
          "the task's span and the span of the request that created it are exported");
      SpanData task = Objects.requireNonNull(named(spans, "mcp task"));
      SpanData created = Objects.requireNonNull(named(spans, "tools/call job"));
      assertThat(task.getKind()).isEqualTo(SpanKind.INTERNAL);
      assertThat(task.getLinks())
          .extracting(l -> l.getSpanContext().getSpanId())
          .containsExactly(created.getSpanId());
      assertThat(task.getAttributes().get(AttributeKey.stringKey("herald.task.status")))
          .isEqualTo("completed");
    }
  }

  /** The exported server span named {@code name} (or the task span), if any. */
  private static @Nullable SpanData named(InMemorySpanExporter spans, String name) {
    return spans.getFinishedSpanItems().stream()
        .filter(s -> s.getName().equals(name))
        .filter(s -> s.getKind() == SpanKind.SERVER || s.getKind() == SpanKind.INTERNAL)
        .findFirst()
        .orElse(null);
  }

  /** The exported {@code tools/call countdown} span of {@code kind}, if any. */
  private static @Nullable SpanData span(InMemorySpanExporter spans, SpanKind kind) {
    return spans.getFinishedSpanItems().stream()
        .filter(s -> s.getKind() == kind && s.getName().equals("tools/call countdown"))
        .findFirst()
        .orElse(null);
  }
}
