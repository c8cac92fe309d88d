/**
 * The Streamable HTTP client transport on Jetty 12's {@code HttpClient} (MCP 2025-11-25
 * basic/transports §Streamable HTTP).
 */
@NullMarked
package dev.herald.jetty.client;

import org.jspecify.annotations.NullMarked;
