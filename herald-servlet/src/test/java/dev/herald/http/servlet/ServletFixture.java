package dev.herald.http.servlet;

import dev.herald.server.McpServer;
import dev.herald.testing.RawHttpClient;
import dev.herald.wire.CallToolResult;
import dev.herald.wire.LoggingLevel;
import dev.herald.wire.Tool;
import java.net.URI;
import java.net.http.HttpClient;
import java.time.Duration;
import org.eclipse.jetty.ee10.servlet.ServletContextHandler;
import org.eclipse.jetty.ee10.servlet.ServletHolder;
import org.eclipse.jetty.server.Server;
import org.eclipse.jetty.server.ServerConnector;

/**
 * {@link McpServlet} mounted at {@code /app/mcp/*} in Jetty 12's ee10 servlet container on
 * 127.0.0.1:0, serving an {@link McpServer} with test tools, and a raw client on the JDK's
 * {@link HttpClient}.
 */
final class ServletFixture implements AutoCloseable {
  final McpServer mcp;
  final McpServlet servlet;
  private final Server jetty;
  final int port;

  ServletFixture() throws Exception {
    mcp =
        McpServer.builder()
            .progressInterval(Duration.ZERO)
            .listChangedDebounce(Duration.ZERO)
            .tool(
                Tool.builder("quiet").description("Answers at once").build(),
                call -> CallToolResult.text("ok"))
            .tool(
                Tool.builder("steps").description("Logs, three progress steps, answers").build(),
                call -> {
                  call.context().log(LoggingLevel.INFO, "working");
                  for (int i = 1; i <= 3; i++) {
                    call.context().progress().report(i, 3.0, null);
                  }
                  return CallToolResult.text("stepped");
                })
            .build();
    servlet = McpServlet.builder().server(mcp).build();
    jetty = new Server();
    ServerConnector connector = new ServerConnector(jetty, 1, 1);
    connector.setHost("127.0.0.1");
    connector.setPort(0);
    jetty.addConnector(connector);
    ServletContextHandler context = new ServletContextHandler("/app");
    ServletHolder holder = new ServletHolder("mcp", servlet);
    holder.setAsyncSupported(true);
    context.addServlet(holder, "/mcp/*");
    jetty.setHandler(context);
    jetty.start();
    port = connector.getLocalPort();
  }

  URI uri() {
    return URI.create("http://127.0.0.1:" + port + "/app/mcp");
  }

  Client client() {
    return new Client(uri());
  }

  void addTool(String name) {
    mcp.addTool(Tool.builder(name).description("added").build(), call -> CallToolResult.text(name));
  }

  @Override
  public void close() throws Exception {
    jetty.stop();
  }

  /** The shared raw Streamable HTTP client, under the name these tests use. */
  static final class Client extends RawHttpClient {
    Client(URI uri) {
      super(uri);
    }
  }
}
