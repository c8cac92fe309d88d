package dev.herald.http.servlet;

import dev.herald.http.EndpointBuilder;
import dev.herald.http.McpHttpServer;
import dev.herald.http.internal.Endpoint;
import dev.herald.http.internal.EndpointBuilderAccess;
import dev.herald.server.McpServer;
import jakarta.servlet.AsyncContext;
import jakarta.servlet.ServletConfig;
import jakarta.servlet.ServletException;
import jakarta.servlet.http.HttpServlet;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;

/**
 * Serves an {@link McpServer} from a Jakarta Servlet 6 container (Tomcat 10.1+, Jetty 12 ee10,
 * Undertow, Spring Boot 3): the Streamable HTTP transport (protocol versions 2025-03-26 to
 * 2025-11-25) at the servlet's mapping, and the 2024-11-05 HTTP+SSE transport beneath it. The
 * protocol code is {@link McpHttpServer}'s, so everything its documentation says about the
 * endpoint, sessions, routing, resumability, backpressure and limits holds here too; only how the
 * bytes reach the container differs.
 *
 * <p><b>Mounting.</b> Register the instance with async support and map it to a path ending in
 * {@code /*}; the endpoint is the mapping itself. With {@code /mcp/*}: Streamable HTTP is {@code
 * /mcp} (and {@code /mcp/}), the legacy stream {@code /mcp/sse}, its POST URL {@code
 * /mcp/messages}. In a plain servlet container:
 *
 * {@snippet :
 * McpServlet servlet = McpServlet.builder()
 *     .server(server)                       // an McpServer
 *     .allowedHosts("mcp.example.com:443")  // what clients put in Host, if not loopback
 *     .build();
 * ServletRegistration.Dynamic mcp = servletContext.addServlet("mcp", servlet);
 * mcp.setAsyncSupported(true);              // required: McpServlet never blocks a thread
 * mcp.addMapping("/mcp/*");
 * }
 *
 * In Spring Boot, expose it as a bean; {@code ServletRegistrationBean} turns async support on by
 * default, and the servlet's {@code destroy} (called when the context closes) ends its sessions:
 *
 * {@snippet :
 * @Bean
 * ServletRegistrationBean<McpServlet> mcp(McpServer server) {
 *   var bean = new ServletRegistrationBean<>(McpServlet.builder().server(server).build(), "/mcp/*");
 *   bean.setAsyncSupported(true);
 *   return bean;
 * }
 * }
 *
 * <p><b>Host and Origin.</b> {@code Host}, and {@code Origin} when present, must name a loopback
 * address ({@code 127.0.0.1}, {@code localhost}, {@code [::1]}) with the port the request
 * arrived on, or be on {@link Builder#allowedHosts}/{@link Builder#allowedOrigins}; otherwise
 * 403. Behind a proxy or on a public name, list the names clients use.
 *
 * <p><b>Authorization.</b> With {@link Builder#authorization} the servlet is an OAuth 2.1
 * protected resource, exactly as {@code McpHttpServer} (docs/authorization.md). The metadata
 * document lives at the host's root ({@code /.well-known/oauth-protected-resource/<mapping>}),
 * outside the MCP mapping: map the same servlet there too, e.g. {@code
 * mcp.addMapping("/.well-known/oauth-protected-resource/*")}.
 *
 * <p><b>Threading.</b> Every request is put in async mode at once: the container thread returns
 * as soon as the request is dispatched; bodies are read with a {@code ReadListener} and answers
 * written with a {@code WriteListener}; handlers run on the session engine's virtual threads; an
 * open stream or a waiting request holds no thread. Thread-safe. The housekeeping timer (idle
 * sessions, keep-alive comments) runs from {@link #init} to {@link #destroy}.
 */
public final class McpServlet extends HttpServlet {
  private final Endpoint endpoint;

  private McpServlet(Endpoint endpoint) {
    this.endpoint = endpoint;
  }

  /** A new builder. */
  public static Builder builder() {
    return new Builder();
  }

  @Override
  public void init(ServletConfig config) throws ServletException {
    super.init(config);
    endpoint.start();
  }

  /**
   * Handles every method itself: each request goes async and is answered without blocking.
   *
   * @throws ServletException if the servlet was registered without async support
   */
  @Override
  protected void service(HttpServletRequest request, HttpServletResponse response)
      throws ServletException, IOException {
    if (!request.isAsyncSupported()) {
      throw new ServletException("McpServlet must be registered with asyncSupported=true");
    }
    AsyncContext async = request.startAsync();
    async.setTimeout(0); // a call may run long; streams stay open; the sweep handles idleness
    endpoint.handle(new ServletExchange(request, response, async));
  }

  /** Ends every session and stops the housekeeping timer. */
  @Override
  public void destroy() {
    endpoint.close();
    super.destroy();
  }

  /**
   * 2026-07-28 requests in progress: each has its own server session, ended with its exchange (MCP
   * 2026-07-28 basic/transports/streamable-http).
   */
  public int statelessCount() {
    return endpoint.statelessCount();
  }

  /** Open sessions, both transports. */
  public int sessionCount() {
    return endpoint.sessionCount();
  }

  /**
   * Builds an {@link McpServlet}. The settings are {@link McpHttpServer.Builder}'s, minus those
   * the container owns (address, port, path). Setters validate at once and name the problem.
   * Not thread-safe.
   */
  public static final class Builder extends EndpointBuilder<Builder> {
    private Builder() {
      EndpointBuilderAccess.config(this).path("/");
    }

    @Override
    protected Builder self() {
      return this;
    }

    /**
     * The servlet, ready to register.
     *
     * @throws IllegalStateException if no {@link #server} was given, or the legacy paths collide
     */
    public McpServlet build() {
      return new McpServlet(new Endpoint(EndpointBuilderAccess.config(this).build()));
    }
  }
}
