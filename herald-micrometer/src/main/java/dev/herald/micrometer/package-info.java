/**
 * Micrometer meters for Herald sessions. Entry point: {@link
 * dev.herald.micrometer.HeraldMetrics#listenerFactory}. Listeners are called from any thread and
 * never block; no parameter or return value is null.
 */
@NullMarked
package dev.herald.micrometer;

import org.jspecify.annotations.NullMarked;
