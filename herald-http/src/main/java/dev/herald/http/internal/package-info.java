/**
 * The Streamable HTTP (and legacy HTTP+SSE) protocol machinery, written once against {@link
 * dev.herald.http.internal.Exchange} so that it runs on Jetty core handlers ({@code
 * dev.herald.http.McpHttpServer}) and in a Servlet 6 container ({@code
 * dev.herald.http.servlet.McpServlet}) alike. Not API: the module exports this package only to
 * {@code dev.herald.servlet}.
 *
 * <p>Threading: the container's threads read requests and complete writes; handlers run on the
 * session engine's virtual threads; no thread is held by an open stream or a waiting request.
 *
 * <p>Nulls: non-null unless marked {@code @Nullable}.
 */
@NullMarked
package dev.herald.http.internal;

import org.jspecify.annotations.NullMarked;
