/**
 * What a scale-out adapter needs from the server role and users must not reach: a session's
 * state as a value ({@link dev.herald.internal.server.SessionState}), a session rebuilt from that
 * value on another node, a hook when it changes, and the server-wide notifications a node must
 * share with the others (docs/scale-out.md).
 *
 * <p>Not an API: this package is exported only to Herald's HTTP and Redis modules. Threading: every
 * type is thread-safe. Nulls: non-null unless marked {@code @Nullable}.
 */
@NullMarked
package dev.herald.internal.server;

import org.jspecify.annotations.NullMarked;
