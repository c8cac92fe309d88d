package dev.herald.http.servlet;

import dev.herald.client.McpClient;
import dev.herald.http.matrix.EraMatrix;
import dev.herald.server.McpServer;
import dev.herald.server.ServedEras;
import dev.herald.transport.http.StreamableHttpClientTransport;
import java.net.URI;
import org.eclipse.jetty.ee10.servlet.ServletContextHandler;
import org.eclipse.jetty.ee10.servlet.ServletHolder;
import org.eclipse.jetty.server.Server;
import org.eclipse.jetty.server.ServerConnector;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * The era matrix through {@link McpServlet} in a real servlet container (Jetty 12 ee10): Herald's
 * client set to "latest" speaks 2026-07-28 with a dual-era or modern-only server and the
 * 2025-11-25 handshake with a handshake-only one, and progress, input requests and list changes
 * work in whichever era it negotiated.
 */
@Timeout(60)
class EraMatrixOverServletTest {
  private Server jetty;

  @AfterEach
  void stop() throws Exception {
    if (jetty != null) {
      jetty.stop();
    }
  }

  private URI start(McpServer mcp) throws Exception {
    jetty = new Server();
    ServerConnector connector = new ServerConnector(jetty, 1, 1);
    connector.setHost("127.0.0.1");
    connector.setPort(0);
    jetty.addConnector(connector);
    ServletContextHandler context = new ServletContextHandler("/app");
    ServletHolder holder = new ServletHolder("mcp", McpServlet.builder().server(mcp).build());
    holder.setAsyncSupported(true);
    context.addServlet(holder, "/mcp/*");
    jetty.setHandler(context);
    jetty.start();
    return URI.create("http://127.0.0.1:" + connector.getLocalPort() + "/app/mcp");
  }

  @ParameterizedTest(name = "a latest client with a {0} server")
  @EnumSource(ServedEras.class)
  void aLatestClientNegotiatesTheBestEraTheServerServesAndEverythingWorksInIt(ServedEras eras)
      throws Exception {
    URI uri = start(EraMatrix.server(eras));
    try (McpClient client =
        EraMatrix.client().connect(() -> new StreamableHttpClientTransport(uri))) {
      EraMatrix.proves(client, eras);
    }
  }
}
