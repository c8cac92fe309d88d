package dev.herald.opentelemetry;

import static dev.herald.testing.Eventually.eventually;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.herald.client.EraPreference;
import dev.herald.client.McpClient;
import dev.herald.http.McpHttpServer;
import dev.herald.server.McpServer;
import dev.herald.transport.http.StreamableHttpClientTransport;
import dev.herald.wire.CallToolResult;
import dev.herald.wire.ElicitParams;
import dev.herald.wire.ElicitResult;
import dev.herald.wire.McpException;
import dev.herald.wire.McpJson;
import dev.herald.wire.Tool;
import io.opentelemetry.api.trace.Span;
import io.opentelemetry.api.trace.SpanKind;
import io.opentelemetry.api.trace.StatusCode;
import io.opentelemetry.api.trace.propagation.W3CTraceContextPropagator;
import io.opentelemetry.context.Scope;
import io.opentelemetry.context.propagation.ContextPropagators;
import io.opentelemetry.sdk.OpenTelemetrySdk;
import io.opentelemetry.sdk.testing.exporter.InMemorySpanExporter;
import io.opentelemetry.sdk.trace.SdkTracerProvider;
import io.opentelemetry.sdk.trace.data.SpanData;
import io.opentelemetry.sdk.trace.export.SimpleSpanProcessor;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import tools.jackson.databind.node.ObjectNode;

/**
 * Herald's client calls Herald's server over a real HTTP hop (Jetty on 127.0.0.1), both traced by
 * {@link HeraldTracing} into the OpenTelemetry SDK's in-memory exporter: the client's and the
 * server's spans of one call are parent and child under the host's span, the server's reverse
 * call (an elicitation during the tool call) and the client's handling of it join the same
 * trace, and failed calls carry {@code error.type}.
 */
@Timeout(60)
class HeraldTracingTest {
  private final InMemorySpanExporter exporter = InMemorySpanExporter.create();
  private final SdkTracerProvider provider =
      SdkTracerProvider.builder().addSpanProcessor(SimpleSpanProcessor.create(exporter)).build();
  private final OpenTelemetrySdk otel =
      OpenTelemetrySdk.builder()
          .setTracerProvider(provider)
          .setPropagators(ContextPropagators.create(W3CTraceContextPropagator.getInstance()))
          .build();
  private final HeraldTracing tracing = HeraldTracing.builder(otel).networkTransport("tcp").build();

  private final McpServer server =
      McpServer.builder()
          .interceptor(tracing.serverInterceptor())
          .tool(
              Tool.builder("echo").description("Answers at once").build(),
              call -> CallToolResult.text("echoed"))
          .tool(
              Tool.builder("ask").description("Asks the user's name, then greets").build(),
              call -> {
                ObjectNode schema = McpJson.object().put("type", "object");
                schema.putObject("properties").putObject("name").put("type", "string");
                ElicitResult r = call.context().elicit(ElicitParams.form("Your name?", schema));
                return CallToolResult.text("hello " + r.content().get("name").stringValue());
              })
          .tool(
              Tool.builder("fails").description("Always a tool error").build(),
              call -> CallToolResult.error("it went wrong"))
          .build();
  private final McpHttpServer http = McpHttpServer.builder().server(server).build().start();
  private final StreamableHttpClientTransport transport =
      new StreamableHttpClientTransport(http.uri());
  private McpClient client;

  @BeforeEach
  void connect() throws InterruptedException {
    client =
        McpClient.builder()
            .eras(EraPreference.HANDSHAKE_ONLY)
            .interceptor(tracing.clientInterceptor())
            .elicitation((p, ctx) -> ElicitResult.accept(McpJson.object().put("name", "Ada")))
            .connect(transport);
  }

  @AfterEach
  void stop() {
    client.close();
    http.close();
    server.close();
    provider.close();
  }

  private List<SpanData> spans() {
    return exporter.getFinishedSpanItems();
  }

  private SpanData span(String name, SpanKind kind) {
    Optional<SpanData> found =
        spans().stream().filter(s -> s.getName().equals(name) && s.getKind() == kind).findFirst();
    assertThat(found).as(kind + " span " + name + " among " + spans()).isPresent();
    return found.orElseThrow();
  }

  private boolean has(String name, SpanKind kind) {
    return spans().stream().anyMatch(s -> s.getName().equals(name) && s.getKind() == kind);
  }

