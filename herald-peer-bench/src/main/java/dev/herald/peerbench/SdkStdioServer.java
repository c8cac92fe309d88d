package dev.herald.peerbench;

import io.modelcontextprotocol.json.McpJsonDefaults;
import io.modelcontextprotocol.server.McpServer;
import io.modelcontextprotocol.server.transport.StdioServerTransportProvider;
import io.modelcontextprotocol.spec.McpSchema.ServerCapabilities;

/**
 * A minimal stdio server built on the official Java SDK 2.1.0 ({@link
 * StdioServerTransportProvider}) with the same two tools as {@link SdkServer}, for the cold start.
 * The SDK's stdio transport does not end the process when stdin closes; the driver stops it.
 */
public final class SdkStdioServer {
  private SdkStdioServer() {}

  public static void main(String[] args) throws Exception {
    var transport = new StdioServerTransportProvider(McpJsonDefaults.getMapper());
    McpServer.sync(transport)
        .serverInfo("peer-bench-sdk", "2.1.0")
        .capabilities(ServerCapabilities.builder().tools(true).build())
        .tools(SdkServer.echo(), SdkServer.progress())
        .build();
    Thread.currentThread().join();
  }
}
