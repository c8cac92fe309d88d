/**
 * MCP over HTTP, server side: {@link dev.herald.http.McpHttpServer} serves an {@link
 * dev.herald.server.McpServer} on one Streamable HTTP endpoint (POST, GET, DELETE), plus the
 * 2024-11-05 HTTP+SSE endpoints, and {@link dev.herald.http.EventStore} keeps recent SSE events
 * so that a client can resume a stream with {@code Last-Event-ID}.
 *
 * <p>Threading: Jetty's threads read requests and complete writes; handlers run on the session
 * engine's virtual threads; no thread is held by an open stream or a waiting request. Every type
 * here is thread-safe unless its documentation says otherwise.
 *
 * <p>Nulls: non-null unless marked {@code @Nullable}.
 */
@NullMarked
package dev.herald.http;

import org.jspecify.annotations.NullMarked;
