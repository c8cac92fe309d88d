/**
 * Test fixtures shared by Herald's modules: {@link dev.herald.testing.Eventually} to wait for a
 * condition, {@link dev.herald.testing.Background} to run work beside the test on threads of its
 * own (never the common pool), {@link dev.herald.testing.SseReader} to read a Server-Sent Events
 * stream, and {@link dev.herald.testing.RawHttpClient}, a Streamable HTTP client that builds each
 * request by hand (MCP specification, "Transports"). Test scope only: not part of Herald's API.
 *
 * <p>Threading: each type says. Nulls: non-null unless marked {@code @Nullable}.
 */
@NullMarked
package dev.herald.testing;

import org.jspecify.annotations.NullMarked;
