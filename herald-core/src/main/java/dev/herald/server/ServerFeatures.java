package dev.herald.server;

import dev.herald.wire.McpJson;
import dev.herald.wire.ServerCapabilities;
import org.jspecify.annotations.Nullable;
import tools.jackson.databind.node.ObjectNode;

/**
 * What the server declares for resources, prompts and completions (MCP specification,
 * "Capability Negotiation"): each only while its catalog has entries. The methods themselves are
 * rows of {@link ServerMethods}.
 */
final class ServerFeatures {
  private ServerFeatures() {}

  /** Capabilities for the features here, as declared at bring-up; null members are absent. */
  static ServerCapabilities.@Nullable Resources resourcesCapability(McpServer server) {
    return server.resourceCatalog.isEmpty() ? null : new ServerCapabilities.Resources(true, true);
  }

  static ServerCapabilities.@Nullable ListChanged promptsCapability(McpServer server) {
    return server.promptCatalog.isEmpty() ? null : new ServerCapabilities.ListChanged(true);
  }

  static @Nullable ObjectNode completionsCapability(McpServer server) {
    return server.completions.isEmpty() ? null : McpJson.object();
  }
}
