/**
 * Herald's servlet adapter: {@link dev.herald.http.servlet.McpServlet} serves an MCP server's
 * Streamable HTTP endpoint (and the legacy HTTP+SSE one) from any Jakarta Servlet 6 container.
 * The servlet API is the container's; this module only requires it.
 */
module dev.herald.servlet {
  requires transitive dev.herald.http;
  requires transitive jakarta.servlet;
  requires static org.jspecify;

  exports dev.herald.http.servlet;
}
