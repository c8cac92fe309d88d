package dev.herald.peerbench;

import io.modelcontextprotocol.json.McpJsonDefaults;
import io.modelcontextprotocol.server.McpServer;
import io.modelcontextprotocol.server.McpServerFeatures.SyncToolSpecification;
import io.modelcontextprotocol.server.McpSyncServer;
import io.modelcontextprotocol.server.McpSyncServerExchange;
import io.modelcontextprotocol.server.transport.HttpServletStreamableServerTransportProvider;
import io.modelcontextprotocol.spec.McpSchema.CallToolRequest;
import io.modelcontextprotocol.spec.McpSchema.CallToolResult;
import io.modelcontextprotocol.spec.McpSchema.ProgressNotification;
import io.modelcontextprotocol.spec.McpSchema.ServerCapabilities;
import io.modelcontextprotocol.spec.McpSchema.Tool;
import java.util.Map;
import java.util.function.BiFunction;
import org.eclipse.jetty.ee10.servlet.ServletContextHandler;
import org.eclipse.jetty.ee10.servlet.ServletHolder;
import org.eclipse.jetty.server.Server;
import org.eclipse.jetty.server.ServerConnector;

/**
 * The official Java SDK 2.1.0's server with the same two tools as {@link HeraldServer}, over its
 * Streamable HTTP servlet ({@link HttpServletStreamableServerTransportProvider}, endpoint {@code
 * /mcp}) in Jetty 12 ee10 with Jetty's defaults, as the SDK's documentation serves it. {@code
 * trigger k} is {@link McpSyncServer#addTool}, which sends {@code notifications/tools/list_changed}
 * to every session with a standing GET stream.
 */
final class SdkServer implements ServerMain.Target {
  private final McpSyncServer mcp;
  private final Server jetty;
  private final ServerConnector connector;

  SdkServer() throws Exception {
    var transport =
        HttpServletStreamableServerTransportProvider.builder()
            .jsonMapper(McpJsonDefaults.getMapper())
            .mcpEndpoint("/mcp")
            .build();
    mcp =
        McpServer.sync(transport)
            .serverInfo("peer-bench-sdk", "2.1.0")
            .capabilities(ServerCapabilities.builder().tools(true).build())
            .tools(echo(), progress())
            .build();
    jetty = new Server();
    connector = new ServerConnector(jetty);
    connector.setHost("127.0.0.1");
    connector.setPort(0);
    jetty.addConnector(connector);
    ServletContextHandler context = new ServletContextHandler();
    context.setContextPath("/");
    ServletHolder holder = new ServletHolder(transport);
    holder.setAsyncSupported(true); // the SDK answers on SSE through AsyncContext
    context.addServlet(holder, "/mcp");
    jetty.setHandler(context);
    jetty.start();
  }

  static SyncToolSpecification echo() {
    return tool(
        "echo", "Returns the text", (ex, req) -> text(String.valueOf(req.arguments().get("text"))));
  }

  static SyncToolSpecification progress() {
    return tool(
        "progress",
        "Sends count progress notifications",
        (ex, req) -> {
          Object c = req.arguments() == null ? null : req.arguments().get("count");
          int n = c instanceof Number num ? num.intValue() : 0;
          Object token = req.progressToken();
          if (token != null) {
            Double total = (double) n;
            for (int i = 1; i <= n; i++) {
              ex.progressNotification(ProgressNotification.builder(token, i).total(total).build());
            }
          }
          return text("sent " + n);
        });
  }

  static SyncToolSpecification tool(
      String name,
      String description,
      BiFunction<McpSyncServerExchange, CallToolRequest, CallToolResult> handler) {
    return SyncToolSpecification.builder()
        .tool(
            Tool.builder(name)
                .description(description)
                .inputSchema(Map.of("type", "object", "properties", Map.of()))
                .build())
        .callHandler(handler)
        .build();
  }

  static CallToolResult text(String s) {
    return CallToolResult.builder().addTextContent(s).build();
  }

  @Override
  public int port() {
    return connector.getLocalPort();
  }

  @Override
  public void trigger(int k) {
    mcp.addTool(tool("tool-" + k, "added by trigger " + k, (ex, req) -> text("k")));
  }

  @Override
  public void close() {
    mcp.close();
    try {
      jetty.stop();
    } catch (Exception e) {
      System.err.println("stopping Jetty: " + e);
    }
  }
}
