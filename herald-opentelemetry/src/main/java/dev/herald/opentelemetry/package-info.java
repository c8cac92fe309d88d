/**
 * OpenTelemetry traces for Herald. Entry point: {@link dev.herald.opentelemetry.HeraldTracing}.
 * Its interceptors run on the threads Herald calls them on (a request's virtual thread, the
 * sending thread) and never block; no parameter or return value is null unless marked.
 */
@NullMarked
package dev.herald.opentelemetry;

import org.jspecify.annotations.NullMarked;
