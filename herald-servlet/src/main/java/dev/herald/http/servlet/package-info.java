/**
 * MCP over HTTP inside a Jakarta Servlet 6 container: {@link dev.herald.http.servlet.McpServlet}
 * serves an {@link dev.herald.server.McpServer} with the same protocol code as {@link
 * dev.herald.http.McpHttpServer}, mounted wherever the host application maps it.
 *
 * <p>Threading: the container's threads read requests and complete writes, always in async mode;
 * handlers run on the session engine's virtual threads; no thread is held by an open stream or a
 * waiting request. Every type here is thread-safe.
 *
 * <p>Nulls: non-null unless marked {@code @Nullable}.
 */
@NullMarked
package dev.herald.http.servlet;

import org.jspecify.annotations.NullMarked;
