/**
 * Herald's second HTTP client transport: the client side of Streamable HTTP (MCP 2025-11-25
 * basic/transports) on Jetty 12's {@code HttpClient}, beside herald-core's transport on the JDK's
 * client. Entry point: {@link dev.herald.jetty.client.JettyStreamableHttpClientTransport}.
 */
module dev.herald.jetty.client {
  requires transitive dev.herald.core;
  requires transitive org.eclipse.jetty.client;
  requires org.eclipse.jetty.http;
  requires org.eclipse.jetty.io;
  requires org.eclipse.jetty.util;
  requires static org.jspecify;

  exports dev.herald.jetty.client;
}
