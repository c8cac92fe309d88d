/**
 * The client role: {@link dev.herald.client.McpClient} drives one server over any transport, with
 * per-call progress listeners, two clocks and cancellation.
 *
 * <p>Threading: thread-safe; listeners run in order on virtual threads. Nulls: non-null unless
 * marked {@code @Nullable}.
 */
@NullMarked
package dev.herald.client;

import org.jspecify.annotations.NullMarked;
