package dev.herald.spring.boot;

import static dev.herald.testing.Eventually.eventually;
import static org.assertj.core.api.Assertions.assertThat;

import dev.herald.client.EraPreference;
import dev.herald.client.McpClient;
import dev.herald.opentelemetry.HeraldTracing;
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
 * trace context came in {@code params._meta}.
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

  /** The exported {@code tools/call countdown} span of {@code kind}, if any. */
  private static @Nullable SpanData span(InMemorySpanExporter spans, SpanKind kind) {
    return spans.getFinishedSpanItems().stream()
        .filter(s -> s.getKind() == kind && s.getName().equals("tools/call countdown"))
        .findFirst()
        .orElse(null);
  }
}
