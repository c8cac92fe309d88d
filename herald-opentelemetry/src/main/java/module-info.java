/**
 * OpenTelemetry traces for Herald: {@link dev.herald.opentelemetry.HeraldTracing} makes the
 * interceptors that give every MCP request a span on both sides, with W3C trace context in {@code
 * params._meta}.
 */
module dev.herald.opentelemetry {
  requires transitive dev.herald.core;
  // Automatic modules (no module-info of their own), so not "requires transitive": an
  // application on the module path requires io.opentelemetry.api itself.
  requires io.opentelemetry.api;
  requires io.opentelemetry.context;
  requires static org.jspecify;

  exports dev.herald.opentelemetry;
}
