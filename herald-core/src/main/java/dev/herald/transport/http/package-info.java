/**
 * The Streamable HTTP client transport (MCP 2025-11-25 basic/transports §Streamable HTTP), with
 * SSE resumption and polling (SEP-1699) and a fallback to the 2024-11-05 HTTP+SSE transport. The
 * entry type is {@link dev.herald.transport.http.StreamableHttpClientTransport}. It runs on {@link
 * dev.herald.transport.http.Http1Client}, an HTTP/1.1 {@link java.net.http.HttpClient} that makes
 * each exchange on the sending thread, unless a proxy applies to the endpoint, when it runs on the
 * JDK's client ({@link dev.herald.transport.http.HttpEngine}), or on any client given to it.
 *
 * <p>Threading: all I/O runs on virtual threads, one per open response stream; frames reach the
 * receiver one at a time under one delivery lock, in arrival order per stream. Nulls: non-null
 * unless marked {@code @Nullable}.
 */
@NullMarked
package dev.herald.transport.http;

import org.jspecify.annotations.NullMarked;
