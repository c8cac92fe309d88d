/**
 * What a call carries, shared by both roles: {@link dev.herald.session.CallOptions} (progress
 * listener, idle and absolute timeouts), cancellation ({@link dev.herald.session.CancellationToken},
 * {@link dev.herald.session.CancelledException}, {@link dev.herald.session.TimeoutException}),
 * progress at both ends ({@link dev.herald.session.ProgressReporter} for a handler, {@link
 * dev.herald.session.ProgressUpdate} and {@link dev.herald.session.ProgressRecord} for a caller),
 * and the injected time ({@link dev.herald.session.Ticker}, {@link dev.herald.session.Scheduler})
 * the builders take. The session engine that gives them their meaning is not API.
 *
 * <p>Threading: all public types are thread-safe; user callbacks run on virtual threads, never on
 * a transport's reader. Nulls: non-null unless marked {@code @Nullable}.
 */
@NullMarked
package dev.herald.session;

import org.jspecify.annotations.NullMarked;
