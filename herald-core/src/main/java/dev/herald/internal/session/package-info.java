/**
 * The session engine, shared by both roles: pending outbound calls with two clocks, in-flight
 * inbound requests on virtual threads, cancellation, progress at both ends, and the notification
 * registry. Knows requests and notifications, not tools or resources.
 *
 * <p>Not an API: this package is not exported; Herald's own modules reach it through a qualified
 * export. Users see the engine through {@code dev.herald.server}, {@code dev.herald.client} and
 * the call-level types of {@code dev.herald.session}.
 *
 * <p>Threading: all public types are thread-safe; user callbacks run on virtual threads, never on
 * a transport's reader. Nulls: non-null unless marked {@code @Nullable}.
 */
@NullMarked
package dev.herald.internal.session;

import org.jspecify.annotations.NullMarked;
