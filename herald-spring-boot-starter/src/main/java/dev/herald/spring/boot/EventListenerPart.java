package dev.herald.spring.boot;

import dev.herald.session.EventListener;
import org.jspecify.annotations.Nullable;

/**
 * One of the starter's own event listeners (Micrometer's meters, OpenTelemetry's task spans),
 * asked for when the server is built. The server takes one {@link EventListener.Factory}, so the
 * starter combines the parts with {@link EventListener.Factory#and}; an application's own {@code
 * EventListener.Factory} bean replaces them all.
 */
@FunctionalInterface
interface EventListenerPart {
  /** The part's factory, or null when what it needs (a registry, an SDK) is not there. */
  EventListener.@Nullable Factory factory();
}
