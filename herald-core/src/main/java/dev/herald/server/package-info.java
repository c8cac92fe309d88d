/**
 * The server role: {@link dev.herald.server.McpServer} owns the catalogs and serves sessions;
 * {@link dev.herald.server.ServerSession} is one client's session with its gates and levels.
 *
 * <p>Threading: thread-safe; each request's handler runs on its own virtual thread and may block.
 * Nulls: non-null unless marked {@code @Nullable}.
 */
@NullMarked
package dev.herald.server;

import org.jspecify.annotations.NullMarked;