  @Test
  void theClientAndServerSpansOfOneCallAreParentAndChildUnderTheHostsSpan() throws Exception {
    Span host = otel.getTracer("host").spanBuilder("host turn").startSpan();
    try (Scope ignored = host.makeCurrent()) {
      assertThat(client.callTool("echo", null).firstText()).isEqualTo("echoed");
    } finally {
      host.end();
    }
    eventually(() -> has("tools/call echo", SpanKind.CLIENT), "the client span ended");

    SpanData clientSpan = span("tools/call echo", SpanKind.CLIENT);
    SpanData serverSpan = span("tools/call echo", SpanKind.SERVER);
    assertThat(clientSpan.getTraceId()).isEqualTo(host.getSpanContext().getTraceId());
    assertThat(clientSpan.getParentSpanId()).isEqualTo(host.getSpanContext().getSpanId());
    assertThat(serverSpan.getTraceId()).isEqualTo(clientSpan.getTraceId());
    assertThat(serverSpan.getParentSpanId()).isEqualTo(clientSpan.getSpanId());
    assertThat(serverSpan.getParentSpanContext().isRemote()).isTrue();

    String sessionId = transport.sessionId().orElseThrow();
    for (SpanData s : List.of(clientSpan, serverSpan)) {
      assertThat(s.getAttributes().get(McpSpans.METHOD)).isEqualTo("tools/call");
      assertThat(s.getAttributes().get(McpSpans.TOOL_NAME)).isEqualTo("echo");
      assertThat(s.getAttributes().get(McpSpans.OPERATION_NAME)).isEqualTo("execute_tool");
      assertThat(s.getAttributes().get(McpSpans.SESSION_ID)).isEqualTo(sessionId);
      assertThat(s.getAttributes().get(McpSpans.NETWORK_TRANSPORT)).isEqualTo("tcp");
      assertThat(s.getAttributes().get(McpSpans.REQUEST_ID)).isNotBlank();
      assertThat(s.getAttributes().get(McpSpans.ERROR_TYPE)).isNull();
      assertThat(s.getStatus().getStatusCode()).isEqualTo(StatusCode.UNSET);
    }
    assertThat(serverSpan.getAttributes().get(McpSpans.REQUEST_ID))
        .isEqualTo(clientSpan.getAttributes().get(McpSpans.REQUEST_ID));
    assertThat(serverSpan.getAttributes().get(McpSpans.PROTOCOL_VERSION)).isNotBlank();
    assertThat(span("initialize", SpanKind.SERVER).getTraceId())
        .as("the handshake, outside the host's span, is a trace of its own")
        .isNotEqualTo(host.getSpanContext().getTraceId());
  }

  @Test
  void anElicitationDuringACallShowsItsSpansInTheSameTrace() throws Exception {
    Span host = otel.getTracer("host").spanBuilder("host turn").startSpan();
    try (Scope ignored = host.makeCurrent()) {
      assertThat(client.callTool("ask", null).firstText()).isEqualTo("hello Ada");
    } finally {
      host.end();
    }
    eventually(() -> has("tools/call ask", SpanKind.CLIENT), "the client span ended");

    SpanData call = span("tools/call ask", SpanKind.CLIENT);
    SpanData served = span("tools/call ask", SpanKind.SERVER);
    SpanData asked = span("elicitation/create", SpanKind.CLIENT);
    SpanData answered = span("elicitation/create", SpanKind.SERVER);
    assertThat(List.of(call, served, asked, answered))
        .extracting(SpanData::getTraceId)
        .containsOnly(host.getSpanContext().getTraceId());
    assertThat(served.getParentSpanId()).isEqualTo(call.getSpanId());
    assertThat(asked.getParentSpanId())
        .as("the server's reverse call is a child of the tool call it serves")
        .isEqualTo(served.getSpanId());
    assertThat(answered.getParentSpanId()).isEqualTo(asked.getSpanId());
    assertThat(answered.getAttributes().get(McpSpans.METHOD)).isEqualTo("elicitation/create");
  }

  @Test
  void failedCallsCarryErrorTypeOnBothSides() throws Exception {
    assertThatThrownBy(() -> client.callTool("no-such-tool", null))
        .isInstanceOf(McpException.class);
    assertThat(client.callTool("fails", null).isError()).isTrue();
    eventually(
        () ->
            has("tools/call fails", SpanKind.CLIENT)
                && has("tools/call no-such-tool", SpanKind.CLIENT),
        "the client spans ended");

    SpanData unknownClient = span("tools/call no-such-tool", SpanKind.CLIENT);
    assertThat(unknownClient.getAttributes().get(McpSpans.ERROR_TYPE)).isEqualTo("-32602");
    assertThat(unknownClient.getAttributes().get(McpSpans.STATUS_CODE)).isEqualTo("-32602");
    assertThat(unknownClient.getStatus().getStatusCode()).isEqualTo(StatusCode.ERROR);
    SpanData unknownServer =
        spans().stream()
            .filter(s -> s.getKind() == SpanKind.SERVER)
            .filter(s -> s.getTraceId().equals(unknownClient.getTraceId()))
            .findFirst()
            .orElseThrow();
    assertThat(unknownServer.getName())
        .as("a tool the server does not know stays out of its span names")
        .isEqualTo("tools/call");
    assertThat(unknownServer.getAttributes().get(McpSpans.ERROR_TYPE)).isEqualTo("-32602");

    for (SpanKind kind : List.of(SpanKind.CLIENT, SpanKind.SERVER)) {
      SpanData failed = span("tools/call fails", kind);
      assertThat(failed.getAttributes().get(McpSpans.ERROR_TYPE)).isEqualTo("tool_error");
      assertThat(failed.getStatus().getStatusCode()).isEqualTo(StatusCode.ERROR);
    }
  }
}
