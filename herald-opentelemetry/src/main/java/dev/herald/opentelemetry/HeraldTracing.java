package dev.herald.opentelemetry;

import dev.herald.client.McpClient;
import dev.herald.server.ServerSession;
import dev.herald.session.Interceptor;
import io.opentelemetry.api.OpenTelemetry;
import io.opentelemetry.api.trace.Tracer;
import io.opentelemetry.context.propagation.TextMapPropagator;
import java.util.Objects;
import org.jspecify.annotations.Nullable;

/**
 * OpenTelemetry traces for Herald: a span for every MCP request on both sides, named and
 * attributed after OpenTelemetry's semantic conventions for MCP, with the trace context carried
 * from the sender to the receiver in the request's {@code params._meta} ({@code traceparent},
 * {@code tracestate}, {@code baggage}: the keys the MCP specification's basic "_meta" section
 * leaves unprefixed for W3C Trace Context and Baggage). A host that calls a tool inside a span of
 * its own sees the client's {@code tools/call} span as that span's child, the server's span as
 * the client span's child, and the requests the tool's handler sends back (sampling,
 * elicitation) as children of the server span, in the same trace.
 *
 * <p>Wire it as an interceptor on both roles:
 *
 * {@snippet :
 * HeraldTracing tracing = HeraldTracing.builder(openTelemetry).networkTransport("tcp").build();
 * McpServer server = McpServer.builder().interceptor(tracing.serverInterceptor()).build();
 * McpClient client = McpClient.builder()
 *     .interceptor(tracing.clientInterceptor())
 *     .connect(new StreamableHttpClientTransport(uri));
 * }
 *
 * <p><b>Spans.</b> A request this side receives gets a {@code SERVER} span, current while its
 * handler runs on the request's thread; a request this side sends gets a {@code CLIENT} span,
 * child of the sending thread's current span, ended when the request ends. The name is {@code
 * {mcp.method.name} {target}}, the target being the tool's name for {@code tools/call} and the
 * prompt's for {@code prompts/get}; a request the receiver refused as an unknown method or bad
 * params keeps only the method (or {@code unknown}), so a peer's made-up names never become span
 * names. Attributes: {@code mcp.method.name}, {@code jsonrpc.request.id}, {@code mcp.session.id}
 * (Streamable HTTP), {@code mcp.protocol.version} (receiving side), {@code network.transport} (as
 * set here), {@code gen_ai.tool.name} and {@code gen_ai.operation.name} ({@code execute_tool}),
 * {@code gen_ai.prompt.name}, {@code mcp.resource.uri}; and when the request fails, {@code
 * error.type} (the JSON-RPC error code; {@code tool_error} for a tool result with {@code
 * isError}; {@code cancelled}; {@code timeout}; else the exception's class) with {@code
 * rpc.response.status_code} and an error status. Arguments and results are never recorded.
 *
 * <p>Herald's core does not depend on OpenTelemetry: this module implements its {@link
 * Interceptor}, whose {@link Interceptor#sending} puts the trace context into outgoing requests.
 *
 * <p>Immutable and thread-safe; one instance may serve any number of servers and clients.
 */
// OpenTelemetry's jars are automatic modules, so dev.herald.opentelemetry cannot require them
// transitively; its types in this API are the application's own (javac's "exports" lint).
@SuppressWarnings("exports")
public final class HeraldTracing {
  /** The instrumentation scope name of Herald's spans. */
  public static final String INSTRUMENTATION_NAME = "dev.herald.opentelemetry";

  private final Tracer tracer;
  private final TextMapPropagator propagator;
  private final @Nullable String networkTransport;

  private HeraldTracing(Builder b) {
    this.tracer = b.openTelemetry.getTracer(INSTRUMENTATION_NAME);
    this.propagator = b.openTelemetry.getPropagators().getTextMapPropagator();
    this.networkTransport = b.networkTransport;
  }

  /** Tracing with {@code openTelemetry}'s tracer provider and propagators, and no other setting. */
  public static HeraldTracing create(OpenTelemetry openTelemetry) {
    return builder(openTelemetry).build();
  }

  /**
   * Starts a configuration. Spans are made by {@code openTelemetry}'s tracer provider, and the
   * trace context goes into {@code _meta} through its configured propagators (W3C Trace Context,
   * usually).
   */
  public static Builder builder(OpenTelemetry openTelemetry) {
    return new Builder(openTelemetry);
  }

  /**
   * The interceptor for {@code McpServer.Builder.interceptor}: a server span for each request a
   * client sends, and a client span, with trace context, for each request the server sends to a
   * client. Add it first, so that its span covers the other interceptors.
   */
  public Interceptor<ServerSession> serverInterceptor() {
    return new TracingInterceptor<>(tracer, propagator, networkTransport);
  }

  /**
   * The interceptor for {@code McpClient.Builder.interceptor}: a client span, with trace context,
   * for each request the client sends, and a server span for each request the server sends to it
   * (sampling, elicitation, roots, ping).
   */
  public Interceptor<McpClient> clientInterceptor() {
    return new TracingInterceptor<>(tracer, propagator, networkTransport);
  }

  /** Configures {@link HeraldTracing}. */
  public static final class Builder {
    private final OpenTelemetry openTelemetry;
    private @Nullable String networkTransport;

    private Builder(OpenTelemetry openTelemetry) {
      this.openTelemetry = Objects.requireNonNull(openTelemetry, "openTelemetry");
    }

    /**
     * The {@code network.transport} attribute of every span: {@code tcp} for Streamable HTTP,
     * {@code pipe} for stdio, as the MCP semantic conventions say. Default: not recorded.
     *
     * @throws IllegalArgumentException if blank
     */
    public Builder networkTransport(String transport) {
      Objects.requireNonNull(transport, "transport");
      if (transport.isBlank()) {
        throw new IllegalArgumentException("networkTransport must not be blank");
      }
      this.networkTransport = transport;
      return this;
    }

    public HeraldTracing build() {
      return new HeraldTracing(this);
    }
  }
}
