/**
 * Herald's HTTP server: the Streamable HTTP transport (2025-03-26 to 2025-11-25) and the legacy
 * HTTP+SSE transport (2024-11-05) on Jetty 12 core handlers. Entry point: {@link
 * dev.herald.http.McpHttpServer}.
 */
// The qualified exports name Herald modules that are compiled after this one.
@SuppressWarnings("module")
module dev.herald.http {
  requires transitive dev.herald.core;
  requires org.eclipse.jetty.server;
  requires org.eclipse.jetty.http;
  requires org.eclipse.jetty.io;
  requires org.eclipse.jetty.util;
  requires static org.jspecify;

  exports dev.herald.http;
  // The transport-neutral machinery, for the servlet adapter only.
  exports dev.herald.http.internal to
      dev.herald.servlet,
      dev.herald.redis;
}
