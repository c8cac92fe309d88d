/**
 * Micrometer meters for Herald: {@link dev.herald.micrometer.HeraldMetrics} makes an {@code
 * EventListener.Factory} that records every session's events in a {@code MeterRegistry}.
 */
module dev.herald.micrometer {
  requires transitive dev.herald.core;
  // An automatic module (no module-info of its own), so not "requires transitive": an
  // application on the module path requires micrometer.core itself.
  requires micrometer.core;
  requires static org.jspecify;

  exports dev.herald.micrometer;
}
