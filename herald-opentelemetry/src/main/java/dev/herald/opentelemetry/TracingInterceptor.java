package dev.herald.opentelemetry;

import dev.herald.session.Interceptor;
import io.opentelemetry.api.trace.Span;
import io.opentelemetry.api.trace.SpanBuilder;
import io.opentelemetry.api.trace.SpanContext;
import io.opentelemetry.api.trace.SpanKind;
import io.opentelemetry.api.trace.Tracer;
import io.opentelemetry.context.Context;
import io.opentelemetry.context.Scope;
import io.opentelemetry.context.propagation.TextMapPropagator;
import org.jspecify.annotations.Nullable;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * Design note. One interceptor per role does both directions. A request the peer sends ({@link
 * #intercept}) gets a {@link SpanKind#SERVER} span whose parent is the context the propagators
 * extract from its {@code params._meta} (the ambient context, when it is another span, becomes a
 * link, as the MCP semantic conventions ask); the span is current while the rest of the chain
 * and the handler run on this thread, so the requests the handler sends (a server's elicitation
 * during a tool call) are its children. A request this side sends ({@link #sending}) gets a
 * {@link SpanKind#CLIENT} span whose parent is the sending thread's current context, and the
 * propagators inject that span's context into the request's {@code params._meta}; the span ends
 * when the request does.
 *
 * <p>Thread-safe and stateless apart from its settings.
 */
final class TracingInterceptor<S> implements Interceptor<S> {
  private final Tracer tracer;
  private final TextMapPropagator propagator;
  private final @Nullable String networkTransport;

  TracingInterceptor(
      Tracer tracer, TextMapPropagator propagator, @Nullable String networkTransport) {
    this.tracer = tracer;
    this.propagator = propagator;
    this.networkTransport = networkTransport;
  }

  @Override
  public JsonNode intercept(Chain<S> chain) throws Exception {
    String method = chain.method();
    ObjectNode params = chain.params();
    ObjectNode meta = chain.meta();
    Context ambient = Context.current();
    Context parent = meta == null ? ambient : propagator.extract(ambient, meta, MetaCarrier.GETTER);
    SpanBuilder b =
        tracer
            .spanBuilder(McpSpans.name(method, McpSpans.target(method, params)))
            .setParent(parent)
            .setSpanKind(SpanKind.SERVER);
    SpanContext ambientSpan = Span.fromContext(ambient).getSpanContext();
    if (ambientSpan.isValid() && !ambientSpan.equals(Span.fromContext(parent).getSpanContext())) {
      b.addLink(ambientSpan);
    }
    McpSpans.describe(b, method, chain.id(), params);
    chain.protocolVersion().ifPresent(v -> b.setAttribute(McpSpans.PROTOCOL_VERSION, v.wire()));
    chain.sessionId().ifPresent(id -> b.setAttribute(McpSpans.SESSION_ID, id));
    if (networkTransport != null) {
      b.setAttribute(McpSpans.NETWORK_TRANSPORT, networkTransport);
    }
    Span span = b.startSpan();
    Scope scope = span.makeCurrent();
    try {
      JsonNode result = chain.proceed();
      McpSpans.result(span, method, result);
      return result;
    } catch (Throwable e) {
      McpSpans.failure(span, method, e, true);
      throw e;
    } finally {
      scope.close();
      span.end();
    }
  }

  @Override
  public @Nullable Sent sending(Sending request) {
    String method = request.method();
    ObjectNode params = request.params();
    Context parent = Context.current();
    SpanBuilder b =
        tracer
            .spanBuilder(McpSpans.name(method, McpSpans.target(method, params)))
            .setParent(parent)
            .setSpanKind(SpanKind.CLIENT);
    McpSpans.describe(b, method, request.id(), params);
    request.sessionId().ifPresent(id -> b.setAttribute(McpSpans.SESSION_ID, id));
    if (networkTransport != null) {
      b.setAttribute(McpSpans.NETWORK_TRANSPORT, networkTransport);
    }
    Span span = b.startSpan();
    propagator.inject(parent.with(span), request, MetaCarrier.SETTER);
    return (result, failure) -> {
      if (failure != null) {
        McpSpans.failure(span, method, failure, false);
      } else {
        McpSpans.result(span, method, result);
      }
      span.end();
    };
  }
}
